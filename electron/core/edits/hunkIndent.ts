import type { StructuredPatch } from 'diff';
import { indentDrift, redrifted } from './indentDrift';
import { indentStyleOf, toIndentStyle } from './indentStyle';
import { looseStarts } from './textMatch';

type Hunk = StructuredPatch['hunks'][number];

/** Where the hunk's old lines stand in the file, compared without surrounding whitespace: the place nearest its header. */
function locate(fileLines: readonly string[], oldLines: readonly string[], near: number): number | null {
  const starts = looseStarts(
    fileLines,
    oldLines.map((line) => line.trim()),
  );
  return starts.reduce<number | null>(
    (best, start) => (best === null || Math.abs(start - near) < Math.abs(best - near) ? start : best),
    null,
  );
}

/**
 * The hunk with its context and removed lines as the file has them and its added lines moved by the
 * drift those lines show (indentDrift.ts); null when its old lines are not in the file.
 */
function alignHunk(fileLines: readonly string[], hunk: Hunk, unit: string, style: ReturnType<typeof indentStyleOf>) {
  const isOld = (line: string) => line.startsWith(' ') || line.startsWith('-');
  const oldLines = hunk.lines.filter(isOld).map((line) => line.slice(1));
  if (oldLines.length === 0) return null;
  const start = locate(fileLines, oldLines, hunk.oldStart - 1);
  if (start === null) return null;
  const styled = toIndentStyle(
    hunk.lines.map((line) => line.slice(1)),
    style,
  );
  const oldIndexes = hunk.lines.flatMap((line, index) => (isOld(line) ? [index] : []));
  const drift = indentDrift(
    oldIndexes.map((index) => styled[index] ?? ''),
    fileLines.slice(start, start + oldIndexes.length),
    styled,
    styled.filter((_, index) => !hunk.lines[index]?.startsWith('-')),
    style,
  );
  let oldIndex = 0;
  const lines = hunk.lines.map((line, index) => {
    if (isOld(line)) return `${line[0] ?? ' '}${fileLines[start + oldIndex++] ?? ''}`;
    if (line.startsWith('+')) return `+${redrifted(styled[index] ?? '', drift, unit)}`;
    return line;
  });
  return { ...hunk, oldStart: start + 1, lines };
}

/**
 * The patch made to apply exactly where its hunks match the file only with indentation ignored, each
 * hunk's added lines re-indented by the drift of its context (as a search-replace block is); null
 * when a hunk cannot be placed (or the file has CRLF endings), so the caller applies it loosely as written.
 */
export function alignHunkIndentation(source: string, patch: StructuredPatch): StructuredPatch | null {
  if (source.includes('\r')) return null;
  const fileLines = source.split('\n');
  const style = indentStyleOf(fileLines);
  const unit = style?.kind === 'tabs' ? '\t' : ' ';
  const hunks: Hunk[] = [];
  for (const hunk of patch.hunks) {
    const aligned = alignHunk(fileLines, hunk, unit, style);
    if (!aligned) return null;
    hunks.push(aligned);
  }
  return { ...patch, hunks };
}
