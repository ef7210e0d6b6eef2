/**
 * Locating a search block in a file: exact first, then line by line ignoring leading/trailing
 * whitespace (small models get indentation wrong), re-indenting the replacement by the same amount.
 */
export type MatchResult =
  | { kind: 'replaced'; content: string; fuzzy: boolean }
  | { kind: 'not-found' }
  | { kind: 'ambiguous'; count: number };

export function replaceBlock(content: string, search: string, replace: string): MatchResult {
  const crlf = content.includes('\r\n') && !search.includes('\r\n');
  const searchText = crlf ? search.replace(/\n/g, '\r\n') : search;
  const replaceText = crlf ? replace.replace(/\n/g, '\r\n') : replace;
  const count = countOccurrences(content, searchText);
  if (count === 1) {
    const at = content.indexOf(searchText);
    return { kind: 'replaced', content: content.slice(0, at) + replaceText + content.slice(at + searchText.length), fuzzy: false };
  }
  if (count > 1) return { kind: 'ambiguous', count };
  return replaceLinesLoosely(content, search, replace);
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

function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

function replaceLinesLoosely(content: string, search: string, replace: string): MatchResult {
  const eol = content.includes('\r\n') ? '\r\n' : '\n';
  const fileLines = content.split('\n').map((line) => line.replace(/\r$/, ''));
  const endsWithNewline = content.endsWith('\n');
  if (endsWithNewline) fileLines.pop();
  const wanted = splitLines(search).map((line) => line.trim());
  while (wanted.length > 0 && wanted[0] === '') wanted.shift();
  while (wanted.length > 0 && wanted.at(-1) === '') wanted.pop();
  if (wanted.length === 0) return { kind: 'not-found' };
  const starts: number[] = [];
  for (let start = 0; start + wanted.length <= fileLines.length; start++) {
    if (wanted.every((line, offset) => fileLines[start + offset]?.trim() === line)) starts.push(start);
  }
  if (starts.length === 0) return { kind: 'not-found' };
  if (starts.length > 1) return { kind: 'ambiguous', count: starts.length };
  const start = starts[0] as number;
  const searchLines = splitLines(search).filter((line) => line.trim() !== '');
  const fileIndent = indentOf(fileLines[start] as string);
  const searchIndent = indentOf(searchLines[0] ?? '');
  const replacement = splitLines(replace).map((line) => reindent(line, searchIndent, fileIndent));
  const result = [...fileLines.slice(0, start), ...(replace === '' ? [] : replacement), ...fileLines.slice(start + wanted.length)];
  return { kind: 'replaced', content: result.join(eol) + (endsWithNewline && result.length > 0 ? eol : ''), fuzzy: true };
}

function reindent(line: string, from: string, to: string): string {
  if (line.trim() === '') return '';
  if (from === to) return line;
  if (line.startsWith(from)) return to + line.slice(from.length);
  return to + line.trimStart();
}
