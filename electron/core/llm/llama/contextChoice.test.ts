import { describe, expect, it } from 'vitest';
import { chooseContextSize, CONTEXTS_PLANNED, PREFERRED_CONTEXT_SIZE } from './contextChoice';

const GB = 1024 ** 3;
/** Qwen2.5-7B's shape: 28 layers × 4 KV heads × 128 dims × K and V × 2 bytes = 56 KB a token. */
const kv7b = (size: number) => size * 28 * 4 * 128 * 2 * 2;

describe('the default window of a llama model', () => {
  it('is 8k of a 32k model when memory holds the weights and two 8k contexts, and says a larger one is a choice', () => {
    const choice = chooseContextSize({
      trainedContext: 32_768,
      weightsBytes: 4.4 * GB,
      contextBytes: kv7b,
      availableBytes: 12 * GB,
    });
    expect(choice.contextSize).toBe(PREFERRED_CONTEXT_SIZE);
    expect(choice.reason).toMatch(
      /^8192 of the 32768 the model was trained on: weights \+ 2 contexts need 5\.3 GB of 12\.0 GB available; a larger window .* set context_size \(up to 32768\) for more$/,
    );
  });

  it('falls back to 4k when two 8k contexts beside the weights would take more than 80% of the free memory', () => {
    const available = (4.4 * GB + CONTEXTS_PLANNED * kv7b(8192)) / 0.8 - 1;
    const choice = chooseContextSize({
      trainedContext: 32_768,
      weightsBytes: 4.4 * GB,
      contextBytes: kv7b,
      availableBytes: available,
    });
    expect(choice.contextSize).toBe(4096);
    expect(choice.reason).toMatch(
      /^4096 of the 32768 the model was trained on: weights \+ 2 contexts of 8192 tokens would need 5\.3 GB, over 80% of the 6\.6 GB available$/,
    );
    expect(
      chooseContextSize({
        trainedContext: 32_768,
        weightsBytes: 4.4 * GB,
        contextBytes: kv7b,
        availableBytes: available + 2,
      }).contextSize,
    ).toBe(8192);
  });

  it('never exceeds what the model was trained on', () => {
    expect(
      chooseContextSize({ trainedContext: 2048, weightsBytes: 0, contextBytes: kv7b, availableBytes: 64 * GB }),
    ).toEqual({ contextSize: 2048, reason: 'the whole 2048-token window the model was trained on' });
    expect(
      chooseContextSize({ trainedContext: 6000, weightsBytes: 0, contextBytes: kv7b, availableBytes: 64 * GB })
        .contextSize,
    ).toBe(4096);
    expect(
      chooseContextSize({ trainedContext: null, weightsBytes: 0, contextBytes: kv7b, availableBytes: 64 * GB })
        .contextSize,
    ).toBe(8192);
  });
});
