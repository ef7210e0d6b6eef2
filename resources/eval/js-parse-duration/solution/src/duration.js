const UNIT_MS = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
const DURATION = /^(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+)s)?(?:(\d+)ms)?$/;

/** Milliseconds in a duration such as "1h30m", "45s" or "250ms". */
export function parseDuration(text) {
  const match = DURATION.exec(text);
  if (!match || text === '') throw new TypeError(`not a duration: "${text}"`);
  const [, hours, minutes, seconds, millis] = match;
  return Number(hours ?? 0) * UNIT_MS.h + Number(minutes ?? 0) * UNIT_MS.m + Number(seconds ?? 0) * UNIT_MS.s + Number(millis ?? 0) * UNIT_MS.ms;
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
