import { estimateTokens } from './results';
import type { ChatMessage, PromptCounter } from './types';

/** Per message: the chat template's role markers, as the estimating providers count them. */
const MESSAGE_OVERHEAD = 4;

/**
 * How far the 4-characters estimate undercounts a real tokenizer on code and prompts, at the 95th
 * percentile of the corpus's files (docs/context.md, "How tokens are counted"): a server's window is
 * planned this much larger than the estimate says, so its own tokenizer does not find it overflowing.
 */
export const SERVER_ESTIMATE_MARGIN = 0.3;

/** The estimate as a counter: `margin` 0 for providers that check by the same estimate (oracle, replay). */
export function estimateCounter(margin = 0): PromptCounter {
  const scale = 1 + margin;
  const countText = (text: string) => Math.ceil(estimateTokens(text) * scale);
  return {
    exact: false,
    countText,
    countPrompt: (messages: readonly ChatMessage[]) =>
      messages.reduce((sum, message) => sum + countText(message.content) + MESSAGE_OVERHEAD, 0),
  };
}
