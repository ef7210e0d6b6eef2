import { lineRange, splitLines } from './lineDiff';

/**
 * Where in a file a block that matched nowhere was most likely meant to go, and what differs there,
 * so a model that misremembered a line is shown that line. Windows of the block's length slide over
 * the file keeping counts of shared lines (then shared words) up to date, so a 5,000-line file costs
 * one pass; only the best window is aligned line by line.
 */
export type LineDifference =
  | { kind: 'changed'; fileLine: number; file: string; block: string }
  | { kind: 'missing'; fileLine: number; file: string }
  | { kind: 'extra'; afterLine: number; block: string };

export interface ClosestRegion {
  /** 1-based, inclusive. */
  first: number;
  last: number;
  /** Lines of the block found in the region, and the block's length. */
  matched: number;
  total: number;
  differences: LineDifference[];
}

/** A region counts as similar with this share of the block's lines, or of its words, in it. */
const MIN_LINE_SHARE = 0.3;
const MIN_WORD_SHARE = 0.5;
/** Lines around the best window the alignment may also use (the block may have dropped or added a few). */
const ALIGN_MARGIN = 10;
/** Past this many lines the block is compared position by position: an alignment would cost too much. */
const MAX_ALIGNED_LINES = 1000;

const words = (line: string) => line.match(/[A-Za-z_$][\w$]*|\d+/g) ?? [];
const hasWord = (line: string) => /[A-Za-z0-9]/.test(line);

/** A multiset overlap kept up to date as items enter and leave a window. */
class Overlap {
  private readonly inside = new Map<string, number>();
  shared = 0;
  constructor(private readonly wanted: ReadonlyMap<string, number>) {}
  add(key: string): void {
    const count = this.inside.get(key) ?? 0;
    if (count < (this.wanted.get(key) ?? 0)) this.shared++;
    this.inside.set(key, count + 1);
  }
  remove(key: string): void {
    const count = (this.inside.get(key) ?? 0) - 1;
    this.inside.set(key, count);
    if (count < (this.wanted.get(key) ?? 0)) this.shared--;
  }
}

function counts(keys: Iterable<string>): Map<string, number> {
  const map = new Map<string, number>();
  for (const key of keys) map.set(key, (map.get(key) ?? 0) + 1);
  return map;
}

/** Windows tied for the best score kept for the character-level tie-break (a misspelled word shares no word). */
const MAX_TIES = 64;

/** Character bigrams of a text, counted: the tie-break's measure of how alike two windows read. */
function bigrams(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (let index = 0; index + 1 < text.length; index++) {
    const pair = text.slice(index, index + 2);
    found.set(pair, (found.get(pair) ?? 0) + 1);
  }
  return found;
}

/** Dice similarity of two texts' bigrams: 1 for the same text, 0 for nothing in common. */
function likeness(a: Map<string, number>, b: Map<string, number>): number {
  let shared = 0;
  let total = 0;
  for (const [pair, count] of a) {
    shared += Math.min(count, b.get(pair) ?? 0);
    total += count;
  }
  for (const count of b.values()) total += count;
  return total === 0 ? 0 : (2 * shared) / total;
}

/**
 * The best window's start: most shared lines of code, then most shared words, then (among windows tied on
 * both, say two lines that differ from a misspelled one by a word each) the one whose characters read most alike.
 */
function bestWindow(
  file: readonly string[],
  block: readonly string[],
): { start: number; lines: number; words: number } {
  const found = scoredWindows(file, block);
  if (found.ties.length <= 1) return found.best;
  const size = Math.min(block.length, file.length);
  const wanted = bigrams(block.join('\n'));
  const alike = (start: number) => likeness(wanted, bigrams(file.slice(start, start + size).join('\n')));
  let start = found.best.start;
  let score = alike(start);
  for (const other of found.ties) {
    const otherScore = alike(other);
    if (otherScore > score) [start, score] = [other, otherScore];
  }
  return { ...found.best, start };
}

