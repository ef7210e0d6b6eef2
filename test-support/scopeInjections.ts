import { parseSource, type CodeToken } from '../electron/core/context/codeTokens';
import { isFunction } from '../electron/core/context/hunkKind';
import type { FileSymbol } from '../electron/core/context/symbols';

/**
 * Unrelated changes a spoiled model slips in beside a fix (issue 26), made by code on a real file:
 * each returns the file with the change and the new-side lines it touched.
 */
export const INJECTION_KINDS = ['rename-local', 'delete-docstring', 'delete-helper', 'other-file'] as const;
export type InjectionKind = (typeof INJECTION_KINDS)[number];

export interface Injection {
  kind: InjectionKind;
  /** What was done, for a miss's explanation: `renames total to total_value in discount()`. */
  what: string;
  after: string;
}

/** Lines (1-based, inclusive) the injection must keep away from: the fix's own hunks on the new side. */
export type Busy = { first: number; last: number }[];

const MARGIN = 2;
const clear = (busy: Busy, first: number, last: number) =>
  busy.every((range) => last < range.first - MARGIN || first > range.last + MARGIN);
const isPython = (file: string) => file.endsWith('.py');

/** Up to `count` items spread evenly over the list (the first, the last, and between), so a file's injections are not all at its top. */
export function spread<T>(items: T[], count: number): T[] {
  if (items.length <= count) return items;
  return Array.from(
    { length: count },
    (_, index) => items[Math.round((index * (items.length - 1)) / Math.max(1, count - 1))] as T,
  );
}

function replaceLines(rows: string[], first: number, last: number, replacement: string[]): string {
  return [...rows.slice(0, first - 1), ...replacement, ...rows.slice(last)].join('\n');
}

interface Parsed {
  rows: string[];
  tokens: CodeToken[];
  symbols: FileSymbol[];
}

let last: { file: string; source: string; parsed: Parsed } | null = null;

/** Parsed once for the three makers that read the same fixed file in a row. */
async function parse(file: string, source: string): Promise<Parsed> {
  if (last?.file === file && last.source === source) return last.parsed;
  last = { file, source, parsed: await parseFresh(file, source) };
  return last.parsed;
}

async function parseFresh(file: string, source: string): Promise<Parsed> {
  const parsed = await parseSource(file, source);
  try {
    return { rows: source.split('\n'), tokens: parsed.tokensIn(1, parsed.lines), symbols: parsed.symbols };
  } finally {
    parsed.close();
  }
}

/** Functions the fix leaves alone, innermost ones only (a function holding another is not a helper). */
function untouchedFunctions(parsed: Parsed, busy: Busy): FileSymbol[] {
  const functions = parsed.symbols.filter(isFunction).filter((symbol) => clear(busy, symbol.start, symbol.end));
  return functions.filter(
    (symbol) => !functions.some((other) => other !== symbol && other.start >= symbol.start && other.end <= symbol.end),
  );
}

/** Renames a local variable (assigned in the function, not a parameter) everywhere in one function, as `total` → `total_value`. */
export async function renameLocals(file: string, source: string, busy: Busy, count: number): Promise<Injection[]> {
  const parsed = await parse(file, source);
  const declaration = isPython(file)
    ? (name: string) => new RegExp(`^\\s*${name}\\s*=[^=]`)
    : (name: string) => new RegExp(`\\b(const|let|var)\\s+${name}\\b`);
  const out: Injection[] = [];
  for (const symbol of spread(untouchedFunctions(parsed, busy), count * 3)) {
    const body = parsed.rows.slice(symbol.start - 1, symbol.end);
    const local = parsed.tokens.find(
      (token) =>
        token.isName &&
        token.start > symbol.start &&
        token.end <= symbol.end &&
        token.text.length >= 2 &&
        declaration(token.text).test(parsed.rows[token.start - 1] ?? ''),
    );
    if (!local) continue;
    const renamed = isPython(file) ? `${local.text}_value` : `${local.text}Value`;
    if (source.includes(renamed)) continue;
    // Strings are skipped (a rename tool leaves them), comments are not (a model rewrites them too).
    const occurrence = new RegExp(
      `("(?:[^"\\\\]|\\\\.)*"|'(?:[^'\\\\]|\\\\.)*')|(?<![\\w$.])${local.text}(?![\\w$])`,
      'g',
    );
    const after = replaceLines(
      parsed.rows,
      symbol.start,
      symbol.end,
      body.map((row) => row.replace(occurrence, (match, quoted: string | undefined) => quoted ?? renamed)),
    );
    out.push({ kind: 'rename-local', what: `renames '${local.text}' to '${renamed}' in ${symbol.name}()`, after });
    if (out.length === count) break;
  }
  return out;
}

