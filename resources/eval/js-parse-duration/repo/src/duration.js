const UNIT_MS = { h: 3_600_000, m: 1000, s: 1000, ms: 1 };

/** Milliseconds in a duration such as "1h30m", "45s" or "250ms". */
export function parseDuration(text) {
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+)(ms|h|m|s)/g)) {
    total += Number(amount) * UNIT_MS[unit];
  }
  return total;
}

/** "1h 2m 3s" style text for a number of milliseconds (whole seconds). */
export function formatDuration(ms) {
  const seconds = Math.floor(ms / 1000);
  const parts = [];
  if (seconds >= 3600) parts.push(`${Math.floor(seconds / 3600)}h`);
  if (seconds % 3600 >= 60) parts.push(`${Math.floor((seconds % 3600) / 60)}m`);
  if (seconds % 60 > 0 || parts.length === 0) parts.push(`${seconds % 60}s`);
  return parts.join(' ');
}
