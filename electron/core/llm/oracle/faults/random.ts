/** A seeded source of numbers in [0, 1): the same keys give the same sequence, on every machine. */
export type Random = () => number;

/** FNV-1a over the keys (NUL-separated), then mulberry32: decisions from (seed, task, step, kind) alone. */
export function seededRandom(...keys: readonly (string | number)[]): Random {
  let hash = 0x811c9dc5;
  for (const char of keys.join('\u0000')) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  let state = hash;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: Random, items: readonly T[]): T | undefined {
  return items.length === 0 ? undefined : items[Math.floor(random() * items.length)];
}

/** The items in a seeded order (Fisher-Yates). */
export function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const out = [...items];
  for (let index = out.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [out[index], out[other]] = [out[other] as T, out[index] as T];
  }
  return out;
}

/** A whole number in [min, max]. */
export function between(random: Random, min: number, max: number): number {
  return max <= min ? min : min + Math.floor(random() * (max - min + 1));
}
