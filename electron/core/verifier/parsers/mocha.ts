import type { TestRecord } from '../../../../shared/schemas/testInventory';
import {
  completeInventory,
  dedent,
  firstLines,
  makeCounts,
  MAX_FAILURES,
  numberIn,
  type ParsedFailure,
  type TestOutcome,
} from './outcome';
import { indentOf, testsFromTree, type TreeLine } from './titleTree';

/** Mocha's epilogue (spec, dot, list, min reporters): `  12 passing (30ms)`, then pending and failing counts. */
const PASSING = /^ {2}(\d+) passing \((\d+(?:\.\d+)?(?:ms|s|m|h))\)\s*$/;
const FAILURE_HEAD = /^ {2}(\d+)\) (.*)$/;
const FRAME = /^\s+at /;

/**
 * Mocha's text output. The epilogue gives the counts and then each failure: `  1) suite` with the
 * rest of the title on deeper lines up to the one ending in `:`, then the error and its stack.
 * An output with several mocha runs (`mocha a && mocha b`) gives their sum. The spec reporter's tree
 * above each epilogue names every test.
 */
export function parseMochaOutput(output: string): TestOutcome | null {
  const lines = output.split('\n');
  const runs: TestOutcome[] = [];
  let treeStart = 0;
  for (let index = 0; index < lines.length; index++) {
    if (PASSING.test(lines[index] as string)) {
      const run = readEpilogue(lines, index);
      runs.push({ ...run.outcome, tests: specTests(lines.slice(treeStart, index), run.outcome) });
      index = run.end - 1;
      treeStart = run.bodyStart;
    }
  }
  if (runs.length === 0) return null;
  const sum = (key: 'passed' | 'failed' | 'skipped') => runs.reduce((total, run) => total + run.counts[key], 0);
  return {
    runner: 'mocha',
    source: 'spec output',
    counts: makeCounts(sum('passed'), sum('failed'), sum('skipped')),
    failures: runs.flatMap((run) => run.failures).slice(0, MAX_FAILURES),
    summary: runs.flatMap((run) => run.summary),
    tests: runs.every((run) => run.tests) ? runs.flatMap((run) => run.tests ?? []) : undefined,
  };
}

const SPEC_PASSED = /^( +)(?:✓|✔|√) (.*?)(?: \(\d+ms\))?$/;
const SPEC_PENDING = /^( +)- (.*)$/;
const SPEC_FAILED = /^( +)\d+\) (.*)$/;
const LIST_DURATION = /: \d+ms$/;

/**
 * Every test of one run from the spec reporter's tree: `✔ title` (passed, `(12ms)` when slow),
 * `- title` (pending), `N) title` (failed, a failing hook too, as mocha counts it) under indented
 * suite titles; the root suite's title is empty, so every tree line is indented and unindented lines
 * (npm's banner, a build's output) are not part of it. Kept only when it adds up to the run's counts
 * and its failures are the epilogue's, in order: other reporters (dot, min) print no tree, and a
 * test's own output can look like one. The list reporter's lines (full titles) are read too.
 */
function specTests(lines: string[], run: TestOutcome): TestRecord[] | undefined {
  const tree: TreeLine[] = [];
  for (const line of lines) {
    if (!line.startsWith(' ') || line.trim() === '') continue;
    const passed = SPEC_PASSED.exec(line);
    const pending = passed ? null : SPEC_PENDING.exec(line);
    const failed = passed || pending ? null : SPEC_FAILED.exec(line);
    const test = passed ?? pending ?? failed;
    const outcome = passed ? 'passed' : pending ? 'skipped' : failed ? 'failed' : null;
    tree.push({
      indent: test ? (test[1] as string).length : indentOf(line),
      title: test ? (test[2] as string) : line.trim(),
      outcome,
    });
  }
  // The list reporter prints full titles, every test at the top level, a passing one as `✓ title: 3ms`.
  const testLines = tree.filter((line) => line.outcome !== null);
  const passing = testLines.filter((line) => line.outcome === 'passed');
  if (
    passing.length > 0 &&
    testLines.every((line) => line.indent === 2) &&
    passing.every((line) => LIST_DURATION.test(line.title))
  ) {
    for (const line of passing) line.title = line.title.replace(LIST_DURATION, '');
  }
  const tests = completeInventory(testsFromTree(tree, ' '), run.counts);
  const failedIds = tests?.filter((test) => test.outcome === 'failed').map((test) => test.id) ?? [];
  return tests && run.failures.every((failure, index) => failure.testId === failedIds[index]) ? tests : undefined;
}

/**
 * `end`: where reading stopped (the next run's `N passing`, or the end). `bodyStart`: the line after
 * the summary or the last failure's head, where the next run's tree is looked for: the last failure's
 * body runs on into that tree, and its lines, indented deeper than a tree's first line, are suite
 * titles to the tree reader that the tree's first line closes.
 */
function readEpilogue(lines: string[], start: number): { outcome: TestOutcome; end: number; bodyStart: number } {
  const summary = [lines[start] as string];
  let index = start + 1;
  while (index < lines.length && /^ {2}\d+ (pending|failing)\s*$/.test(lines[index] as string))
    summary.push(lines[index++] as string);
  let bodyStart = index;
  const text = summary.join('\n');
  const failing = numberIn(text, /(\d+) failing/);
  const failures: ParsedFailure[] = [];
  let expected = 1;
  while (index < lines.length && expected <= failing) {
    const head = FAILURE_HEAD.exec(lines[index] as string);
    if (!head || Number(head[1]) !== expected) {
      if (PASSING.test(lines[index] as string)) break;
      index++;
      continue;
    }
    const block: string[] = [];
    index++;
    bodyStart = index;
    while (
      index < lines.length &&
      !isNextFailure(lines[index] as string, expected + 1) &&
      !PASSING.test(lines[index] as string)
    )
      block.push(lines[index++] as string);
    failures.push(failureOf(head[2] as string, block));
    expected++;
  }
  return {
    outcome: {
      runner: 'mocha',
      source: 'spec output',
      counts: makeCounts(numberIn(text, /(\d+) passing/), failing, numberIn(text, /(\d+) pending/)),
      failures,
      summary: summary.map((line) => line.trim()),
    },
    end: index,
    bodyStart,
  };
}

function isNextFailure(line: string, number: number): boolean {
  const head = FAILURE_HEAD.exec(line);
  return head !== null && Number(head[1]) === number;
}

/** The title runs from the head line to the first line ending in `:`; the error follows. */
function failureOf(firstTitleLine: string, block: string[]): ParsedFailure {
  const title = [firstTitleLine.trim()];
  let at = 0;
  if (!firstTitleLine.trimEnd().endsWith(':')) {
    while (at < block.length && (block[at] as string).trim() !== '') {
      const part = (block[at] as string).trim();
      title.push(part);
      at++;
      if (part.endsWith(':')) break;
    }
  }
  const testId = title.join(' ').replace(/:$/, '');
  const body = dedent(block.slice(at));
  const frameAt = body.findIndex((line) => FRAME.test(line));
  const messageLines = frameAt === -1 ? body : body.slice(0, frameAt);
  return { testId, message: firstLines(messageLines.join('\n')), detail: body.join('\n') };
}
