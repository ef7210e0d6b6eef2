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

const CLOSING = [
  /^=+ .*\b(passed|failed|errors?|skipped|xfailed|xpassed|deselected|no tests ran)\b.* in [\d.]+s/,
  /^\d+ (passed|failed|errors?|skipped|xfailed|deselected)\b.* in [\d.]+s/,
  /^no tests ran in [\d.]+s/,
];
const SHORT = /^(FAILED|ERROR) (\S+)(?: - (.*))?$/;
const SECTION = /^_{3,} (.+?) _{3,}$/;

/**
 * pytest's text output: the closing `1 failed, 184 passed in 3.25s` line, the short summary's
 * `FAILED id - message` lines (shown by default), and the FAILURES section for each failure's
 * `E` lines and `file:line:` location.
 */
export function parsePytestOutput(output: string): TestOutcome | null {
  const lines = output.split('\n');
  const closing = [...lines].reverse().find((line) => CLOSING.some((pattern) => pattern.test(line)));
  if (!closing) return null;
  const failed = numberIn(closing, /(\d+) failed/) + numberIn(closing, /(\d+) errors?\b/);
  const counts = makeCounts(
    numberIn(closing, /(\d+) passed/) + numberIn(closing, /(\d+) xpassed/),
    failed,
    numberIn(closing, /(\d+) skipped/) + numberIn(closing, /(\d+) xfailed/),
  );
  const sections = failureSections(lines);
  const failures: ParsedFailure[] = [];
  for (const line of lines) {
    const short = SHORT.exec(line);
    if (!short || failures.length >= MAX_FAILURES) continue;
    const testId = short[2] as string;
    const section = sections.find((candidate) => sectionMatches(candidate.title, testId, short[1] === 'ERROR')) ?? null;
    if (section) sections.splice(sections.indexOf(section), 1);
    const errorLines = section?.body.filter((text) => /^E {3}/.test(text)).map((text) => text.slice(4)) ?? [];
    const message = errorLines.length > 0 ? errorLines.join('\n') : (short[3] ?? '');
    failures.push({
      testId,
      message: firstLines(message),
      detail: section?.body.join('\n') ?? '',
      file: testId.split('::')[0] ?? null,
    });
  }
  // Without the short summary (`-rN`), the FAILURES section's titles are all there is.
  if (failures.length === 0)
    for (const section of sections.slice(0, MAX_FAILURES))
      failures.push({
        testId: section.title,
        message: firstLines(
          section.body
            .filter((text) => /^E {3}/.test(text))
            .map((text) => text.slice(4))
            .join('\n'),
        ),
        detail: section.body.join('\n'),
      });
  return {
    runner: 'pytest',
    source: 'text output',
    counts,
    failures,
    summary: [closing.replace(/^=+ | =+$/g, '')],
    tests: namedTests(lines, counts, failures),
  };
}

/** How pytest's words for a result count: xpass as passed, error as failed, xfail as skipped. */
const PYTEST_OUTCOMES: Record<string, TestRecord['outcome']> = {
  PASSED: 'passed',
  XPASS: 'passed',
  FAILED: 'failed',
  ERROR: 'failed',
  SKIPPED: 'skipped',
  XFAIL: 'skipped',
};
/** `-v`: `tests/test_a.py::Class::test_x PASSED   [ 16%]` (a skip or xfail adds its reason in parentheses). */
const VERBOSE_LINE = /^(\S[^ ]*::.*?) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)(?: \(.*\))?(?:\s+\[\s*\d+%\])?\s*$/;
/** `-rA`'s short summary: `PASSED tests/test_a.py::test_x` (skips are listed by place, `SKIPPED [1] file:line: why`, not by id). */
const SUMMARY_LINE = /^(PASSED|FAILED|ERROR|XFAIL|XPASS) (\S+)(?: - .*)?$/;

/**
 * Every test, when pytest printed each one's id: `-v` lines, else `-rA`'s short summary (complete only
 * without skips, which it lists by place). pytest's default `-q` prints dots: no inventory. A test
 * that passed and then errored in teardown is two results in pytest's counts, and two entries here.
 */
function namedTests(
  lines: string[],
  counts: TestOutcome['counts'],
  failures: ParsedFailure[],
): TestRecord[] | undefined {
  const verbose: TestRecord[] = [];
  const summary: TestRecord[] = [];
  for (const line of lines) {
    const test = VERBOSE_LINE.exec(line);
    if (test) verbose.push(pytestRecord(test[1] as string, test[2] as string));
    const listed = test ? null : SUMMARY_LINE.exec(line);
    if (listed) summary.push(pytestRecord(listed[2] as string, listed[1] as string));
  }
  return checkedInventory(verbose, counts, failures) ?? checkedInventory(summary, counts, failures);
}

function pytestRecord(id: string, word: string): TestRecord {
  return { id, outcome: PYTEST_OUTCOMES[word] ?? 'failed', file: id.split('::')[0] ?? null };
}

/** `____ TestClass.test_name ____` blocks of the FAILURES / ERRORS sections. */
function failureSections(lines: string[]): { title: string; body: string[] }[] {
  const sections: { title: string; body: string[] }[] = [];
  let current: { title: string; body: string[] } | null = null;
  for (const line of lines) {
    const head = SECTION.exec(line);
    if (head) {
      current = { title: head[1] as string, body: [] };
      sections.push(current);
    } else if (/^=+ /.test(line)) {
      current = null;
    } else if (current) {
      current.body.push(line);
    }
  }
  return sections;
}

/** `tests/a.py::Class::test[x]` is titled `Class.test[x]`; an error in setup, `ERROR at setup of test`. */
function sectionMatches(title: string, testId: string, isError: boolean): boolean {
  const name = testId.split('::').slice(1).join('.');
  if (isError) return title.endsWith(` of ${name.split('.').at(-1)}`) || title === name;
  return title === name || title === name.split('.').at(-1);
}
