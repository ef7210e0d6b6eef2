/** A unified diff taken apart into file sections and hunks, and put back together byte for byte. */

export interface DiffHunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  /** The header line as given (with its ending); rewritten only when the numbers change. */
  header: string;
  /** Body lines with their endings, each starting with ' ', '-', '+' or '\\'. */
  lines: string[];
}

export interface DiffSection {
  /** `diff --git`, `index`, `---`, `+++` lines as given. */
  head: string[];
  /** The file the section writes (its `+++` path, or its `---` path for a deletion), without a/ b/. */
  path: string;
  hunks: DiffHunk[];
}

export interface ParsedDiff {
  /** Anything before the first section (a model's preamble), kept as it is. */
  preamble: string[];
  sections: DiffSection[];
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

const stripSide = (name: string): string | null => {
  const clean = name.split('\t')[0]?.trim() ?? '';
  if (clean === '/dev/null') return null;
  return /^[ab]\//.test(clean) ? clean.slice(2) : clean;
};

function splitKeep(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/);
}

export function parseDiff(text: string): ParsedDiff {
  const lines = splitKeep(text);
  const preamble: string[] = [];
  const sections: DiffSection[] = [];
  let section: DiffSection | null = null;
  let hunk: DiffHunk | null = null;
  for (const [index, line] of lines.entries()) {
    const fileStart = line.startsWith('--- ') && (lines[index + 1] ?? '').startsWith('+++ ');
    // A `---`/`+++` pair opens a section of its own, unless it completes the `diff --git` head before it.
    const inHead = section !== null && hunk === null && !section.head.some((head) => head.startsWith('--- '));
    if (line.startsWith('diff --git ') || (fileStart && !inHead)) {
      section = { head: [], path: '', hunks: [] };
      sections.push(section);
      hunk = null;
    }
    const header = HUNK_HEADER.exec(line);
    if (section && header) {
      hunk = {
        oldStart: Number(header[1]),
        oldCount: header[2] === undefined ? 1 : Number(header[2]),
        newStart: Number(header[3]),
        newCount: header[4] === undefined ? 1 : Number(header[4]),
        header: line,
        lines: [],
      };
      section.hunks.push(hunk);
    } else if (hunk && (/^[ +\-\\]/.test(line) || line === '\n' || line === '\r\n')) hunk.lines.push(line);
    else if (section && !hunk) section.head.push(line);
    else preamble.push(line);
  }
  for (const entry of sections) {
    const plus = entry.head.find((line) => line.startsWith('+++ '));
    const minus = entry.head.find((line) => line.startsWith('--- '));
    entry.path = (plus && stripSide(plus.slice(4))) ?? (minus && stripSide(minus.slice(4))) ?? '';
  }
  return { preamble, sections };
}

export function formatDiff(diff: ParsedDiff): string {
  return [
    ...diff.preamble,
    ...diff.sections.flatMap((section) => [
      ...section.head,
      ...section.hunks.flatMap((hunk) => [hunk.header, ...hunk.lines]),
    ]),
  ].join('');
}

/** A header line for the hunk's numbers, keeping whatever follows the second `@@` (a function name). */
export function hunkHeader(hunk: Pick<DiffHunk, 'oldStart' | 'oldCount' | 'newStart' | 'newCount' | 'header'>): string {
  const tail = hunk.header.replace(HUNK_HEADER, '');
  return `@@ -${hunk.oldStart},${hunk.oldCount} +${hunk.newStart},${hunk.newCount} @@${tail === '' ? '\n' : tail}`;
}

/**
 * A hunk replacing `count` lines at index `at` of a shown run (whose first line is file line
 * `runStart`, 0-based) with `replacement`, with up to `context` lines of context from the run;
 * `newShift` is how far earlier hunks moved the new side.
 */
export function hunkAt(
  run: { start: number; lines: readonly string[] },
  at: number,
  count: number,
  replacement: readonly string[],
  newShift = 0,
  context = 3,
): DiffHunk {
  const from = Math.max(0, at - context);
  const to = Math.min(run.lines.length, at + count + context);
  const body = (mark: string, line: string) =>
    `${mark}${line.endsWith('\n') ? line : `${line}\n\\ No newline at end of file\n`}`;
  const lines = [
    ...run.lines.slice(from, at).map((line) => body(' ', line)),
    ...run.lines.slice(at, at + count).map((line) => body('-', line)),
    ...replacement.map((line) => body('+', line)),
    ...run.lines.slice(at + count, to).map((line) => body(' ', line)),
  ].flatMap((line) => line.split(/(?<=\n)(?=.)/));
  const oldCount = to - from;
  const newCount = oldCount - count + replacement.length;
  const oldStart = run.start + from + (oldCount === 0 ? 0 : 1);
  const hunk = { oldStart, oldCount, newStart: oldStart + newShift, newCount, header: '@@ -0,0 +0,0 @@\n', lines };
  return { ...hunk, header: hunkHeader(hunk) };
}

/** A file's section of a diff as git writes it for a change in place. */
export function sectionFor(path: string, hunks: DiffHunk[]): DiffSection {
  return { head: [`diff --git a/${path} b/${path}\n`, `--- a/${path}\n`, `+++ b/${path}\n`], path, hunks };
}
