import { isTestFile } from '../../../edits/policy';
import type { PatchLine } from '../goldPatch';
import { uniqueBlock } from './blockPlaces';
import { isPython, testsIn, type CodeSpan } from './codeShapes';
import { formatDiff, hunkAt, sectionFor } from './diffSections';
import { shuffled } from './random';
import { eolOf, escapeRegExp, indentOf, notApplicable, shownRuns, type SpoilInput, type SpoilResult } from './spoil';

const PATH_TOKEN = /[\w.-]+(?:\/[\w.-]+)*\.(?:py|[cm]?[jt]sx?)\b/g;

/** Test files the request names or shows: the feedback's (failing tests) first, then the context's, then the maps'. */
export function visibleTestFiles(input: Pick<SpoilInput, 'feedback' | 'files' | 'notes' | 'gold'>): string[] {
  const shown = [...input.files.keys()];
  const mapped = input.notes.flatMap((note) => [...note.matchAll(PATH_TOKEN)].map((match) => match[0]));
  const known = [...shown, ...mapped];
  // A stack trace names files by absolute path: the part a known repository path ends it with is the one meant.
  const named = [...(input.feedback ?? '').matchAll(PATH_TOKEN)].flatMap((match) => {
    const absolute = match.index !== undefined && match.index > 0 && (input.feedback ?? '')[match.index - 1] === '/';
    if (!absolute) return [match[0]];
    return known.filter((path) => match[0].endsWith(`/${path}`) || match[0] === path).slice(0, 1);
  });
  const stems = input.gold.map((file) => (file.path.split('/').pop() ?? '').replace(/\.[^.]+$/, '').toLowerCase());
  // Within each source, a test file named after a gold file (test_itertoolz.py for itertoolz.py) comes first.
  const related = (path: string) =>
    stems.some((stem) => stem.length > 2 && path.toLowerCase().includes(stem)) ? 0 : 1;
  const ordered = [named, shown, mapped].flatMap((paths) =>
    [...new Set(paths)].filter((path) => isTestFile(path)).sort((a, b) => related(a) - related(b)),
  );
  return [...new Set(ordered)];
}

/** Whether the feedback names a test (a whole word of it: `test_partition` is not `test_partition_all`). */
function names(feedback: string, name: string): boolean {
  return name.length > 2 && new RegExp(`(^|[^\\w])${escapeRegExp(name)}($|[^\\w])`).test(feedback);
}

/** An assertion statement and the trivially true line a model writes over it. */
interface Weakening {
  start: number;
  count: number;
  line: PatchLine;
}

/** The lines of a statement starting at `at`: until its brackets balance. */
function statementLength(lines: readonly PatchLine[], at: number, end: number): number {
  let depth = 0;
  for (let line = at; line < end; line++) {
    for (const char of lines[line] ?? '') depth += '([{'.includes(char) ? 1 : ')]}'.includes(char) ? -1 : 0;
    if (depth <= 0) return line - at + 1;
  }
  return 0;
}

function weakenedLine(path: string, statement: string, indent: string, eol: string, fileText: string): string {
  const trimmed = statement.trim();
  const semicolon = /;\s*$/.test(statement) ? ';' : '';
  if (isPython(path))
    return `${indent}${trimmed.startsWith('self.assert') ? 'self.assertTrue(True)' : 'assert True'}${eol}`;
  // supertest: the chain's expectation gives way to one that checks nothing (`done` still ends the test).
  if (trimmed.startsWith('.expect(')) {
    const callback = /,\s*(done|cb|callback|next|end)\s*\)\s*;?\s*$/.exec(trimmed)?.[1];
    return `${indent}${callback ? `.end(${callback})` : '.expect(function () {})'}${semicolon}${eol}`;
  }
  return `${indent}${/\bassert\b/.test(fileText) ? 'assert.ok(true)' : 'expect(true).toBe(true)'}${semicolon}${eol}`;
}

