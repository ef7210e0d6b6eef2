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

const CLOSING =
  /^ {2}(\d+) (?:tests? (passed|failed|skipped|todo)|(known failures?|uncaught exceptions?|unhandled rejections?))$/;
const LINE = /^ {2}(✔|✘ \[fail\]:|- \[skip\]|- \[todo\]) (.*?)(?: \(\d+(?:\.\d+)?m?s\))?$/;
const RULE = /^ {2}─$/;

/**
 * ava's default reporter: a line per test (`✔ title`, `✘ [fail]: title message`, `- [skip] title`,
 * `- [todo] title`), each failure's block between two `─` rules (title, place, code frame, the
 * difference or the error, `› file:line:col`), and closing lines: `2 tests failed`, `1 test skipped`,
 * `1 test todo` (`6 tests passed` only when none failed; passing tests are then counted from their lines).
 * Uncaught exceptions and unhandled rejections count as failures, as ava's exit code does.
 */
export function parseAvaOutput(output: string): TestOutcome | null {
  // Looked for in the whole text first: most outputs are not ava's, and splitting a large one costs.
  if (
    !/^ {2}\d+ (tests? (passed|failed|skipped|todo)|known failures?|uncaught exceptions?|unhandled rejections?)$/m.test(
      output,
    )
  )
    return null;
  const lines = output.split('\n');
  const closing = lines.filter((line) => CLOSING.test(line));
  const entries = lines.map((line) => LINE.exec(line)).filter((entry): entry is RegExpExecArray => entry !== null);
  if (closing.length === 0 || (entries.length === 0 && !closing.some((line) => /tests? passed/.test(line))))
    return null;
  const text = closing.join('\n');
  const stated = numberIn(text, /(\d+) tests? passed/);
  // A `test.failing` that failed as expected is a `✔ [expected fail]` line and a "known failure", not among
  // "tests passed": counted as passed either way, so the total is the same whether or not others fail.
  const known = numberIn(text, /(\d+) known failures?/);
  const passed =
    stated > 0 || /tests? passed/.test(text) ? stated + known : entries.filter((entry) => entry[1] === '✔').length;
  const failed =
    numberIn(text, /(\d+) tests? failed/) +
    numberIn(text, /(\d+) uncaught exceptions?/) +
    numberIn(text, /(\d+) unhandled rejections?/);
  const counts = makeCounts(
    passed,
    failed,
    numberIn(text, /(\d+) tests? skipped/) + numberIn(text, /(\d+) tests? todo/),
  );
  const failedLines = entries.filter((entry) => entry[1] === '✘ [fail]:').map((entry) => entry[2] as string);
  const failures = readBlocks(lines, failedLines).slice(0, MAX_FAILURES);
  const tests = entries.map((entry): TestRecord => {
    if (entry[1] !== '✘ [fail]:')
      return {
        id: (entry[2] as string).replace(/^\[expected fail\] /, ''),
        outcome: entry[1] === '✔' ? 'passed' : 'skipped',
      };
    const title = failures
      .map((failure) => failure.testId)
      .find((id) => entry[2] === id || (entry[2] as string).startsWith(`${id} `));
    return { id: title ?? (entry[2] as string), outcome: 'failed' };
  });
  return {
    runner: 'ava',
    source: 'text output',
    counts,
    failures,
    summary: closing.map((line) => line.trim()),
    tests: checkedInventory(tests, counts, failures),
  };
}

/** The blocks between the first and the last `─`: each opens with a failing test's title (its `✘` line without the message). */
function readBlocks(lines: string[], failedLines: string[]): ParsedFailure[] {
  const first = lines.findIndex((line) => RULE.test(line));
  const last = lines.findLastIndex((line) => RULE.test(line));
  if (first === -1 || last <= first) return [];
  const titleOf = (line: string): string | null => {
    if (!/^ {2}\S/.test(line)) return null;
    const candidate = line.slice(2);
    return failedLines.some((failed) => failed === candidate || failed.startsWith(`${candidate} `)) ? candidate : null;
  };
  const failures: ParsedFailure[] = [];
  let current: { title: string; body: string[] } | null = null;
  const flush = () => {
    if (!current) return;
    const body = dedent(current.body);
    // The message: what follows the place and the code frame (`  3: test(…)`), up to ava's `› file:line:col`.
    const text = body.filter(
      (line) =>
        !/^\s*\d+: /.test(line) &&
        !/^\S+\.[cm]?[jt]sx?:\d+$/.test(line.trim()) &&
        !/^\s*› /.test(line) &&
        !/^\s+at /.test(line),
    );
    failures.push({ testId: current.title, message: firstLines(text.join('\n')), detail: body.join('\n') });
  };
  for (let index = first + 1; index < last; index++) {
    const line = lines[index] as string;
    const title = (lines[index - 1] as string).trim() === '' ? titleOf(line) : null;
    if (title !== null) {
      flush();
      current = { title, body: [] };
    } else if (current) {
      current.body.push(line);
    }
  }
  flush();
  return failures;
}
