import type { TestCounts } from '../../workspace/types';

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
}

/** A parser's failures are capped: the excerpt shows at most a few dozen, the log has them all. */
export const MAX_FAILURES = 200;

export function makeCounts(passed: number, failed: number, skipped: number, total?: number): TestCounts {
  return { passed, failed, skipped, total: total ?? passed + failed + skipped };
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
  };
}
