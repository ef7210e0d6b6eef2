import { LatheError } from '../../../shared/errors';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30m`, `90s`, `1h30m`, `1500ms`, `7d`, or a bare number of seconds. */
export function parseDuration(text: string, what = 'duration'): number {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== trimmed) {
    throw new LatheError('BAD_CONFIG', `${what}: '${text}' is not a duration (examples: 30m, 90s, 1h30m, 7d)`, {
      key: what,
    });
  }
  return Math.round(
    parts.reduce((total, [, amount, unit]) => total + Number(amount) * (UNITS[unit ?? 's'] ?? 1000), 0),
  );
}
