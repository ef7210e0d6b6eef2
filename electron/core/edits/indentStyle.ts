/**
 * A file's indentation style, and a block's leading whitespace put into it. A model that writes a
 * block with tabs for a file indented with spaces (or the reverse) still means the same levels; a
 * re-indented block must say them the file's way (a tab in a spaces-only Python file is an error).
 */
export type IndentStyle = { kind: 'tabs' } | { kind: 'spaces'; width: number };

/** A line's leading spaces and tabs. */
export const leading = (line: string) => /^[ \t]*/.exec(line)?.[0] ?? '';
/** ` * text` continues a block comment: its one space is alignment, not indentation. */
const isCommentContinuation = (line: string) => /^\s*\*/.test(line);

/** The most common step between the indents of successive lines (2, 4…), else the smallest indent, else 4. */
function spaceWidth(lines: readonly string[]): number {
  const steps = new Map<number, number>();
  let previous = 0;
  let smallest = Infinity;
  for (const line of lines) {
    if (line.trim() === '' || isCommentContinuation(line)) continue;
    const indent = leading(line);
    if (indent.includes('\t')) continue;
    if (indent.length > 0) smallest = Math.min(smallest, indent.length);
    const step = indent.length - previous;
    if (step > 0) steps.set(step, (steps.get(step) ?? 0) + 1);
    previous = indent.length;
  }
  let best = 0;
  let bestCount = 0;
  for (const [step, count] of steps) {
    if (count > bestCount || (count === bestCount && step < best)) [best, bestCount] = [step, count];
  }
  return best > 0 ? best : Number.isFinite(smallest) ? smallest : 4;
}

/** How most indented lines of a file start; null when none is indented (nothing to keep). */
export function indentStyleOf(lines: readonly string[]): IndentStyle | null {
  let tabs = 0;
  let spaces = 0;
  for (const line of lines) {
    if (line.trim() === '' || isCommentContinuation(line)) continue;
    if (line.startsWith('\t')) tabs++;
    else if (line.startsWith(' ')) spaces++;
  }
  if (tabs === 0 && spaces === 0) return null;
  return tabs > spaces ? { kind: 'tabs' } : { kind: 'spaces', width: spaceWidth(lines) };
}

/** Whether any line of the block indents the other way than `style`. */
function clashes(lines: readonly string[], style: IndentStyle): boolean {
  return lines.some((line) => {
    if (line.trim() === '' || isCommentContinuation(line)) return false;
    const indent = leading(line);
    return style.kind === 'spaces' ? indent.includes('\t') : indent.length >= 2 && !indent.includes('\t');
  });
}

/**
 * The block's lines with their leading whitespace in `style`, level for level: a tab is one level of
 * `width` spaces; in a tab-indented file each `width` of the block's own spaces is one tab, and what
 * is left over stays as alignment spaces. A block that already matches comes back as it is.
 */
export function toIndentStyle(block: readonly string[], style: IndentStyle | null): string[] {
  if (!style || !clashes(block, style)) return [...block];
  if (style.kind === 'spaces')
    return block.map(
      (line) => leading(line).replace(/\t/g, ' '.repeat(style.width)) + line.slice(leading(line).length),
    );
  const width = spaceWidth(block);
  return block.map((line) => {
    const indent = leading(line);
    if (indent.includes('\t') || isCommentContinuation(line)) return line;
    return (
      '\t'.repeat(Math.floor(indent.length / width)) + ' '.repeat(indent.length % width) + line.slice(indent.length)
    );
  });
}
