import { splitLines } from '../applyGold';
import type { PatchLine } from '../goldPatch';
import { formatDiff, parseDiff } from './diffSections';

import { shuffled, type Random } from './random';
import { indentOf, isBlank, notApplicable, shownRuns, type SpoilInput, type SpoilResult } from './spoil';

/** How a model's copy drifts from the file's indentation: 4 spaces read as 2 (or 2 as 4), or one level too deep. */
type Drift = 'halve' | 'double' | 'deeper';

function indentUnit(lines: readonly PatchLine[]): { tabs: boolean; unit: number } {
  const indents = lines.filter((line) => !isBlank(line)).map(indentOf);
  if (indents.some((indent) => indent.includes('\t'))) return { tabs: true, unit: 1 };
  const widths = indents.map((indent) => indent.length).filter((width) => width > 0);
  if (widths.length === 0) return { tabs: false, unit: 4 };
  return {
    tabs: false,
    unit: widths.every((width) => width % 4 === 0) ? 4 : widths.every((width) => width % 2 === 0) ? 2 : 1,
  };
}

/** The drifts that would change these lines, in a seeded order. */
function drifts(random: Random, lines: readonly PatchLine[]): Drift[] {
  const { tabs, unit } = indentUnit(lines);
  const options: Drift[] = ['deeper'];
  if (!tabs && unit === 4 && lines.some((line) => indentOf(line).length > 0)) options.push('halve');
  if (!tabs && unit === 2) options.push('double');
  return shuffled(random, options);
}

/** Shifts every line's indentation the same way (blank lines keep theirs, as an editor does). */
export function driftLines(
  lines: readonly PatchLine[],
  drift: Drift,
  reference: readonly PatchLine[] = lines,
): PatchLine[] {
  const { tabs, unit } = indentUnit(reference);
  return lines.map((line) => {
    if (isBlank(line)) return line;
    const indent = indentOf(line);
    const body = line.slice(indent.length);
    if (drift === 'deeper') return `${tabs ? '\t' : ' '.repeat(unit === 1 ? 4 : unit)}${line}`;
    const width = indent.replace(/\t/g, '    ').length;
    return `${' '.repeat(drift === 'halve' ? Math.floor(width / 2) : width * 2)}${body}`;
  });
}

function reindentSearchReplace(input: SpoilInput & { answer: { format: 'search-replace' } }): SpoilResult {
  const edits = input.answer.edits;
  for (const index of shuffled(
    input.random,
    edits.map((_, at) => at),
  )) {
    const edit = edits[index];
    if (!edit || edit.search === '') continue;
    const runs = shownRuns(input.files.get(edit.path));
    const searchLines = splitLines(edit.search);
    for (const drift of drifts(input.random, searchLines)) {
      const search = driftLines(searchLines, drift).join('');
      const replace = driftLines(splitLines(edit.replace), drift, searchLines).join('');
      // Drifted, the block must match nowhere as it is: else it is just another exact block.
      if (search === edit.search || runs.some((run) => run.lines.join('').includes(search))) continue;
      const next = edits.map((other, at) => (at === index ? { path: other.path, search, replace } : other));
      return {
        ok: true,
        answer: { format: 'search-replace', edits: next },
        evidence: { kind: 'reindent', path: edit.path },
      };
    }
  }
  return notApplicable('no search block can be reindented into one that matches nowhere as it stands');
}

/** Unified diff: one hunk copied at the wrong indentation, its context, removed and added lines alike. */
function reindentDiff(input: SpoilInput & { answer: { format: 'unified-diff' } }): SpoilResult {
  const diff = parseDiff(input.answer.diff);
  const hunks = diff.sections.flatMap((section) => section.hunks.map((hunk) => ({ section, hunk })));
  for (const { section, hunk } of shuffled(input.random, hunks)) {
    const bodies = hunk.lines.map((line) => (line.startsWith('\\') ? null : line.slice(1)));
    const code = bodies.filter((body): body is string => body !== null);
    for (const drift of drifts(input.random, code)) {
      const shifted = driftLines(code, drift);
      if (shifted.every((line, at) => line === code[at])) continue;
      let next = 0;
      hunk.lines = hunk.lines.map((line, at) =>
        bodies[at] === null ? line : `${line[0] ?? ' '}${shifted[next++] ?? ''}`,
      );
      return {
        ok: true,
        answer: { format: 'unified-diff', diff: formatDiff(diff) },
        evidence: { kind: 'reindent', path: section.path },
      };
    }
  }
  return notApplicable('the diff has no hunk whose indentation can drift');
}

/** `reindent`: a block copied at the wrong indentation (search-replace, unified-diff). */
export function reindent(input: SpoilInput): SpoilResult {
  const { answer } = input;
  if (answer.format === 'search-replace') return reindentSearchReplace({ ...input, answer });
  if (answer.format === 'unified-diff') return reindentDiff({ ...input, answer });
  return notApplicable('a whole file has no block to copy at the wrong indentation: it is the file');
}
