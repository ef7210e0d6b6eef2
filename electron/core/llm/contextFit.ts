import type { ChatMessage, ContextItem } from './types';

export const CONTEXT_MARKER = '{{context}}';
const ITEM_SEPARATOR = '\n\n';

/** Places the chosen items (in their given order) at the marker of the last user message. */
export function insertContext(messages: readonly ChatMessage[], items: readonly ContextItem[]): ChatMessage[] {
  const text = items.map((item) => item.text).join(ITEM_SEPARATOR);
  const copy = messages.map((message) => ({ ...message }));
  let target = -1;
  for (let i = copy.length - 1; i >= 0; i--) {
    if (copy[i]?.role === 'user') {
      target = i;
      break;
    }
  }
  if (target < 0) {
    if (text !== '') copy.push({ role: 'user', content: text });
    return copy;
  }
  const message = copy[target] as ChatMessage;
  if (message.content.includes(CONTEXT_MARKER)) message.content = message.content.split(CONTEXT_MARKER).join(text);
  else if (text !== '') message.content = `${message.content}${ITEM_SEPARATOR}${text}`;
  return copy;
}

export interface FitOptions {
  messages: readonly ChatMessage[];
  context?: readonly ContextItem[];
  /** Tokens the prompt may use: the context size minus the tokens reserved for the answer. */
  budgetTokens: number;
  /** Exact prompt size as the model will see it (chat template included). */
  countPrompt: (messages: ChatMessage[]) => number;
  /** Size of one item's text alone; used to choose, then checked with `countPrompt`. */
  countText: (text: string) => number;
}

export type FitResult =
  | { ok: true; messages: ChatMessage[]; promptTokens: number; kept: string[]; dropped: string[] }
  | { ok: false; mandatoryTokens: number };

/**
 * Keeps the highest-priority context items that fit beside the mandatory messages. Lower-priority
 * items go first; a smaller low-priority item may still fit where a large one did not.
 */
export function fitContext(options: FitOptions): FitResult {
  const items = [...(options.context ?? [])];
  const mandatoryTokens = options.countPrompt(insertContext(options.messages, []));
  if (mandatoryTokens > options.budgetTokens) return { ok: false, mandatoryTokens };

  const byPriority = items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => b.item.priority - a.item.priority || a.index - b.index);
  const chosen = new Set<number>();
  let estimate = mandatoryTokens;
  for (const { item, index } of byPriority) {
    const cost = options.countText(item.text) + 2;
    if (estimate + cost <= options.budgetTokens) {
      chosen.add(index);
      estimate += cost;
    }
  }
  // Tokens merge across item boundaries, so verify the real prompt and shed the lowest priority if needed.
  for (;;) {
    const keptItems = items.filter((_, index) => chosen.has(index));
    const messages = insertContext(options.messages, keptItems);
    const promptTokens = options.countPrompt(messages);
    if (promptTokens <= options.budgetTokens || chosen.size === 0) {
      return {
        ok: true,
        messages,
        promptTokens,
        kept: keptItems.map((item) => item.id),
        dropped: byPriority
          .filter(({ index }) => !chosen.has(index))
          .reverse()
          .map(({ item }) => item.id),
      };
    }
    const lowest = [...byPriority].reverse().find(({ index }) => chosen.has(index));
    if (lowest) chosen.delete(lowest.index);
  }
}
