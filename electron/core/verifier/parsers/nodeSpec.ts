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

const TOTAL = /^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) [\d.]+$/;
const ENTRY = /^(\s*)(▶|✔|✖|﹣|#) (.+?)(?: \([\d.]+m?s\))?(?: # (SKIP|TODO))?$/;

/**
 * node --test's spec reporter: `ℹ tests N` … totals, and the tree of `▶ suite` / `✖ test (1ms)`
 * lines, each failure followed by its error indented below it.
 */
export function parseNodeSpecOutput(output: string): TestOutcome | null {
  const lines = output.split('\n');
  const summary = lines.filter((line) => TOTAL.test(line));
  if (!summary.some((line) => line.startsWith('ℹ tests '))) return null;
  const text = summary.join('\n');
  const skipped = numberIn(text, /^ℹ skipped (\d+)$/m) + numberIn(text, /^ℹ todo (\d+)$/m);
  const counts = makeCounts(
    numberIn(text, /^ℹ pass (\d+)$/m),
    numberIn(text, /^ℹ fail (\d+)$/m) + numberIn(text, /^ℹ cancelled (\d+)$/m),
    skipped,
    numberIn(text, /^ℹ tests (\d+)$/m),
  );
  const tree = readTree(lines);
  const failures = tree.failures.slice(0, MAX_FAILURES);
  return {
    runner: 'node:test',
    source: 'spec output',
    counts,
    failures,
    summary,
    tests: checkedInventory(tree.tests, counts, failures),
  };
}

/**
 * The tree (before the totals): every test named by its suite path, and the failures; a suite's own
 * `✖` closes it. A test is skipped when marked `﹣` or `# SKIP`/`# TODO` (node counts todo apart from
 * pass and fail), failed when `✖`. The error comes from below the tree entry, or from the closing
 * "failing tests" list when the tree has none (newer node prints errors only there).
 */
function readTree(lines: string[]): { tests: TestRecord[]; failures: ParsedFailure[] } {
  const failures: ParsedFailure[] = [];
  const tests: TestRecord[] = [];
  const suites: { indent: number; name: string }[] = [];
  const listed = failingTestsList(lines);
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (TOTAL.test(line)) break;
    const entry = ENTRY.exec(line);
    if (!entry) continue;
    const indent = (entry[1] as string).length;
    const name = (entry[3] as string).trim();
    while (suites.length > 0 && (suites.at(-1) as { indent: number }).indent > indent) suites.pop();
    const closing = suites.at(-1);
    if (closing && closing.indent === indent) {
      suites.pop();
      if (closing.name === name) continue;
    }
    if (entry[2] === '▶') {
      suites.push({ indent, name });
      continue;
    }
    if (entry[2] === '#') continue;
    const testId = [...suites.map((suite) => suite.name), name].join(' > ');
    tests.push({
      id: testId,
      outcome: entry[2] === '﹣' || entry[4] ? 'skipped' : entry[2] === '✖' ? 'failed' : 'passed',
    });
    if (entry[2] !== '✖') continue;
    let body = blockBelow(lines, index, indent);
    if (body.every((text) => text.trim() === '')) {
      const at = listed.findIndex((item) => item.name === name);
      if (at !== -1) body = (listed.splice(at, 1)[0] as { body: string[] }).body;
    }
    const frameAt = body.findIndex((text) => /^\s+at /.test(text));
    const message = frameAt === -1 ? body.join('\n') : body.slice(0, frameAt).join('\n');
    failures.push({ testId, message: firstLines(message), detail: body.join('\n') });
  }
  return { tests, failures };
}

/** The lines indented below entry `index`, up to the next entry. */
function blockBelow(lines: string[], index: number, indent: number): string[] {
  const block: string[] = [];
  let next = index + 1;
  while (
    next < lines.length &&
    ((lines[next] as string).trim() === '' || (/^\s*/.exec(lines[next] as string)?.[0].length ?? 0) > indent) &&
    !ENTRY.test(lines[next] as string)
  )
    block.push(lines[next++] as string);
  return dedent(block);
}

/** The "✖ failing tests:" list after the totals: each `✖ name` with its error below. */
function failingTestsList(lines: string[]): { name: string; body: string[] }[] {
  const start = lines.findIndex((line) => line.trim() === '✖ failing tests:');
  if (start === -1) return [];
  const listed: { name: string; body: string[] }[] = [];
  for (let index = start + 1; index < lines.length; index++) {
    const entry = ENTRY.exec(lines[index] as string);
    if (entry?.[2] === '✖')
      listed.push({ name: (entry[3] as string).trim(), body: blockBelow(lines, index, (entry[1] as string).length) });
  }
  return listed;
}
