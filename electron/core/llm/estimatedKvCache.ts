import { estimateTokens } from './results';
import type { ChatMessage } from './types';
import type { ModelRole } from '../../../shared/schemas/roles';

/** What the estimate puts around each message's text for the chat template (its `fitByEstimate` count). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/**
 * The KV-cache reuse a llama.cpp session would get, for providers that evaluate no prompt (oracle,
 * replay): each role keeps one sequence, which holds its last prompt and the answer after it, and the
 * next call of the role evaluates only what follows the longest common prefix with that. Tokens are
 * estimated as the context builder does (≈ 4 characters a token, 4 more per message); the common
 * prefix is found on the prompt as rendered message by message, so a change early in a prompt costs
 * everything after it, as it would on a real model.
 */
export class EstimatedKvCache {
  private readonly held = new Map<ModelRole, ChatMessage[]>();

  /**
   * The tokens of this prompt the role's session already holds, then holds this prompt instead. At
   * least one token is evaluated, as llama.cpp must to have logits to sample from.
   */
  evaluate(role: ModelRole, messages: readonly ChatMessage[], promptTokens: number): number {
    const reused = commonPrefixTokens(this.held.get(role) ?? [], messages);
    this.held.set(role, [...messages]);
    return Math.max(0, Math.min(reused, promptTokens - 1));
  }

  /** The answer generated after the prompt stays in the session too: a next prompt that quotes it reuses it. */
  answered(role: ModelRole, raw: string): void {
    const held = this.held.get(role);
    if (held && raw !== '') held.push({ role: 'assistant', content: raw });
  }
}

/** Estimated tokens of the longest common prefix of two prompts rendered message by message. */
export function commonPrefixTokens(held: readonly ChatMessage[], next: readonly ChatMessage[]): number {
  let tokens = 0;
  for (let i = 0; i < Math.min(held.length, next.length); i++) {
    const a = held[i] as ChatMessage;
    const b = next[i] as ChatMessage;
    if (a.role !== b.role) break;
    if (a.content === b.content) {
      tokens += estimateTokens(b.content) + MESSAGE_OVERHEAD_TOKENS;
      continue;
    }
    // The message's header is shared; of its text, whole tokens of the shared characters.
    return tokens + Math.floor(commonPrefixLength(a.content, b.content) / 4) + 1;
  }
  return tokens;
}

function commonPrefixLength(a: string, b: string): number {
  const end = Math.min(a.length, b.length);
  let i = 0;
  while (i < end && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
