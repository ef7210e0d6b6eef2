import { DEFAULT_CONTEXT_SIZE } from './defaults';

/**
 * The window a `llama:` role gets when its config names none: 8k when the model was trained on that
 * much and memory holds it. Not the model's whole trained window: the context engine fills the window
 * it is given, and every prompt token is prefill time on a laptop CPU, while the right file is in the
 * context at 8k for 30 of 31 corpus tasks, as at 16k (docs/context.md). `context_size` asks for more.
 */
export const PREFERRED_CONTEXT_SIZE = 8192;
/** Contexts planned in memory at once: the writer's and one reviewer's (idle ones are freed when short). */
export const CONTEXTS_PLANNED = 2;
/** Share of the available memory the weights and planned contexts may take. */
const MEMORY_SHARE = 0.8;

export interface WindowChoiceInput {
  /** The GGUF's `<arch>.context_length`; null when the file does not say. */
  trainedContext: number | null;
  weightsBytes: number;
  /** Memory one context of `size` tokens takes (KV cache and buffers), from the model's shape. */
  contextBytes: (size: number) => number;
  availableBytes: number;
}

export interface WindowChoice {
  contextSize: number;
  /** Why this size, in words for `lathe doctor` and `lathe models`. */
  reason: string;
}

const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GB`;

/** The default window for a model on this machine, and why (decision 92). */
export function chooseContextSize(input: WindowChoiceInput): WindowChoice {
  const trained = input.trainedContext;
  if (trained !== null && trained <= DEFAULT_CONTEXT_SIZE)
    return { contextSize: trained, reason: `the whole ${trained}-token window the model was trained on` };
  const need = (size: number) => input.weightsBytes + CONTEXTS_PLANNED * input.contextBytes(size);
  const limit = input.availableBytes * MEMORY_SHARE;
  const trainedText =
    trained === null ? 'the model states no trained window' : `of the ${trained} the model was trained on`;
  if (trained === null || trained >= PREFERRED_CONTEXT_SIZE) {
    const size = PREFERRED_CONTEXT_SIZE;
    if (need(size) <= limit) {
      const more =
        trained !== null && trained > size
          ? `; a larger window holds more files but costs its length in prefill on every call: set context_size (up to ${trained}) for more`
          : '';
      return {
        contextSize: size,
        reason: `${size} ${trainedText}: weights + ${CONTEXTS_PLANNED} contexts need ${gib(need(size))} of ${gib(input.availableBytes)} available${more}`,
      };
    }
    return {
      contextSize: DEFAULT_CONTEXT_SIZE,
      reason: `${DEFAULT_CONTEXT_SIZE} ${trainedText}: weights + ${CONTEXTS_PLANNED} contexts of ${size} tokens would need ${gib(need(size))}, over ${Math.round(MEMORY_SHARE * 100)}% of the ${gib(input.availableBytes)} available`,
    };
  }
  return { contextSize: DEFAULT_CONTEXT_SIZE, reason: `${DEFAULT_CONTEXT_SIZE} ${trainedText}` };
}