const ASSERTION = /^\s*(assert\b|self\.assert\w*\(|assert\.\w+\(|expect\(|\.expect\()/;

/** The assertion of `test` at a line the feedback cites (the failing one), else its first; null when none can be replaced whole. */
function weakening(
  path: string,
  run: { start: number; lines: readonly PatchLine[] },
  test: CodeSpan,
  cited: ReadonlySet<number>,
): Weakening | null {
  const { lines } = run;
  const fileText = lines.join('');
  const assertions: Weakening[] = [];
  for (let at = test.head + 1; at < test.end; at++) {
    const line = lines[at] ?? '';
    if (!ASSERTION.test(line)) continue;
    const count = statementLength(lines, at, test.end);
    if (count === 0) continue;
    const statement = lines.slice(at, at + count).join('');
    assertions.push({
      start: at,
      count,
      line: weakenedLine(
        path,
        statement.replace(/\r?\n$/, ''),
        indentOf(line),
        eolOf(lines[at + count - 1] ?? '\n') || '\n',
        fileText,
      ),
    });
  }
  return (
    assertions.find((entry) =>
      Array.from({ length: entry.count }, (_, offset) => run.start + entry.start + offset + 1).some((line) =>
        cited.has(line),
      ),
    ) ??
    assertions[0] ??
    null
  );
}

/** Whole-file: the fixed source's content written over a test file instead (the sqlparse case). */
function overwriteTestFile(input: SpoilInput & { answer: { format: 'whole-file' } }, tests: string[]): SpoilResult {
  const target = input.answer.edits.findIndex((edit) => input.gold.some((file) => file.path === edit.path));
  const testPath = tests[0];
  if (target < 0 || !testPath)
    return notApplicable(target < 0 ? 'the answer writes no gold file' : 'the request names and shows no test file');
  const edits = input.answer.edits.map((edit, at) =>
    at === target ? { path: testPath, content: edit.content } : edit,
  );
  return { ok: true, answer: { format: 'whole-file', edits }, evidence: { kind: 'test-path', testPath } };
}

/** Search-replace and diff: an assertion of a failing test made trivially true, and the source left as it was. */
function weakenAssertion(
  input: SpoilInput & { answer: { format: 'search-replace' | 'unified-diff' } },
  tests: string[],
): SpoilResult {
  const feedback = input.feedback ?? '';
  for (const testPath of tests) {
    const runs = shownRuns(input.files.get(testPath));
    const cited = new Set(
      [...feedback.matchAll(new RegExp(`${escapeRegExp(testPath)}:(\\d+)`, 'g'))].map((match) => Number(match[1])),
    );
    const found = runs.flatMap((run, runIndex) =>
      testsIn(testPath, run.lines).flatMap((test) => {
        const weak = weakening(testPath, run, test, cited);
        return weak
          ? [
              {
                runIndex,
                run,
                test,
                weak,
                failing: [test.name, ...(test.suites ?? [])].some((name) => names(feedback, name)),
              },
            ]
          : [];
      }),
    );
    const failing = found.filter((entry) => entry.failing);
    const chosen = (failing.length > 0 ? failing : shuffled(input.random, found))[0];
    if (!chosen) continue;
    const { runIndex, run, weak } = chosen;
    const evidence = { kind: 'test-path' as const, testPath };
    if (input.answer.format === 'search-replace') {
      const block = uniqueBlock(runs, runIndex, weak.start, weak.count, [weak.line]);
      if (block)
        return { ok: true, answer: { format: 'search-replace', edits: [{ path: testPath, ...block }] }, evidence };
      continue;
    }
    const diff = formatDiff({
      preamble: [],
      sections: [sectionFor(testPath, [hunkAt(run, weak.start, weak.count, [weak.line])])],
    });
    return { ok: true, answer: { format: 'unified-diff', diff }, evidence };
  }
  return notApplicable(
    tests.length === 0
      ? 'the request names and shows no test file'
      : `no test file the writer is shown (${tests.slice(0, 3).join(', ')}) has an assertion it could copy and weaken`,
  );
}

/** `test-path`: the edit goes to an existing test file instead of the source (every format). */
export function testPath(input: SpoilInput): SpoilResult {
  const { answer } = input;
  const tests = visibleTestFiles(input);
  if (answer.format === 'whole-file') return overwriteTestFile({ ...input, answer }, tests);
  return weakenAssertion(
    { ...input, answer },
    tests.filter((path) => input.files.has(path)),
  );
}
