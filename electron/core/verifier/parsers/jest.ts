import { z } from 'zod';
import type { TestRecord } from '../../../../shared/schemas/testInventory';
import {
  checkedInventory,
  completeInventory,
  dedent,
  firstLines,
  makeCounts,
  MAX_FAILURES,
  numberIn,
  stripAnsi,
  type ParsedFailure,
  type TestOutcome,
} from './outcome';
import { indentOf, testsFromTree, type TreeLine } from './titleTree';

const TESTS_LINE = /^Tests:\s+(.*\d+ total)\s*$/;
const BULLET = /^ {2}● (.+)$/;

/**
 * Jest's default reporter: `Tests: 1 failed, 1 skipped, 1 todo, 2 passed, 6 total`, and each failure
 * as `  ● suite › test` with its message, code frame and stack below. A suite that failed to run
 * (`● Test suite failed to run`) is listed as a failure though jest counts no test for it.
 */
export function parseJestOutput(output: string): TestOutcome | null {
  const lines = output.split('\n');
  const testsLines = lines.filter((line) => TESTS_LINE.test(line));
  if (testsLines.length === 0) return null;
  const sum = (pattern: RegExp) => testsLines.reduce((total, line) => total + numberIn(line, pattern), 0);
  const counts = makeCounts(
    sum(/(\d+) passed/),
    sum(/(\d+) failed/),
    sum(/(\d+) skipped/) + sum(/(\d+) todo/),
    sum(/(\d+) total/),
  );
  const summary = lines.filter((line) => /^(Test Suites|Tests|Snapshots|Time):\s/.test(line));
  const failures: ParsedFailure[] = [];
  for (let index = 0; index < lines.length && failures.length < MAX_FAILURES; index++) {
    const bullet = BULLET.exec(lines[index] as string);
    if (!bullet || (bullet[1] as string).startsWith('Console')) continue;
    const block: string[] = [];
    let next = index + 1;
    while (
      next < lines.length &&
      !BULLET.test(lines[next] as string) &&
      !/^(PASS|FAIL) /.test(lines[next] as string) &&
      !/^(Test Suites|Tests):/.test(lines[next] as string)
    )
      block.push(lines[next++] as string);
    failures.push(failureFrom((bullet[1] as string).trim(), dedent(block)));
    index = next - 1;
  }
  return {
    runner: 'jest',
    source: 'text output',
    counts,
    failures,
    summary,
    tests: verboseTests(lines, counts, failures),
  };
}

const VERBOSE_TEST = /^( +)(✓|✕|○ skipped|✎ todo) (.*?)(?: \(\d+(?:\.\d+)? m?s\))?$/;
const JEST_SYMBOLS: Record<string, TestRecord['outcome']> = {
  '✓': 'passed',
  '✕': 'failed',
  '○ skipped': 'skipped',
  '✎ todo': 'skipped',
};

/**
 * Every test from the verbose reporter's trees (jest uses it when one file runs, or with `--verbose`):
 * under each `PASS file`/`FAIL file` line, `✓ title (3 ms)`, `✕ title`, `○ skipped title`,
 * `✎ todo title` under indented describe titles, up to the failures' blocks. Kept only when it adds up to the
 * counts and names its failures as the `●` blocks do; without `--verbose` several files print no tree.
 */
function verboseTests(
  lines: string[],
  counts: TestOutcome['counts'],
  failures: ParsedFailure[],
): TestRecord[] | undefined {
  const trees: TreeLine[][] = [];
  let tree: TreeLine[] | null = null;
  for (const line of lines) {
    if (/^(PASS|FAIL) /.test(line)) {
      tree = [];
      trees.push(tree);
      continue;
    }
    if (!tree || line.trim() === '') continue;
    // The failures' `●` blocks follow the tree; a test's console output inside it is indented and is
    // popped by the next line at the tree's top level, so it names no test.
    if (!line.startsWith(' ') || BULLET.test(line)) {
      tree = null;
      continue;
    }
    const test = VERBOSE_TEST.exec(line);
    tree.push(
      test
        ? {
            indent: (test[1] as string).length,
            title: test[3] as string,
            outcome: JEST_SYMBOLS[test[2] as string] ?? null,
          }
        : { indent: indentOf(line), title: line.trim(), outcome: null },
    );
  }
  return checkedInventory(
    trees.flatMap((fileTree) => testsFromTree(fileTree, ' › ')),
    counts,
    failures,
  );
}

