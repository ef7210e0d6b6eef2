import { indentDrift, redrifted } from './indentDrift';
import { indentStyleOf, leading as indentOf, toIndentStyle } from './indentStyle';

/**
 * Locating a search block in a file: exact first, then line by line ignoring leading/trailing
 * whitespace (small models get indentation wrong), re-indenting the replacement by the same amount,
 * in the file's own style (spaces or tabs).
 */
export type MatchResult =
  { kind: 'replaced'; content: string; fuzzy: boolean } | { kind: 'not-found' } | { kind: 'ambiguous'; count: number };

export function replaceBlock(content: string, search: string, replace: string): MatchResult {
  // The block as given first: in a file that mixes line endings, an exact LF block is exactly right.
  const exact = replaceExactly(content, search, replace);
  if (exact) return exact;
  if (content.includes('\r\n') && !search.includes('\r\n')) {
    const converted = replaceExactly(content, search.replace(/\n/g, '\r\n'), replace.replace(/\n/g, '\r\n'));
    if (converted) return converted;
  }
  return replaceLinesLoosely(content, search, replace);
}

/** The single exact occurrence replaced; null when there is none. */
function replaceExactly(content: string, search: string, replace: string): MatchResult | null {
  const count = countOccurrences(content, search);
  if (count > 1) return { kind: 'ambiguous', count };
  if (count === 0) return null;
  const at = content.indexOf(search);
  return {
    kind: 'replaced',
    content: content.slice(0, at) + replace + content.slice(at + search.length),
    fuzzy: false,
  };
}

function countOccurrences(haystack: string, needle: string): number {
  if (needle.length === 0) return 0;
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) count++;
  return count;
}

function splitLines(text: string): string[] {
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
}

function replaceLinesLoosely(content: string, search: string, replace: string): MatchResult {
  // Lines keep their own endings, so a file that mixes LF and CRLF keeps both outside the block.
  const rawLines = content === '' ? [] : content.split(/(?<=\n)/);
  const fileLines = rawLines.map((line) => line.replace(/\r?\n$/, ''));
  const wanted = splitLines(search).map((line) => line.trim());
  while (wanted.length > 0 && wanted[0] === '') wanted.shift();
  while (wanted.length > 0 && wanted.at(-1) === '') wanted.pop();
  if (wanted.length === 0) return { kind: 'not-found' };
  const starts = looseStarts(fileLines, wanted);
  if (starts.length === 0) return { kind: 'not-found' };
  if (starts.length > 1) return { kind: 'ambiguous', count: starts.length };
  const start = starts[0] as number;
  // Search and replacement are put in the file's style together, so their levels keep one measure.
  const searchRaw = splitLines(search);
  const styled = toIndentStyle([...searchRaw, ...splitLines(replace)], indentStyleOf(fileLines));
  const searchStyled = styled.slice(0, searchRaw.length);
  const searchLines = searchStyled.filter((line) => line.trim() !== '');
  const fileIndent = indentOf(fileLines[start] as string);
  const searchIndent = indentOf(searchLines[0] ?? '');
  // Levels read from every matched line (a block copied at half the file's indentation), else the first line's shift.
  const firstLine = searchStyled.findIndex((line) => line.trim() !== '');
  const style = indentStyleOf(fileLines);
  const drift = indentDrift(
    searchStyled.slice(firstLine, firstLine + wanted.length),
    fileLines.slice(start, start + wanted.length),
    styled,
    styled.slice(searchRaw.length),
    style,
  );
  const unit = style?.kind === 'tabs' ? '\t' : ' ';
  const reindented = styled
    .slice(searchRaw.length)
    .map((line) =>
      drift ? redrifted(line, drift, unit).replace(/^[ \t]+$/, '') : reindent(line, searchIndent, fileIndent),
    );
  // The search's blank lines at either end are matched where the file has them there too (a block that
  // moves a blank line from its start to its end moves it); those the file lacks were context only, so the
  // replacement's own blank lines there are not lines to add.
  const lead = blankRun(searchRaw);
  const trail = blankRun([...searchRaw].reverse());
  const fileLead = Math.min(lead, blankRun(fileLines.slice(0, start).reverse()));
  const fileTrail = Math.min(trail, blankRun(fileLines.slice(start + wanted.length)));
  const replacement = withoutEdgeBlanks(reindented, lead - fileLead, trail - fileTrail);
  const first = start - fileLead;
  const end = start + wanted.length + fileTrail;
  const endingOf = (line: string | undefined) => /\r?\n$/.exec(line ?? '')?.[0] ?? '';
  // The block takes the ending of the lines it replaces; the last line keeps the last one's (none at EOF).
  const eol = endingOf(rawLines[first]) || (content.includes('\r\n') ? '\r\n' : '\n');
  const lastEnding = endingOf(rawLines[end - 1]);
  const written =
    replace === ''
      ? ''
      : replacement.map((line, index) => line + (index === replacement.length - 1 ? lastEnding : eol)).join('');
  return {
    kind: 'replaced',
    content: rawLines.slice(0, first).join('') + written + rawLines.slice(end).join(''),
    fuzzy: true,
  };
}

/** How many blank lines `lines` starts with. */
function blankRun(lines: readonly string[]): number {
  const first = lines.findIndex((line) => line.trim() !== '');
  return first === -1 ? lines.length : first;
}

/** `lines` less up to `lead` blank lines at its start and `trail` at its end. */
function withoutEdgeBlanks(lines: readonly string[], lead: number, trail: number): string[] {
  const start = Math.min(lead, blankRun(lines));
  const rest = lines.slice(start);
  return rest.slice(0, rest.length - Math.min(trail, blankRun([...rest].reverse())));
}

function reindent(line: string, from: string, to: string): string {
  if (line.trim() === '') return '';
  if (from === to) return line;
  if (line.startsWith(from)) return to + line.slice(from.length);
  return to + line.trimStart();
}

/** Every line where `wanted` (trimmed lines) stands in the file, each line compared without surrounding whitespace. */
export function looseStarts(fileLines: readonly string[], wanted: readonly string[]): number[] {
  const starts: number[] = [];
  for (let start = 0; start + wanted.length <= fileLines.length; start++) {
    if (wanted.every((line, offset) => fileLines[start + offset]?.trim() === line)) starts.push(start);
  }
  return starts;
}
