import type { TestRecord } from '../../../../shared/schemas/testInventory';
import {
  checkedInventory,
  firstLines,
  makeCounts,
  MAX_FAILURES,
  type ParsedFailure,
  type TestOutcome,
} from './outcome';

const RESULT = /^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured/;
const STDOUT_HEAD = /^---- (.+?) stdout ----$/;
/** libtest's line per test (not with `--quiet`, which prints dots): `test m::t ... ok`, `… - should panic ... ok`, a doc-test `test src/lib.rs - f (line 3) ... ok`. */
const TEST_LINE = /^test (.+?)(?: - should panic)? \.\.\. (ok|FAILED|ignored(?:, .*)?)$/;

/**
 * cargo test (libtest): one `test result:` line per test binary (unit tests, each integration test,
 * doc-tests), summed; each failure's `---- name stdout ----` block holds its panic message and place.
 */
export function parseCargoOutput(output: string): TestOutcome | null {
  const lines = output.split('\n');
  const results = lines.filter((line) => RESULT.test(line));
  if (results.length === 0) return null;
  const sum = (group: number) =>
    results.reduce((total, line) => total + Number((RESULT.exec(line) as RegExpExecArray)[group]), 0);
  const failures: ParsedFailure[] = [];
  const seen = new Set<string>();
  for (let index = 0; index < lines.length && failures.length < MAX_FAILURES; index++) {
    const head = STDOUT_HEAD.exec(lines[index] as string);
    if (!head) continue;
    const body: string[] = [];
    let next = index + 1;
    while (
      next < lines.length &&
      !STDOUT_HEAD.test(lines[next] as string) &&
      !/^(failures:|test result:)/.test(lines[next] as string)
    )
      body.push(lines[next++] as string);
    failures.push(failureOf(head[1] as string, body));
    seen.add(head[1] as string);
    index = next - 1;
  }
  // A failure that printed nothing has no stdout block: the `test x ... FAILED` line names it.
  const tests: TestRecord[] = [];
  for (const line of lines) {
    const test = TEST_LINE.exec(line);
    if (test)
      tests.push({
        id: test[1] as string,
        outcome: test[2] === 'ok' ? 'passed' : test[2] === 'FAILED' ? 'failed' : 'skipped',
      });
    const failed = test?.[2] === 'FAILED' ? test : null;
    if (failed && !seen.has(failed[1] as string) && failures.length < MAX_FAILURES) {
      seen.add(failed[1] as string);
      failures.push({ testId: failed[1] as string, message: '', detail: '' });
    }
  }
  const order = listedOrder(lines);
  failures.sort((a, b) => (order.get(a.testId) ?? Infinity) - (order.get(b.testId) ?? Infinity));
  const counts = makeCounts(sum(1), sum(2), sum(3));
  return {
    runner: 'cargo test',
    source: 'text output',
    counts,
    failures,
    summary: results,
    tests: checkedInventory(tests, counts, failures),
  };
}

/**
 * Tests run in parallel, so the `---- x stdout ----` blocks come in finishing order; the closing
 * `failures:` list is sorted by name, the order cargo reports them in.
 */
function listedOrder(lines: string[]): Map<string, number> {
  const order = new Map<string, number>();
  lines.forEach((line, index) => {
    if (line !== 'failures:' || !/^ {4}\S/.test(lines[index + 1] ?? '')) return;
    for (let next = index + 1; /^ {4}\S.*$/.test(lines[next] ?? ''); next++)
      if (!order.has((lines[next] as string).trim())) order.set((lines[next] as string).trim(), order.size);
  });
  return order;
}

/** The panic message follows `thread 'x' panicked at file:line:col:` (older Rust: `…panicked at 'msg', file:line:col`). */
function failureOf(testId: string, body: string[]): ParsedFailure {
  const panicAt = body.findIndex((line) => /^thread '.*' (\(\d+\) )?panicked at /.test(line));
  if (panicAt === -1) return { testId, message: firstLines(body.join('\n')), detail: body.join('\n') };
  const old = /panicked at '(.*)', \S+$/.exec(body[panicAt] as string);
  const rest = body.slice(panicAt + 1);
  const end = rest.findIndex((text) => /^(note: |stack backtrace:)/.test(text));
  const message = old ? (old[1] as string) : (end === -1 ? rest : rest.slice(0, end)).join('\n');
  return { testId, message: firstLines(message), detail: body.join('\n') };
}
