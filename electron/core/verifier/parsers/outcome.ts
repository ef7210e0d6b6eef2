import type { TestRecord } from '../../../../shared/schemas/testInventory';
import type { TestCounts } from '../types';

/** One failing test as a parser found it: its id, the error's first lines, and the text its stack frames are read from. */
export interface ParsedFailure {
  testId: string;
  message: string;
  /** The failure's whole text (message, stack, captured output): frames inside the repository are read from it. */
  detail: string;
  /** The test's file when the runner names it (vitest, pytest ids), used when no frame is inside the repository. */
  file?: string | null;
}

/** What one runner reported: counts as the runner counts them, failures in its order, and its own summary lines. */
export interface TestOutcome {
  /** The runner the results came from: `mocha`, `pytest`, `go test`, … (`a + b` when one output held two). */
  runner: string;
  /** What was read: `JUnit XML`, `jest JSON`, `spec output`, … */
  source: string;
  counts: TestCounts;
  failures: ParsedFailure[];
  /** The runner's own closing lines (counts, timing), verbatim. */
  summary: string[];
  /**
   * Every test the runner named, in its order, ids as `failures` names them; absent when its output
   * names only failures or counts. Never a partial list: it adds up to `counts`, outcome by outcome.
   */
  tests?: TestRecord[];
}

/** A parser's failures are capped: the excerpt shows at most a few dozen, the log has them all. */
export const MAX_FAILURES = 200;

export function makeCounts(passed: number, failed: number, skipped: number, total?: number): TestCounts {
  return { passed, failed, skipped, total: total ?? passed + failed + skipped };
}

/**
 * The inventory when it holds exactly the tests the counts do, outcome by outcome; else undefined.
 * A text parser sees test lines among whatever else the run printed, so a list that does not add up
 * (a reporter that names only failures, a test's own output looking like a test line) is left out
 * rather than passed on as the whole suite.
 */
export function completeInventory(tests: TestRecord[], counts: TestCounts): TestRecord[] | undefined {
  if (tests.length !== counts.total) return undefined;
  const tally = { passed: 0, failed: 0, skipped: 0 };
  for (const test of tests) tally[test.outcome]++;
  return tally.passed === counts.passed && tally.failed === counts.failed && tally.skipped === counts.skipped
    ? tests
    : undefined;
}

/**
 * A text parser's inventory, when it is one: complete (above), and every failed test in it named as
 * one of the failures the same output describes, so an inventory id and a failure id always match.
 * Past MAX_FAILURES the failures are cut, and only the counts can be checked.
 */
export function checkedInventory(
  tests: TestRecord[],
  counts: TestCounts,
  failures: ParsedFailure[],
): TestRecord[] | undefined {
  const complete = completeInventory(tests, counts);
  if (!complete || failures.length >= MAX_FAILURES) return complete;
  const named = new Set(failures.map((failure) => failure.testId));
  return complete.every((test) => test.outcome !== 'failed' || named.has(test.id)) ? complete : undefined;
}

/* eslint-disable no-control-regex -- ANSI colour codes are control characters by definition */
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
/* eslint-enable no-control-regex */

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '').replace(/\r\n?/g, '\n');
}

/** The first lines of an error message: enough to read it, short enough for a summary. */
export function firstLines(message: string, maxChars = 500, maxLines = 6): string {
  const lines = message
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line, index, all) => line !== '' || (index > 0 && all[index - 1] !== ''))
    .slice(0, maxLines)
    .join('\n')
    .trim();
  return lines.length > maxChars ? `${lines.slice(0, maxChars - 1)}…` : lines;
}

/** Removes the smallest common indentation of the non-blank lines. */
export function dedent(lines: string[]): string[] {
  const indents = lines.filter((line) => line.trim()).map((line) => /^\s*/.exec(line)?.[0].length ?? 0);
  const common = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((line) => line.slice(Math.min(common, /^\s*/.exec(line)?.[0].length ?? 0)));
}

export function numberIn(text: string, pattern: RegExp): number {
  const match = pattern.exec(text);
  return match ? Number(match[1]) : 0;
}

/** Sums several runs' results (one output holding two runners, or one runner run twice). */
export function combineOutcomes(outcomes: TestOutcome[]): TestOutcome | null {
  if (outcomes.length === 0) return null;
  if (outcomes.length === 1) return outcomes[0] as TestOutcome;
  const sum = (key: keyof TestCounts) => outcomes.reduce((total, outcome) => total + outcome.counts[key], 0);
  return {
    runner: [...new Set(outcomes.map((outcome) => outcome.runner))].join(' + '),
    source: [...new Set(outcomes.map((outcome) => outcome.source))].join(' + '),
    counts: { passed: sum('passed'), failed: sum('failed'), skipped: sum('skipped'), total: sum('total') },
    failures: outcomes.flatMap((outcome) => outcome.failures).slice(0, MAX_FAILURES),
    summary: outcomes.flatMap((outcome) => outcome.summary),
    // One part without an inventory makes the whole one partial.
    tests: outcomes.every((outcome) => outcome.tests) ? outcomes.flatMap((outcome) => outcome.tests ?? []) : undefined,
  };
}
