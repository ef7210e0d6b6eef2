import { leading as indentOf, type IndentStyle } from './indentStyle';

/** How a hunk's indentation widths map to the file's: `file = scale × hunk + shift`. */
export interface Drift {
  scale: number;
  shift: number;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** The drift as a shift or ratio the pairs all agree with, or null. */
function agreed(pairs: readonly [number, number][], scale: number): Drift | null {
  const shifts = new Set(pairs.map(([hunk, file]) => file - scale * hunk));
  const shift = [...shifts][0];
  return shifts.size === 1 && shift !== undefined && Number.isInteger(shift) ? { scale, shift } : null;
}

/** Whether the new lines, so moved, never step in more than one of the file's levels from one line to the next. */
function keepsNesting(drift: Drift, newSide: readonly number[], fileUnit: number): boolean {
  const widths = newSide.map((width) => drift.scale * width + drift.shift);
  return widths.every((width, index) => index === 0 || width - (widths[index - 1] ?? 0) <= fileUnit);
}

/**
 * The one drift every old line agrees with. With two indented levels to read it from, the ratio of the
 * file's indent unit to the block's comes first (a snippet copied at 2 spaces into a 4-space file), then a
 * plain shift. With one level a shift comes first, and the ratio only when the shift would push a new line
 * more than one level in (`if (!x) {` then its body two levels deeper): one line off by a level is as
 * likely a slip of that line. Null when the lines disagree: the new lines stay as written.
 */
function fitDrift(
  pairs: readonly [number, number][],
  newSide: readonly number[],
  blockUnit: number,
  fileUnit: number,
): Drift | null {
  const ratio = fileUnit / blockUnit;
  const levels = new Set(pairs.map(([hunk]) => hunk).filter((width) => width > 0)).size;
  if (levels >= 2) {
    for (const scale of new Set([ratio, 1, 2, 0.5])) {
      const drift = agreed(pairs, scale);
      if (drift) return drift;
    }
    return null;
  }
  const shifted = agreed(pairs, 1);
  if (!shifted || keepsNesting(shifted, newSide, fileUnit)) return shifted;
  const scaled = ratio === 1 ? null : agreed(pairs, ratio);
  return scaled && keepsNesting(scaled, newSide, fileUnit) ? scaled : shifted;
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
 * every line the writer gave (old and new), for the block's own indent unit; `newSide` the lines the
 * change leaves (context and new lines, in order), whose nesting a drift must keep.
 */
export function indentDrift(
  copied: readonly string[],
  matched: readonly string[],
  block: readonly string[],
  newSide: readonly string[],
  style: IndentStyle | null,
): Drift | null {
  const pairs: [number, number][] = [];
  copied.forEach((line, index) => {
    const fileLine = matched[index] ?? '';
    if (fileLine.trim() !== '') pairs.push([indentOf(line).length, indentOf(fileLine).length]);
  });
  const widths = block.filter((line) => line.trim() !== '').map((line) => indentOf(line).length);
  const blockUnit = widths.reduce(gcd, 0) || 1;
  const newWidths = newSide.filter((line) => line.trim() !== '').map((line) => indentOf(line).length);
  return fitDrift(pairs, newWidths, blockUnit, style?.kind === 'spaces' ? style.width : 1);
}
