import { diffArrays } from 'diff';
import { splitLines } from '../applyGold';
import type { PatchLine } from '../goldPatch';
import { countOccurrences } from '../searchBlocks';
import type { VisibleFile } from '../visibleFile';
import { shownRuns, type ShownRun } from './spoil';

/** Where a search block applies, with the blocks before it in the same answer applied first. */
export interface BlockPlace {
  /** Which shown run of the file it lies in. */
  run: number;
  /** 0-based index in that run's lines as the earlier blocks left them. */
  line: number;
  /** The search's line count. */
  count: number;
  /** 0-based file line where it starts as the earlier blocks left the file. */
  fileLine: number;
  /** 0-based file line where it starts in the file as shown (before any block). */
  originalLine: number;
  /** The run's lines just before this block applies. */
  lines: readonly PatchLine[];
}

const atLineStart = (text: string, index: number) => index === 0 || text[index - 1] === '\n';

/** The first place `search` occurs at a line start in the runs (null: nowhere). */
export function findInRuns(runs: readonly ShownRun[], search: string): { run: number; line: number } | null {
  for (const [index, run] of runs.entries()) {
    const text = run.lines.join('');
    for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + 1)) {
      if (atLineStart(text, at)) return { run: index, line: splitLines(text.slice(0, at)).length };
    }
  }
  return null;
}

/**
 * Applies search-replace edits in order to what the request shows of each file, as Lathe applies them
 * (each block to the file as the earlier ones left it), and says where each one landed. A block that
 * creates a file (empty search) or matches nowhere gets null.
 */
export function placeBlocks(
  edits: readonly { path: string; search: string; replace: string }[],
  files: ReadonlyMap<string, VisibleFile>,
): (BlockPlace | null)[] {
  const state = new Map<string, { runs: ShownRun[]; shifts: { run: number; at: number; delta: number }[] }>();
  return edits.map((edit) => {
    let file = state.get(edit.path);
    if (!file) state.set(edit.path, (file = { runs: shownRuns(files.get(edit.path)), shifts: [] }));
    if (edit.search === '') return null;
    const found = findInRuns(file.runs, edit.search);
    if (!found) return null;
    const run = file.runs[found.run] as ShownRun;
    const count = splitLines(edit.search).length;
    const shift = file.shifts
      .filter((entry) => entry.run === found.run && entry.at <= found.line)
      .reduce((sum, entry) => sum + entry.delta, 0);
    const place: BlockPlace = {
      run: found.run,
      line: found.line,
      count,
      fileLine: run.start + found.line,
      originalLine: run.start + found.line - shift,
      lines: [...run.lines],
    };
    const replaced = splitLines(edit.replace);
    run.lines.splice(found.line, count, ...replaced);
    file.shifts.push({ run: found.run, at: found.line, delta: replaced.length - count });
    return place;
  });
}

/**
 * For each line of `after`, whether it is an unchanged line of `before`, and for each line of `before`
 * the index it has in `after` (-1: removed).
 */
export function lineCorrespondence(
  before: readonly PatchLine[],
  after: readonly PatchLine[],
): { unchangedAfter: boolean[]; beforeToAfter: number[] } {
  const unchangedAfter: boolean[] = [];
  const beforeToAfter: number[] = [];
  for (const part of diffArrays([...before], [...after])) {
    const size = part.value.length;
    if (part.added) for (let index = 0; index < size; index++) unchangedAfter.push(false);
    else if (part.removed) for (let index = 0; index < size; index++) beforeToAfter.push(-1);
    else
      for (let index = 0; index < size; index++) {
        beforeToAfter.push(unchangedAfter.length);
        unchangedAfter.push(true);
      }
  }
  return { unchangedAfter, beforeToAfter };
}

/**
 * A search-replace block for `count` lines at index `at` of a run replaced by `replacement`: grown one
 * line below, then one above, and so on, until its search occurs once in what is shown (`runs`).
 */
export function uniqueBlock(
  runs: readonly ShownRun[],
  runIndex: number,
  at: number,
  count: number,
  replacement: readonly PatchLine[],
): { search: string; replace: string } | null {
  const run = runs[runIndex];
  if (!run) return null;
  const shown = runs.map((entry) => entry.lines.join('')).join('\0');
  let up = 0;
  let down = 0;
  for (let grow = 0; ; grow++) {
    const search = run.lines.slice(at - up, at + count + down).join('');
    if (search !== '' && countOccurrences(shown, search) === 1) {
      return {
        search,
        replace: [
          ...run.lines.slice(at - up, at),
          ...replacement,
          ...run.lines.slice(at + count, at + count + down),
        ].join(''),
      };
    }
    const canDown = at + count + down < run.lines.length;
    const canUp = at - up > 0;
    if (!canDown && !canUp) return null;
    if (canDown && (grow % 2 === 0 || !canUp)) down++;
    else up++;
  }
}
