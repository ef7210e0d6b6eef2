import type { QuerySignals } from './querySignals';
import type { RepoMap } from './repoMap';
import type { FileSymbol } from './symbols';

export interface TestSpan {
  file: string;
  start: number;
  end: number;
}

/** A frame in a test file outside any named function (an `it(…, () => …)` callback): this many lines above it. */
const LINES_ABOVE_FRAME = 15;
/** Reading more failing tests than this adds their files' noise, not the code under test. */
const MAX_SPANS = 6;
/** A symbol this long around a frame is a whole suite, not the test. */
const MAX_TEST_LINES = 150;
/** Words of the test's own language and assertion libraries: they name no code under test. */
const LANGUAGE_WORDS = new Set(
  'def class self cls assert return import from const let var function async await new this expect toBe toEqual toMatchObject toStrictEqual assertEqual assertTrue assertFalse assertRaises assertIn raises list dict set tuple str int float len type map min max print isinstance range true false null undefined None True False'.split(
    ' ',
  ),
);

const lastName = (symbol: FileSymbol) => symbol.name.slice(symbol.name.lastIndexOf('.') + 1);

/**
 * The failing tests' own code: the test function the runner names (pytest `file::Class::name`), else,
 * for each stack frame in a test file, the innermost function around it or the lines above it.
 */
export function failingTestSpans(map: RepoMap, signals: QuerySignals, isTest: (file: string) => boolean): TestSpan[] {
  const spans: TestSpan[] = [];
  const covered = (file: string, line: number) =>
    spans.some((span) => span.file === file && span.start <= line && line <= span.end);
  for (const test of signals.failingTests) {
    const file = test.file ? map.byPath.get(test.file) : undefined;
    const name = test.name;
    if (!file || !name) continue;
    const symbol =
      file.symbols.find((entry) => entry.name === name) ??
      file.symbols.find((entry) => name.endsWith(`.${entry.name}`) || entry.name.endsWith(`.${name}`));
    if (symbol && !covered(file.path, symbol.start))
      spans.push({ file: file.path, start: symbol.start, end: symbol.end });
  }
  for (const [path, lines] of signals.mentioned) {
    if (!isTest(path)) continue;
    const symbols = map.byPath.get(path)?.symbols ?? [];
    for (const line of lines) {
      if (covered(path, line)) continue;
      const around = symbols
        .filter((entry) => entry.start <= line && line <= entry.end && entry.end - entry.start < MAX_TEST_LINES)
        .sort((a, b) => a.end - a.start - (b.end - b.start))[0];
      spans.push(
        around
          ? { file: path, start: around.start, end: around.end }
          : { file: path, start: Math.max(1, line - LINES_ABOVE_FRAME), end: line + 2 },
      );
    }
  }
  return spans.slice(0, MAX_SPANS);
}

/**
 * Identifiers the failing tests' own code uses (string literals left out), less what their files
 * define and the language's own words: the names of the code under test.
 */
export async function failingTestNames(
  map: RepoMap,
  spans: TestSpan[],
  read: (file: string) => Promise<string | null>,
): Promise<Set<string>> {
  const names = new Set<string>();
  const texts = new Map<string, string[] | null>();
  for (const span of spans) {
    if (!texts.has(span.file)) texts.set(span.file, (await read(span.file))?.split('\n') ?? null);
    const rows = texts.get(span.file);
    if (!rows) continue;
    const own = new Set((map.byPath.get(span.file)?.symbols ?? []).map(lastName));
    const code = rows
      .slice(span.start - 1, span.end)
      .join('\n')
      .replace(/("""|''')[\s\S]*?\1/g, ' ')
      .replace(/`(?:\\.|[^\\`])*`/g, ' ')
      .replace(/(["'])(?:\\.|(?!\1)[^\\\n])*\1/g, ' ');
    for (const match of code.matchAll(/[A-Za-z_$][\w$]*/g)) {
      const word = match[0];
      if (word.length >= 3 && !own.has(word) && !LANGUAGE_WORDS.has(word)) names.add(word);
    }
  }
  return names;
}