/** The comment block just above a definition (a JSDoc), or the docstring just inside it (Python), as whole lines. */
function docLines(parsed: Parsed, symbol: FileSymbol, python: boolean): { first: number; last: number } | null {
  if (python) {
    const inBody = parsed.tokens.filter((token) => token.start >= symbol.start && token.end <= symbol.end);
    // The header ends at the first `:` that ends its line; the docstring is the statement right after it.
    const header = inBody.findIndex(
      (token, index) => token.text === ':' && (inBody[index + 1]?.start ?? Infinity) > token.end,
    );
    const docstring = inBody[header + 1];
    if (header < 0 || !docstring?.isComment || !/^[rRuUbB]?("|')/.test(docstring.text)) return null;
    // A function that is only a docstring would lose its body.
    if (!inBody[header + 2]) return null;
    return { first: docstring.start, last: docstring.end };
  }
  let first = symbol.start;
  for (let index = parsed.tokens.findIndex((token) => token.start >= symbol.start) - 1; index >= 0; index--) {
    const token = parsed.tokens[index] as CodeToken;
    if (!token.isComment || token.end < first - 1) break;
    first = token.start;
  }
  return first < symbol.start ? { first, last: symbol.start - 1 } : null;
}

/** Deletes the docstring (Python) or the comment block above (JS/TS) of a function the fix leaves alone. */
export async function deleteDocstrings(file: string, source: string, busy: Busy, count: number): Promise<Injection[]> {
  const parsed = await parse(file, source);
  const found: { symbol: FileSymbol; first: number; last: number }[] = [];
  for (const symbol of untouchedFunctions(parsed, busy)) {
    const lines = docLines(parsed, symbol, isPython(file));
    if (lines && clear(busy, lines.first, lines.last)) found.push({ symbol, ...lines });
  }
  return spread(found, count).map(({ symbol, first, last }) => ({
    kind: 'delete-docstring',
    what: `deletes the documentation of ${symbol.name}() (lines ${first}-${last})`,
    after: replaceLines(parsed.rows, first, last, []),
  }));
}

/**
 * Deletes a small function the fix leaves alone and does not call (deleting what the fix calls cannot
 * pass the tests), with its comment block and one blank line after it. A class's only method stays (the
 * class would be left without a body).
 */
export async function deleteHelpers(
  file: string,
  source: string,
  busy: Busy,
  count: number,
  fixText: string,
): Promise<Injection[]> {
  const parsed = await parse(file, source);
  const found: { symbol: FileSymbol; first: number; last: number }[] = [];
  for (const symbol of untouchedFunctions(parsed, busy)) {
    const leaf = symbol.name.split('.').pop() ?? symbol.name;
    if (
      symbol.end - symbol.start > 40 ||
      new RegExp(`(?<![\\w$])${leaf.replace(/\$/g, '\\$')}(?![\\w$])`).test(fixText)
    )
      continue;
    const owner = parsed.symbols.find(
      (other) => other.kind === 'class' && other.start < symbol.start && other.end >= symbol.end,
    );
    if (
      owner &&
      !parsed.symbols.some(
        (other) =>
          other !== symbol &&
          other.start > owner.start &&
          other.end <= owner.end &&
          !(other.start >= symbol.start && other.end <= symbol.end),
      )
    )
      continue;
    const doc = isPython(file) ? null : docLines(parsed, symbol, false);
    const first = doc?.first ?? symbol.start;
    // The last row is the end of the file's final newline, not a blank line.
    const last =
      parsed.rows[symbol.end]?.trim() === '' && symbol.end + 1 < parsed.rows.length ? symbol.end + 1 : symbol.end;
    if (clear(busy, first, last)) found.push({ symbol, first, last });
  }
  return spread(found, count).map(({ symbol, first, last }) => ({
    kind: 'delete-helper',
    what: `deletes ${symbol.kind} '${symbol.name}' (lines ${first}-${last})`,
    after: replaceLines(parsed.rows, first, last, []),
  }));
}

/** Changes one literal on a line inside a function of a file the task does not touch (a number gets 1 added, a string a character). */
export async function changeLines(file: string, source: string, count: number): Promise<Injection[]> {
  const parsed = await parse(file, source);
  const found: Injection[] = [];
  for (const symbol of untouchedFunctions(parsed, [])) {
    const literal = parsed.tokens.find(
      (token) =>
        token.start > symbol.start &&
        token.end <= symbol.end &&
        token.start === token.end &&
        !token.isComment &&
        /^(\d+|'[^'\n]+'|"[^"\n]+")$/.test(token.text),
    );
    if (!literal) continue;
    const row = parsed.rows[literal.start - 1] ?? '';
    const changed = /^\d+$/.test(literal.text)
      ? String(Number(literal.text) + 1)
      : `${literal.text.slice(0, -1)}!${literal.text.slice(-1)}`;
    const column = row.indexOf(literal.text);
    if (column < 0) continue;
    const edited = row.slice(0, column) + changed + row.slice(column + literal.text.length);
    found.push({
      kind: 'other-file',
      what: `changes ${literal.text} to ${changed} in ${symbol.name}() of ${file}`,
      after: replaceLines(parsed.rows, literal.start, literal.start, [edited]),
    });
    if (found.length === count) break;
  }
  return found;
}
