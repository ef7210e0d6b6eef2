import type { TestRecord } from '../../../../shared/schemas/testInventory';
import {
  checkedInventory,
  firstLines,
  makeCounts,
  MAX_FAILURES,
  numberIn,
  type ParsedFailure,
  type TestOutcome,
} from './outcome';

const RAN = /^Ran (\d+) tests? in [\d.]+s$/;
const RESULT = /^(OK|FAILED)(?: \((.*)\))?\s*$/;
const HEAD = /^(FAIL|ERROR|UNEXPECTED SUCCESS): (\S+)(?: \((.+?)\))?(?: \[.*\])?$/;

/**
 * Python's unittest runner: `Ran 6 tests in 0.001s` then `OK (skipped=1)` or
 * `FAILED (failures=1, errors=1, skipped=1)`, and a `FAIL:`/`ERROR:` block with the traceback per
 * failure. Skips and expected failures count as skipped; the rest of the run as passed.
 */
export function parseUnittestOutput(output: string): TestOutcome | null {
  const lines = output.split('\n');
  const runs: { ran: number; result: string; lines: string[] }[] = [];
  lines.forEach((line, index) => {
    const ran = RAN.exec(line);
    const result = lines.slice(index + 1, index + 4).find((next) => RESULT.test(next));
    if (ran && result) runs.push({ ran: Number(ran[1]), result, lines: [line, result] });
  });
  if (runs.length === 0) return null;
  let failed = 0;
  let skipped = 0;
  let total = 0;
  for (const run of runs) {
    const detail = (RESULT.exec(run.result) as RegExpExecArray)[2] ?? '';
    const runFailed =
      numberIn(detail, /failures=(\d+)/) +
      numberIn(detail, /errors=(\d+)/) +
      numberIn(detail, /unexpected successes=(\d+)/);
    const runSkipped = numberIn(detail, /skipped=(\d+)/) + numberIn(detail, /expected failures=(\d+)/);
    failed += runFailed;
    skipped += runSkipped;
    total += run.ran;
  }
  const counts = makeCounts(total - failed - skipped, failed, skipped, total);
  const failures = readFailures(lines);
  return {
    runner: 'unittest',
    source: 'text output',
    counts,
    failures,
    summary: runs.flatMap((run) => run.lines),
    tests: checkedInventory(verboseTests(lines), counts, failures),
  };
}

/** `-v`'s result words, counted as the closing line counts them. */
const UNITTEST_OUTCOMES: Record<string, TestRecord['outcome']> = {
  ok: 'passed',
  FAIL: 'failed',
  ERROR: 'failed',
  'unexpected success': 'failed',
  skipped: 'skipped',
  'expected failure': 'skipped',
};
const VERBOSE_HEAD = /^(\w+) \(([\w.]+)\)/;
/** nose2 names a function test by its dotted path, a generated one with `:N` (its parameters on the next line). */
const NOSE2_HEAD = /^([\w.]+\.\w+(?::\d+)?)(?= \.\.\. |$)/;
const VERBOSE_RESULT = / \.\.\. (ok|FAIL|ERROR|unexpected success|expected failure|skipped)(?: .*)?$/;

/**
 * Every test from `-v` output: `test_ok (tests.test_a.Outer.test_ok) ... ok`, or with a docstring,
 * the head on its own line and `First docstring line ... ok` below it. Without `-v` unittest prints
 * dots: no inventory.
 */
function verboseTests(lines: string[]): TestRecord[] {
  const tests: TestRecord[] = [];
  lines.forEach((line, index) => {
    const head = VERBOSE_HEAD.exec(line) ?? NOSE2_HEAD.exec(line);
    if (!head) return;
    const result = VERBOSE_RESULT.exec(line) ?? (line === head[0] ? VERBOSE_RESULT.exec(lines[index + 1] ?? '') : null);
    if (result)
      tests.push({
        id: unittestId(head[1] as string, head[2] as string | undefined),
        outcome: UNITTEST_OUTCOMES[result[1] as string] as TestRecord['outcome'],
      });
  });
  return tests;
}

/**
 * A test's id: Python 3.11 prints `test_x (pkg.mod.Class.test_x)`, older ones `test_x (pkg.mod.Class)`,
 * where the method is added so that two tests of one class are two ids.
 */
function unittestId(method: string, inParentheses: string | undefined): string {
  if (!inParentheses) return method;
  return /^[\w.]+$/.test(inParentheses) && !inParentheses.endsWith(`.${method}`)
    ? `${inParentheses}.${method}`
    : inParentheses;
}

/** Each `FAIL: test (module.Class.test)` block: the traceback between the dashed line and the next `=`/`-` rule. */
function readFailures(lines: string[]): ParsedFailure[] {
  const failures: ParsedFailure[] = [];
  for (let index = 0; index < lines.length && failures.length < MAX_FAILURES; index++) {
    const head = HEAD.exec(lines[index] as string);
    if (!head || !/^={20,}$/.test(lines[index - 1] ?? '')) continue;
    const body: string[] = [];
    // The rule under the head; nose2 puts a generated test's parameters between the two.
    const rule = lines.slice(index + 1, index + 4).findIndex((line) => /^-{20,}$/.test(line));
    let next = index + 2 + Math.max(0, rule);
    while (next < lines.length && !/^(={20,}|-{20,})$/.test(lines[next] as string)) body.push(lines[next++] as string);
    while (body.length > 0 && (body.at(-1) as string).trim() === '') body.pop();
    // The exception is what follows the last frame (`  File …` and its indented source lines).
    const lastFrame = body.findLastIndex((line) => /^\s+File "/.test(line));
    let messageStart = lastFrame + 1;
    while (messageStart < body.length && /^\s{4}/.test(body[messageStart] as string)) messageStart++;
    const message =
      head[1] === 'UNEXPECTED SUCCESS' ? 'unexpected success' : body.slice(Math.max(0, messageStart)).join('\n');
    failures.push({
      testId: unittestId(head[2] as string, head[3]),
      message: firstLines(message),
      detail: body.join('\n'),
    });
    index = next - 1;
  }
  return failures;
}