function scoredWindows(
  file: readonly string[],
  block: readonly string[],
): { best: { start: number; lines: number; words: number }; ties: number[] } {
  const size = Math.min(block.length, file.length);
  const lineKeys = file.map((line) => (hasWord(line) ? line : null));
  const wordKeys = file.map(words);
  const lines = new Overlap(counts(block.filter(hasWord)));
  const shared = new Overlap(counts(block.flatMap(words)));
  const enter = (index: number) => {
    const key = lineKeys[index];
    if (key) lines.add(key);
    for (const word of wordKeys[index] ?? []) shared.add(word);
  };
  const leave = (index: number) => {
    const key = lineKeys[index];
    if (key) lines.remove(key);
    for (const word of wordKeys[index] ?? []) shared.remove(word);
  };
  for (let index = 0; index < size; index++) enter(index);
  let best = { start: 0, lines: lines.shared, words: shared.shared };
  let ties = [0];
  for (let start = 1; start + size <= file.length; start++) {
    leave(start - 1);
    enter(start + size - 1);
    if (lines.shared > best.lines || (lines.shared === best.lines && shared.shared > best.words)) {
      best = { start, lines: lines.shared, words: shared.shared };
      ties = [start];
    } else if (lines.shared === best.lines && shared.shared === best.words && ties.length < MAX_TIES) ties.push(start);
  }
  return { best, ties };
}

/** Matched (block index, file index) pairs of a longest common subsequence, in order. */
function align(block: readonly string[], file: readonly string[], from: number, to: number): [number, number][] {
  const rows = block.length;
  const columns = to - from;
  const table = Array.from({ length: rows + 1 }, () => new Uint16Array(columns + 1));
  for (let row = rows - 1; row >= 0; row--) {
    for (let column = columns - 1; column >= 0; column--) {
      const here = table[row] as Uint16Array;
      const below = table[row + 1] as Uint16Array;
      here[column] =
        block[row] === file[from + column]
          ? (below[column + 1] as number) + 1
          : Math.max(below[column] as number, here[column + 1] as number);
    }
  }
  const pairs: [number, number][] = [];
  let row = 0;
  let column = 0;
  while (row < rows && column < columns) {
    if (block[row] === file[from + column]) {
      pairs.push([row, from + column]);
      row++;
      column++;
    } else if (
      ((table[row + 1] as Uint16Array)[column] as number) >= ((table[row] as Uint16Array)[column + 1] as number)
    )
      row++;
    else column++;
  }
  return pairs;
}

/** The region of `content` most like `blockText` (a search block, a hunk's old lines), or null when nothing is. */
export function closestRegion(content: string, blockText: string): ClosestRegion | null {
  const file = splitLines(content).map((line) => line.trim());
  const block = splitLines(blockText).map((line) => line.trim());
  while (block.length > 0 && block[0] === '') block.shift();
  while (block.length > 0 && block.at(-1) === '') block.pop();
  if (block.length === 0 || file.length === 0) return null;
  const best = bestWindow(file, block);
  const codeLines = block.filter(hasWord).length;
  const wordCount = block.flatMap(words).length;
  if (
    best.lines < Math.max(1, Math.ceil(codeLines * MIN_LINE_SHARE)) &&
    (wordCount === 0 || best.words / wordCount < MIN_WORD_SHARE)
  )
    return null;
  const size = Math.min(block.length, file.length);
  const from = Math.max(0, best.start - ALIGN_MARGIN);
  const to = Math.min(file.length, best.start + size + ALIGN_MARGIN);
  const pairs: [number, number][] =
    block.length <= MAX_ALIGNED_LINES
      ? align(block, file, from, to)
      : block.flatMap((line, index): [number, number][] =>
          file[best.start + index] === line ? [[index, best.start + index]] : [],
        );
  let first = best.start;
  let last = best.start + size - 1;
  const [head, tail] = [pairs[0], pairs.at(-1)];
  if (head && tail) {
    // The block's unmatched lines at either end still stand for file lines next to the matched ones.
    first = Math.max(from, head[1] - head[0]);
    last = Math.min(to - 1, tail[1] + (block.length - 1 - tail[0]));
  }
  return {
    first: first + 1,
    last: last + 1,
    matched: pairs.length,
    total: block.length,
    differences: differencesIn(file, block, pairs, first, last),
  };
}

