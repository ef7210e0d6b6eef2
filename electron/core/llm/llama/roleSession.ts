import {
  InputLookupTokenPredictor,
  LlamaChat,
  type ChatHistoryItem,
  type LlamaContext,
  type LlamaContextSequence,
  type LlamaModel,
  type Token,
} from 'node-llama-cpp';
import type { ModelRole } from '../../../../shared/schemas/roles';
import type { ChatMessage } from '../types';

export function toChatHistory(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((message): ChatHistoryItem => {
    if (message.role === 'system') return { type: 'system', text: message.content };
    if (message.role === 'user') return { type: 'user', text: message.content };
    return { type: 'model', response: [message.content] };
  });
  history.push({ type: 'model', response: [] });
  return history;
}

/**
 * One role's own context and sequence on a loaded model. The sequence keeps its tokens between calls,
 * so the next call of the role re-evaluates only what follows the shared prefix (system prompt,
 * repository context) instead of the whole prompt.
 */
export class RoleSession {
  /** Owns the sequence and the model's chat template; answers are decoded by `decodeAnswer`. */
  readonly chat: LlamaChat;
  calls = 0;
  lastUsed = Date.now();
  private tail: Promise<unknown> = Promise.resolve();
  private running = 0;

  constructor(
    readonly role: ModelRole,
    readonly model: LlamaModel,
    readonly context: LlamaContext,
    /** The pool's key for it: the router that owns it and the role. */
    readonly key: string = role,
    /** Prompt-lookup decoding: tokens looked up in the prompt are checked in one batch, not decoded one by one. */
    readonly promptLookup = false,
  ) {
    const sequence = context.getSequence(
      promptLookup ? { tokenPredictor: new InputLookupTokenPredictor() } : undefined,
    );
    this.chat = new LlamaChat({ contextSequence: sequence, chatWrapper: 'auto' });
  }

  get sequence(): LlamaContextSequence {
    return this.chat.sequence;
  }

  /** Looked-up tokens confirmed and refuted so far (zeros without prompt lookup). */
  lookupCounts(): { validated: number; refuted: number } {
    const { validated, refuted } = this.chat.sequence.tokenPredictions;
    return { validated, refuted };
  }

  get contextSize(): number {
    return this.context.contextSize;
  }

  get busy(): boolean {
    return this.running > 0;
  }

  /** The exact tokens the model will evaluate for these messages, chat template included. */
  promptTokens(messages: readonly ChatMessage[]): Token[] {
    const { contextText } = this.chat.chatWrapper.generateContextState({ chatHistory: toChatHistory(messages) });
    return contextText.tokenize(this.model.tokenizer);
  }

  /** Tokens at the start of `tokens` already in the sequence's state. */
  reusablePrefix(tokens: Token[]): number {
    const { firstDifferentIndex } = this.chat.sequence.compareContextTokens(tokens);
    return Math.max(0, Math.min(firstDifferentIndex, tokens.length - 1));
  }

  /** Runs `task` after the role's previous calls: one sequence cannot generate twice at once. */
  exclusive<R>(task: () => Promise<R>): Promise<R> {
    this.running++;
    const run = this.tail.then(task, task);
    // catch-ok: the tail only orders the next task: this task's failure reaches its caller through run
    this.tail = run.catch(() => undefined);
    return run.finally(() => {
      this.running--;
      this.lastUsed = Date.now();
    });
  }

  async dispose(): Promise<void> {
    this.chat.dispose({ disposeSequence: true });
    await this.context.dispose();
  }
}