/** The message is what comes before the code frame (`> 4 | …`) or the first stack frame. */
function failureFrom(testId: string, body: string[]): ParsedFailure {
  const end = body.findIndex((line) => /^\s*(>?\s*\d+ \||at )/.test(line));
  return { testId, message: firstLines((end === -1 ? body : body.slice(0, end)).join('\n')), detail: body.join('\n') };
}

const AssertionSchema = z.object({
  ancestorTitles: z.array(z.string()).default([]),
  title: z.string(),
  status: z.string(),
  failureMessages: z.array(z.string()).nullable().default([]),
});
const JestJsonSchema = z.object({
  numPassedTests: z.number(),
  numFailedTests: z.number(),
  numPendingTests: z.number(),
  numTodoTests: z.number().default(0),
  numTotalTests: z.number(),
  testResults: z.array(
    z.object({
      name: z.string(),
      message: z.string().default(''),
      testExecError: z.unknown().optional(),
      assertionResults: z.array(AssertionSchema).default([]),
    }),
  ),
});

/** jest's assertion statuses; `pending`, `todo`, `skipped` and `disabled` are what its counts call pending or todo. */
const JEST_OUTCOMES: Record<string, TestRecord['outcome']> = { passed: 'passed', failed: 'failed' };

/** `jest --json --outputFile`: jest's own counts, and failures in its order; null when it is not that. */
export function parseJestJson(json: string, repoDir: string | null): TestOutcome | null {
  let parsed: z.infer<typeof JestJsonSchema>;
  try {
    const result = JestJsonSchema.safeParse(JSON.parse(json));
    if (!result.success) return null;
    parsed = result.data;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return null;
  }
  const failures: ParsedFailure[] = [];
  const tests: TestRecord[] = [];
  for (const file of parsed.testResults) {
    const relative = repoDir && file.name.startsWith(`${repoDir}/`) ? file.name.slice(repoDir.length + 1) : file.name;
    if (file.assertionResults.length === 0 && file.testExecError !== undefined && file.testExecError !== null) {
      failures.push({
        testId: `${relative}: Test suite failed to run`,
        message: firstLines(stripAnsi(file.message).replace(/^\s*● Test suite failed to run\s*/, '')),
        detail: stripAnsi(file.message),
        file: relative,
      });
    }
    for (const assertion of file.assertionResults) {
      const testId = [...assertion.ancestorTitles, assertion.title].join(' › ');
      tests.push({ id: testId, outcome: JEST_OUTCOMES[assertion.status] ?? 'skipped', file: relative });
      if (assertion.status !== 'failed') continue;
      const detail = stripAnsi((assertion.failureMessages ?? []).join('\n'));
      const frameAt = detail.split('\n').findIndex((line) => /^\s+at /.test(line));
      const message = frameAt === -1 ? detail : detail.split('\n').slice(0, frameAt).join('\n');
      failures.push({ testId, message: firstLines(message.replace(/^Error: /, '')), detail, file: relative });
    }
  }
  const counts = makeCounts(
    parsed.numPassedTests,
    parsed.numFailedTests,
    parsed.numPendingTests + parsed.numTodoTests,
    parsed.numTotalTests,
  );
  return {
    runner: 'jest',
    source: 'jest JSON',
    counts,
    failures: failures.slice(0, MAX_FAILURES),
    summary: [],
    tests: completeInventory(tests, counts),
  };
}
