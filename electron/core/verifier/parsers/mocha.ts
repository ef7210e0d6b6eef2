import { dedent, firstLines, makeCounts, MAX_FAILURES, numberIn, type ParsedFailure, type TestOutcome } from './outcome';

/** Mocha's epilogue (spec, dot, list, min reporters): `  12 passing (30ms)`, then pending and failing counts. */
const PASSING = /^ {2}(\d+) passing \((\d+(?:\.\d+)?(?:ms|s|m|h))\)\s*$/;
const FAILURE_HEAD = /^ {2}(\d+)\) (.*)$/;
const FRAME = /^\s+at /;

/**
 * Mocha's text output. The epilogue gives the counts and then each failure: `  1) suite` with the
 * rest of the title on deeper lines up to the one ending in `:`, then the error and its stack.
 * An output with several mocha runs (`mocha a && mocha b`) gives their sum.
 */
export function parseMochaOutput(output: string): TestOutcome | null {
  const lines = output.split('\n');
  const runs: TestOutcome[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (PASSING.test(lines[index] as string)) {
      const run = readEpilogue(lines, index);
      runs.push(run.outcome);
      index = run.end - 1;
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
  };
}

function readEpilogue(lines: string[], start: number): { outcome: TestOutcome; end: number } {
  const summary = [lines[start] as string];
  let index = start + 1;
  while (index < lines.length && /^ {2}\d+ (pending|failing)\s*$/.test(lines[index] as string)) summary.push(lines[index++] as string);
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
    while (index < lines.length && !isNextFailure(lines[index] as string, expected + 1) && !PASSING.test(lines[index] as string)) block.push(lines[index++] as string);
    failures.push(failureOf(head[2] as string, block));
    expected++;
  }
  return { outcome: { runner: 'mocha', source: 'spec output', counts: makeCounts(numberIn(text, /(\d+) passing/), failing, numberIn(text, /(\d+) pending/)), failures, summary: summary.map((line) => line.trim()) }, end: index };
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
