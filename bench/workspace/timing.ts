export interface Timing {
  medianMs: number;
  minMs: number;
  maxMs: number;
  runs: number;
}

export function summarize(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  return {
    medianMs: round(median),
    minMs: round(sorted[0] ?? 0),
    maxMs: round(sorted.at(-1) ?? 0),
    runs: sorted.length,
  };
}

export function round(value: number): number {
  return Math.round(value * 10) / 10;
}

export async function time<T>(task: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await task();
  return { ms: performance.now() - started, value };
}
