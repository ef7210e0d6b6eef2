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

const RUNNING = /^Running \d+ tests? using \d+ workers?/;
const CLOSING = /^ {2}(\d+) (passed|failed|flaky|skipped|interrupted|did not run)(?: \(.*\))?$/;
const FAIL_HEAD = /^ {2}\d+\) (\S+?):\d+:\d+ › (.+?) ─+$/;
const LIST_LINE = /^ {2}(✓|✘|-|°) +\d+ (?:\[[^\]]+\] › )?(\S+?):\d+:\d+ › (.+?)(?: \(\d+(?:\.\d+)?m?s\))?$/;

/**
 * `playwright test`'s list, line and dot reporters: `Running 6 tests using 1 worker`, closing lines
 * (`2 failed`, `2 skipped`, `2 passed (9.4s)`; flaky as passed, interrupted as failed, did not run as
 * skipped), and each failure as `1) file:line:col › describe › test ───` with the error below. A test
 * is named `describe › test`, as its JUnit report names it; the file is kept apart. The list reporter's
 * lines (`✓  1 file:3:3 › outer › passes (16ms)`) name every test.
 */
export function parsePlaywrightOutput(output: string): TestOutcome | null {
  if (!/^\s*Running \d+ tests? using \d+ workers?/m.test(output)) return null;
  const lines = output.split('\n');
  if (!lines.some((line) => RUNNING.test(line.trim()))) return null;
  const closing = lines.filter((line) => CLOSING.test(line));
  if (closing.length === 0) return null;
  const text = closing.join('\n');
  const count = (word: string) => numberIn(text, new RegExp(`^ {2}(\\d+) ${word}\\b`, 'm'));
  const counts = makeCounts(
    count('passed') + count('flaky'),
    count('failed') + count('interrupted'),
    count('skipped') + count('did not run'),
  );
  const failures: ParsedFailure[] = [];
  for (let index = 0; index < lines.length && failures.length < MAX_FAILURES; index++) {
    const head = FAIL_HEAD.exec(lines[index] as string);
    if (!head) continue;
    const body: string[] = [];
    let next = index + 1;
    while (next < lines.length && !FAIL_HEAD.test(lines[next] as string) && !CLOSING.test(lines[next] as string))
      body.push(lines[next++] as string);
    const block = dedent(body.filter((line) => !/^\s*(Error Context|attachment #\d+):/.test(line)));
    while (block.length > 0 && (block[0] as string).trim() === '') block.shift();
    const end = block.findIndex((line) => /^\s*(>?\s*\d+ \||at )/.test(line));
    const message = (end === -1 ? block : block.slice(0, end)).join('\n').replace(/^Error: /, '');
    failures.push({
      testId: head[2] as string,
      message: firstLines(message),
      detail: block.join('\n'),
      file: head[1] as string,
    });
    index = next - 1;
  }
  const tests = lines.flatMap((line): TestRecord[] => {
    const entry = LIST_LINE.exec(line);
    return entry
      ? [
          {
            id: entry[3] as string,
            outcome: entry[1] === '✓' ? 'passed' : entry[1] === '✘' ? 'failed' : 'skipped',
            file: entry[2] as string,
          },
        ]
      : [];
  });
  return {
    runner: 'playwright',
    source: 'text output',
    counts,
    failures,
    summary: closing.map((line) => line.trim()),
    tests: checkedInventory(tests, counts, failures),
  };
}
