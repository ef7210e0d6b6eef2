import type { IndentStyle } from './indentStyle';

const indentOf = (line: string) => /^[ \t]*/.exec(line)?.[0] ?? '';

/** How a hunk's indentation widths map to the file's: `file = scale × hunk + shift`. */
export interface Drift {
  scale: number;
  shift: number;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * The one drift every old line agrees with, trying first the ratio of the file's indent unit to the
 * hunk's (a snippet copied at 2 spaces into a 4-space file), then a plain shift (one level too deep);
 * null when the lines disagree (a model that got only some lines wrong: its added lines stay as written).
 */
function fitDrift(pairs: readonly [number, number][], hunkUnit: number, fileUnit: number): Drift | null {
  // A ratio needs two indented levels to show it: one line off by a level is as likely a slip of that line.
  const levels = new Set(pairs.map(([hunk]) => hunk).filter((width) => width > 0)).size;
  const scales = [...new Set([fileUnit / hunkUnit, 1, 2, 0.5])].filter((scale) => scale === 1 || levels >= 2);
  for (const scale of scales) {
    const shifts = new Set(pairs.map(([hunk, file]) => file - scale * hunk));
    const shift = [...shifts][0];
    if (shifts.size === 1 && shift !== undefined && Number.isInteger(shift)) return { scale, shift };
  }
  return null;
}

/** The line at the width the drift gives its own (unchanged when that is not a whole, non-negative width). */
export function redrifted(line: string, drift: Drift | null, unit: string): string {
  if (!drift || line.trim() === '') return line;
  const indent = indentOf(line);
  const width = drift.scale * indent.length + drift.shift;
  return Number.isInteger(width) && width >= 0 ? unit.repeat(width) + line.slice(indent.length) : line;
}

/**
 * How a copied block's indentation drifted from the file's, read from its old lines (`copied`, in the
 * file's indent style) against the lines they matched in the file (`matched`, same order); `block` is
 * every line the writer gave (old and new), for the block's own indent unit.
 */
export function indentDrift(
  copied: readonly string[],
  matched: readonly string[],
  block: readonly string[],
  style: IndentStyle | null,
): Drift | null {
  const pairs: [number, number][] = [];
  copied.forEach((line, index) => {
    const fileLine = matched[index] ?? '';
    if (fileLine.trim() !== '') pairs.push([indentOf(line).length, indentOf(fileLine).length]);
  });
  const widths = block.filter((line) => line.trim() !== '').map((line) => indentOf(line).length);
  const blockUnit = widths.reduce(gcd, 0) || 1;
  return fitDrift(pairs, blockUnit, style?.kind === 'spaces' ? style.width : 1);
}
