import type { TestRecord } from '../../../../shared/schemas/testInventory';
import {
  checkedInventory,
  dedent,
  firstLines,
  makeCounts,
  MAX_FAILURES,
  numberIn,
  type ParsedFailure,
  type TestOutcome,
} from './outcome';

const TESTS_LINE = /^\s*Tests\s{2,}(.*\(\d+\))\s*$/;
const FAIL_HEAD = /^\s*FAIL\s+(\S.*?)\s*$/;
const SEPARATOR = /^⎯{3,}/;

/**
 * Vitest's default reporter: ` Tests  4 failed | 481 passed (485)`, and the "Failed Tests" section,
 * where tests failing with the same error share one block (` FAIL  file > suite > test` lines, then
 * the error, then ` ❯ file:line:col`). A file that failed to load is listed under "Failed Suites".
 */
export function parseVitestOutput(output: string): TestOutcome | null {
  const lines = output.split('\n');
  const testsLine = lines.find((line) => TESTS_LINE.test(line));
  if (!testsLine) return null;
  const text = (TESTS_LINE.exec(testsLine) as RegExpExecArray)[1] as string;
  const counts = makeCounts(
    numberIn(text, /(\d+) passed/),
    numberIn(text, /(\d+) failed/),
    numberIn(text, /(\d+) skipped/) + numberIn(text, /(\d+) todo/),
    numberIn(text, /\((\d+)\)/),
  );
  const summary = lines.filter((line) => /^\s*(Test Files|Tests)\s{2,}/.test(line)).map((line) => line.trim());
  const failures = readFailures(lines).slice(0, MAX_FAILURES);
  return {
    runner: 'vitest',
    source: 'text output',
    counts,
    failures,
    summary,
    tests: verboseTests(lines, counts, failures),
  };
}

const VERBOSE_TEST = /^ +(✓|×|↓|□) (\S.*? > .*?)(?: \d+(?:\.\d+)?m?s)?$/;
const VITEST_SYMBOLS: Record<string, TestRecord['outcome']> = {
  '✓': 'passed',
  '×': 'failed',
  '↓': 'skipped',
  '□': 'skipped',
};

/**
 * Every test from the verbose reporter (`--reporter=verbose`): one `✓ file > describe > test 2ms`
 * line per test (`×` failed, `↓` skipped, `□` todo), named as the "Failed Tests" section names them.
 * The default reporter prints only files and, under a failing file, titles without their describes:
 * no inventory. Kept only when it adds up to the counts.
 */
function verboseTests(
  lines: string[],
  counts: TestOutcome['counts'],
  failures: ParsedFailure[],
): TestRecord[] | undefined {
  const tests: TestRecord[] = [];
  for (const line of lines) {
    if (/^\s*(Test Files|Tests)\s{2,}/.test(line) || /⎯ Failed (Tests|Suites) \d+ ⎯/.test(line)) break;
    const test = VERBOSE_TEST.exec(line);
    if (test)
      tests.push({
        id: test[2] as string,
        outcome: VITEST_SYMBOLS[test[1] as string] as TestRecord['outcome'],
        file: (test[2] as string).split(' > ')[0] ?? null,
      });
  }
  return checkedInventory(tests, counts, failures);
}

function readFailures(lines: string[]): ParsedFailure[] {
  const start = lines.findIndex((line) => /⎯ Failed (Tests|Suites) \d+ ⎯/.test(line));
  if (start === -1) return [];
  const failures: ParsedFailure[] = [];
  let heads: string[] = [];
  let body: string[] = [];
  const flush = () => {
    if (heads.length === 0) return;
    const block = dedent(body);
    while (block.length > 0 && (block[0] as string).trim() === '') block.shift();
    const frameAt = block.findIndex((line) => /^\s*(❯|at) /.test(line));
    const message = firstLines((frameAt === -1 ? block : block.slice(0, frameAt)).join('\n'));
    for (const head of heads)
      failures.push({
        testId: head.replace(/\s+\[ .* \]$/, ''),
        message,
        detail: block.join('\n'),
        file: head.split(' > ')[0] ?? null,
      });
    heads = [];
    body = [];
  };
  for (let index = start + 1; index < lines.length; index++) {
    const line = lines[index] as string;
    if (/^\s*(Test Files|Tests)\s{2,}/.test(line)) break;
    const head = FAIL_HEAD.exec(line);
    if (head) {
      if (body.some((text) => text.trim() !== '')) flush();
      heads.push(head[1] as string);
      continue;
    }
    if (SEPARATOR.test(line.trim())) {
      flush();
      continue;
    }
    if (heads.length > 0) body.push(line);
  }
  flush();
  return failures;
}
