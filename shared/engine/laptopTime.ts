import { z } from 'zod';
import type { TokenCounts } from './tokenCounts';

/**
 * A machine's llama.cpp rates for one model: what the laptop-time model multiplies the token counts by
 * (docs/eval.md, "Laptop time"). `bench:llm --model PATH.gguf` measures them on this machine.
 */
export const MachineRatesSchema = z.object({
  id: z.string(),
  label: z.string(),
  /** New prompt tokens evaluated per second (llama-bench's pp512). */
  prefill_tokens_per_second: z.number().positive(),
  /** What a prompt token served from the KV cache still costs (the new tokens attend to it), in ms. */
  cached_token_ms: z.number().nonnegative(),
  /** Tokens generated per second (llama-bench's tg128). */
  generation_tokens_per_second: z.number().positive(),
  /** Where the figures come from. */
  source: z.string(),
});
export type MachineRates = z.infer<typeof MachineRatesSchema>;

/**
 * Published llama-bench figures for an 8B Q4_K_M model (the 7B class Lathe is sized for) on two laptop
 * classes. llama.cpp does not evaluate a cached token again; what it still costs is the new tokens'
 * attention over it, taken here as 2% of a cold token (bench:llm measured 0.054× for a whole reused
 * prompt's time to first token, new tokens included, on the bench model).
 */
export const LAPTOP_PROFILES: readonly MachineRates[] = [
  {
    id: 'cpu-laptop',
    label: '8-core laptop CPU, 8B Q4_K_M',
    prefill_tokens_per_second: 49.75,
    cached_token_ms: (1000 / 49.75) * 0.02,
    generation_tokens_per_second: 9.63,
    source:
      'AMD Ryzen 7 8840U, llama.cpp CPU backend, Llama 3.1 8B Q4_K_M: pp512 49.75 t/s, tg128 9.63 t/s (https://github.com/brand-o/normiebench/issues/8)',
  },
  {
    id: 'apple-m',
    label: 'Apple M4 (Metal), 8B Q4_K_M',
    prefill_tokens_per_second: 224.81,
    cached_token_ms: (1000 / 224.81) * 0.02,
    generation_tokens_per_second: 20.87,
    source:
      'Apple M4 (10-core, 16 GB), llama.cpp Metal, Llama 3.1 8B Q4_K_M: pp512 224.81 t/s, tg128 20.87 t/s (https://github.com/brand-o/normiebench/issues/3)',
  },
];

/**
 * The model's share of a task's wall time on a machine: new prefill at its prompt rate, cached tokens
 * at their small cost, generated tokens at its generation rate. Tests, git and model loading are not
 * in it (they are the run's own measured time).
 */
export function modelTimeMs(
  tokens: Pick<TokenCounts, 'prefill' | 'cached' | 'generated'>,
  rates: MachineRates,
): number {
  return (
    (tokens.prefill / rates.prefill_tokens_per_second) * 1000 +
    tokens.cached * rates.cached_token_ms +
    (tokens.generated / rates.generation_tokens_per_second) * 1000
  );
}

/** Minutes of model time per reference laptop, one decimal, by profile id. */
export function laptopMinutes(
  tokens: Pick<TokenCounts, 'prefill' | 'cached' | 'generated'>,
  profiles: readonly MachineRates[] = LAPTOP_PROFILES,
): Record<string, number> {
  return Object.fromEntries(
    profiles.map((profile) => [profile.id, Math.round(modelTimeMs(tokens, profile) / 6000) / 10]),
  );
}
