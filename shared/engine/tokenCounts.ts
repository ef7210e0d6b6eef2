import { z } from 'zod';
import type { Metrics, StepTokens } from './runState';

const count = z.number().int().nonnegative();

/**
 * A run's (or a step's) model tokens as `lathe eval` and `lathe run --json` print them. `cached`: prompt
 * tokens served from a reused KV-cache prefix; `prefill`: the rest, evaluated anew (prompt − cached),
 * which is what a CPU spends most of a task's time on; `estimated`: oracle/replay counts (docs/eval.md).
 */
export const TokenCountsSchema = z.object({
  prompt: count,
  cached: count,
  prefill: count,
  generated: count,
  calls: count,
  estimated: z.boolean(),
});
export type TokenCounts = z.infer<typeof TokenCountsSchema>;

export const NO_TOKENS: TokenCounts = { prompt: 0, cached: 0, prefill: 0, generated: 0, calls: 0, estimated: false };

type Tally = Pick<StepTokens, 'calls' | 'prompt_tokens' | 'completion_tokens'> & {
  cached_tokens?: number;
  estimated?: boolean;
};

/** The sum of several tallies (a run's roles, a step's calls). */
export function tokenCountsOf(tallies: Iterable<Tally>): TokenCounts {
  const total = { ...NO_TOKENS };
  for (const tally of tallies) {
    total.prompt += tally.prompt_tokens;
    total.cached += Math.min(tally.cached_tokens ?? 0, tally.prompt_tokens);
    total.generated += tally.completion_tokens;
    total.calls += tally.calls;
    total.estimated ||= tally.estimated === true;
  }
  total.prefill = total.prompt - total.cached;
  return total;
}

/** A run's tokens over every role, from its metrics. */
export function runTokenCounts(metrics: Pick<Metrics, 'agents'>): TokenCounts {
  return tokenCountsOf(Object.values(metrics.agents));
}

/** Per-task medians of each count (each its own median: prefill is not the median prompt less the median cached). */
export const MedianTokensSchema = z.object({
  prompt: z.number().nonnegative(),
  cached: z.number().nonnegative(),
  prefill: z.number().nonnegative(),
  generated: z.number().nonnegative(),
  calls: z.number().nonnegative(),
  /** Whether any task's counts were estimates. */
  estimated: z.boolean(),
});
export type MedianTokens = z.infer<typeof MedianTokensSchema>;

/** The medians over tasks, or null for none. */
export function medianTokens(tasks: readonly TokenCounts[]): MedianTokens | null {
  if (tasks.length === 0) return null;
  const of = (key: Exclude<keyof TokenCounts, 'estimated'>) => median(tasks.map((task) => task[key]));
  return {
    prompt: of('prompt'),
    cached: of('cached'),
    prefill: of('prefill'),
    generated: of('generated'),
    calls: of('calls'),
    estimated: tasks.some((task) => task.estimated),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
