/** Medians and spread for benches on a shared machine: interleave the cases, repeat, report both. */
export interface Spread {
  median: number;
  p25: number;
  p75: number;
  min: number;
  max: number;
  n: number;
  /** The interquartile range is over a quarter of the median: the machine was busy, re-run when quiet. */
  noisy: boolean;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return (sorted[low] ?? 0) + ((sorted[high] ?? 0) - (sorted[low] ?? 0)) * (position - low);
}

export function spread(values: readonly number[], digits = 2): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 10 ** digits) / 10 ** digits;
  const median = quantile(sorted, 0.5);
  const p25 = quantile(sorted, 0.25);
  const p75 = quantile(sorted, 0.75);
  return {
    median: round(median),
    p25: round(p25),
    p75: round(p75),
    min: round(sorted[0] ?? Number.NaN),
    max: round(sorted.at(-1) ?? Number.NaN),
    n: sorted.length,
    noisy: p75 - p25 > Math.abs(median) / 4,
  };
}

/** "IQR 120–180 (n=10)", with "noisy" when it is. */
export function spreadText(value: Spread): string {
  return `IQR ${value.p25}–${value.p75}, n=${value.n}${value.noisy ? ', noisy' : ''}`;
}

/** Runs each case `rounds` times, interleaved (a, b, c, a, b, c, …), so load hits every case alike. */
export async function interleaved<K extends string>(
  rounds: number,
  cases: Record<K, () => Promise<number> | number>,
): Promise<Record<K, number[]>> {
  const keys = Object.keys(cases) as K[];
  const samples = Object.fromEntries(keys.map((key) => [key, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < rounds; round++) for (const key of keys) samples[key].push(await cases[key]());
  return samples;
}