function differencesIn(
  file: readonly string[],
  block: readonly string[],
  pairs: readonly [number, number][],
  first: number,
  last: number,
): LineDifference[] {
  const differences: LineDifference[] = [];
  let blockAt = 0;
  let fileAt = first;
  for (const [blockIndex, fileIndex] of [...pairs, [block.length, last + 1] as [number, number]]) {
    const ours = block.slice(blockAt, blockIndex);
    const theirs = file.slice(fileAt, Math.max(fileAt, fileIndex));
    const paired = Math.min(ours.length, theirs.length);
    for (let offset = 0; offset < paired; offset++)
      differences.push({
        kind: 'changed',
        fileLine: fileAt + offset + 1,
        file: theirs[offset] as string,
        block: ours[offset] as string,
      });
    for (let offset = paired; offset < theirs.length; offset++)
      differences.push({ kind: 'missing', fileLine: fileAt + offset + 1, file: theirs[offset] as string });
    for (let offset = paired; offset < ours.length; offset++)
      differences.push({ kind: 'extra', afterLine: fileAt + paired, block: ours[offset] as string });
    blockAt = blockIndex + 1;
    fileAt = fileIndex + 1;
  }
  return differences;
}

/** Keeps the whole message near 1,500 characters however long the lines or how many differ. */
const MAX_SHOWN_CHARS = 80;
const MAX_DETAIL_CHARS = 1100;

const quoted = (line: string) =>
  line === '' ? 'blank' : `"${line.length > MAX_SHOWN_CHARS ? `${line.slice(0, MAX_SHOWN_CHARS)}…` : line}"`;

function describe(difference: LineDifference, noun: string): string {
  if (difference.kind === 'changed')
    return `line ${difference.fileLine} is ${quoted(difference.file)}, your ${noun} has ${quoted(difference.block)}`;
  if (difference.kind === 'missing')
    return `line ${difference.fileLine} is ${quoted(difference.file)}, your ${noun} leaves it out`;
  const place = difference.afterLine === 0 ? 'at the start of the file' : `after line ${difference.afterLine}`;
  return `your ${noun} has ${quoted(difference.block)} ${place}, which the file does not have there`;
}

/**
 * What a refusal says about a block that matched nowhere: `the closest region is lines A-B (k of n
 * lines match); these lines differ:` and one line per difference, or that nothing in the file is like it.
 * `noun` names the block as the model wrote it (`search`, `hunk`).
 */
export function describeClosestRegion(content: string, blockText: string, noun: string): string {
  const region = closestRegion(content, blockText);
  if (!region)
    return `nothing in the file resembles your ${noun}; read the file again and copy the lines to change exactly as they are`;
  const shown: string[] = [];
  let used = 0;
  for (const difference of region.differences) {
    const text = describe(difference, noun);
    if (used + text.length > MAX_DETAIL_CHARS) break;
    shown.push(text);
    used += text.length + 1;
  }
  const hidden = region.differences.length - shown.length;
  if (region.differences.length === 0)
    return `the closest region is ${lineRange(region.first, region.last)}, where all ${region.total} lines match`;
  const lines = [
    `the closest region is ${lineRange(region.first, region.last)} (${region.matched} of ${region.total} lines match); these lines differ:`,
    ...shown,
    ...(hidden > 0 ? [`(and ${hidden} more)`] : []),
    `copy the lines from the file into your ${noun} exactly as they are`,
  ];
  return lines.join('\n');
}
