import { changeBlocks, lineRange, splitLines } from './lineDiff';

/**
 * A whole-file answer that leaves out part of the file deletes it. A bug fix seldom removes much
 * without writing something in its place (in the corpus' 31 gold patches the largest such run is 6
 * lines), while a model that skipped a function or was cut off loses tens of lines; so a run counts
 * when it removes at least RUN_MIN_CODE_LINES lines of code and puts (next to) nothing in their place,
 * and the answer is refused when one run reaches LONG_RUN_LINES, or the runs together reach
 * TOTAL_MIN_LINES and over SHARE_OF_FILE of the file (a small file cut short).
 */
const RUN_MIN_CODE_LINES = 5;
const LONG_RUN_LINES = 20;
const TOTAL_MIN_LINES = 10;
const SHARE_OF_FILE = 0.3;
/** "Nothing in their place": at most one new line of code per ten removed (a left-behind comment, a brace). */
const REPLACED_RATIO = 0.1;

/** 1-based, inclusive, in the original file. */
export interface DroppedRun {
  first: number;
  last: number;
}

const codeLines = (lines: readonly string[], start: number, count: number) =>
  lines.slice(start, start + count).filter((line) => line.trim() !== '').length;

/** The runs of `before` that `after` drops without replacing them, when they are too many to be a fix; else []. */
export function droppedRuns(before: string, after: string): DroppedRun[] {
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  const runs: DroppedRun[] = [];
  for (const block of changeBlocks(oldLines, newLines)) {
    const removed = codeLines(oldLines, block.oldStart, block.removed);
    if (removed < RUN_MIN_CODE_LINES || codeLines(newLines, block.newStart, block.added) > removed * REPLACED_RATIO)
      continue;
    runs.push({ first: block.oldStart + 1, last: block.oldStart + block.removed });
  }
  const length = (run: DroppedRun) => run.last - run.first + 1;
  const total = runs.reduce((sum, run) => sum + length(run), 0);
  const refused =
    runs.some((run) => length(run) >= LONG_RUN_LINES) ||
    (total >= TOTAL_MIN_LINES && total > oldLines.length * SHARE_OF_FILE);
  return refused ? runs : [];
}

/** The `drops-code` refusal: which lines of the original are gone, and what a whole-file answer must do. */
export function droppedLinesMessage(runs: readonly DroppedRun[]): string {
  const shown = runs.slice(0, 6).map((run) => lineRange(run.first, run.last));
  const more = runs.length > shown.length ? ` (and ${runs.length - shown.length} more places)` : '';
  const places =
    shown.length === 1 ? (shown[0] as string) : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1) as string}`;
  return `your answer leaves out ${places} of the file${more} and puts nothing in their place; a whole-file answer must repeat every line it keeps: write the complete file, changing only what the task needs`;
}
