import type { TestRecord } from '../../../../shared/schemas/testInventory';
import {
  checkedInventory,
  dedent,
  firstLines,
  makeCounts,
  MAX_FAILURES,
  type ParsedFailure,
  type TestOutcome,
} from './outcome';

const POINT = /^(\s*)(not )?ok \d+(?: -)?(?: (.*?))?(?:\s+#\s*(SKIP|TODO)\b.*)?$/i;
const SUBTEST = /^(\s*)# Subtest: (.*)$/;
const TOTAL = /^# (tests|pass|fail|skip|skipped|todo|cancelled)\s+(\d+)$/;
/** node-tap's closing tally: `# { total: 6, pass: 2, fail: 2, todo: 1, skip: 1 }`. */
const TAP_TALLY = /^# \{ total: \d+(?:, (?:pass|fail|todo|skip): \d+)* \}$/;

interface Point {
  indent: number;
  ok: boolean;
  name: string;
  directive: 'SKIP' | 'TODO' | null;
  path: string[];
  block: string[];
}

/**
 * TAP (node --test, mocha's tap reporter, tape). Test points at any depth; a point with subtests
 * (node's suites) is not a test. Counts follow the closing `# pass`/`# fail`/`# skipped`/`# todo`
 * lines when the producer wrote them, and the points' `# SKIP`/`# TODO` directives when it did not
 * (mocha counts neither).
 */
export function parseTapOutput(output: string): TestOutcome | null {
  const lines = output.split('\n');
  const totals = new Map<string, number>();
  for (const line of lines) {
    const total = TOTAL.exec(line);
    if (total) totals.set(total[1] as string, (totals.get(total[1] as string) ?? 0) + Number(total[2]));
    if (TAP_TALLY.test(line))
      for (const [, key, value] of line.matchAll(/(total|pass|fail|todo|skip): (\d+)/g))
        totals.set(key === 'total' ? 'tests' : (key as string), Number(value));
  }
  const points = readPoints(lines);
  const isTap = lines.some((line) => /^TAP version \d+/.test(line) || /^1\.\.\d+/.test(line)) && points.length > 0;
  if (!isTap && !(totals.has('tests') && points.length > 0)) return null;
  const isSuite = suiteTest(points);
  const tests = points.filter((point) => !isSuite(point));
  const failing = tests.filter((point) => !point.ok && point.directive !== 'TODO');
  const directiveSkips = tests.filter((point) => point.directive !== null).length;
  // tape counts a `# TODO` point in `# pass`, and prints no skip total: the points say which they were.
  const plainOk = tests.filter((point) => point.ok && point.directive === null).length;
  const directivePoints = tests.filter((point) => point.directive !== null).length;
  const statedPass = totals.get('pass');
  const passed =
    statedPass === undefined ||
    (directivePoints > 0 &&
      !totals.has('skip') &&
      !totals.has('skipped') &&
      !totals.has('todo') &&
      statedPass === plainOk + directivePoints)
      ? plainOk
      : statedPass;
  // ava's `--tap` counts a `not ok … # TODO` point in `# fail` too; the point itself says todo.
  const todoNotOk = tests.filter((point) => !point.ok && point.directive === 'TODO').length;
  const avaTodo = todoNotOk > 0 && !totals.has('todo') && totals.get('fail') === failing.length + todoNotOk;
  const failed = avaTodo ? failing.length : (totals.get('fail') ?? failing.length);
  const skipped =
    totals.has('skipped') || totals.has('skip') || totals.has('todo')
      ? (totals.get('skipped') ?? totals.get('skip') ?? 0) + (totals.get('todo') ?? 0) + (avaTodo ? todoNotOk : 0)
      : directiveSkips;
  const summary = lines.filter((line) => TOTAL.test(line) || TAP_TALLY.test(line));
  const counts = makeCounts(passed, failed, skipped);
  const failures = failing.slice(0, MAX_FAILURES).map(failureOf);
  const records = tests.map((point): TestRecord => ({
    id: point.path.join(' > '),
    outcome: point.directive !== null ? 'skipped' : point.ok ? 'passed' : 'failed',
  }));
  return {
    runner: 'TAP',
    source: 'TAP output',
    counts,
    failures,
    summary,
    tests: checkedInventory(records, counts, failures),
  };
}

function readPoints(lines: string[]): Point[] {
  const points: Point[] = [];
  const subtests: { indent: number; name: string }[] = [];
  let current: Point | null = null;
  for (const line of lines) {
    const subtest = SUBTEST.exec(line);
    if (subtest) {
      const indent = (subtest[1] as string).length;
      while (subtests.length > 0 && (subtests.at(-1) as { indent: number }).indent >= indent) subtests.pop();
      subtests.push({ indent, name: (subtest[2] as string).trim() });
      current = null;
      continue;
    }
    const point = POINT.exec(line);
    if (point) {
      const indent = (point[1] as string).length;
      while (subtests.length > 0 && (subtests.at(-1) as { indent: number }).indent > indent) subtests.pop();
      // node-tap closes each subtest with `# time=12.3ms`, which is not part of its name.
      const name = (point[3] ?? '').replace(/\s+# time=[\d.]+m?s$/, '').trim();
      // node names the subtest first (`# Subtest: x`) and closes it with the point at the same depth.
      const named = subtests.at(-1);
      const parents = subtests.filter((entry) => entry.indent < indent).map((entry) => entry.name);
      if (named && named.indent === indent) subtests.pop();
      current = {
        indent,
        ok: !point[2],
        name,
        directive: (point[4]?.toUpperCase() as Point['directive']) ?? null,
        path: [...parents, name],
        block: [],
      };
      points.push(current);
      continue;
    }
    if (current && (line.startsWith(' '.repeat(current.indent + 1)) || line.trim() === '')) current.block.push(line);
    else if (!/^\s*1\.\.\d+/.test(line)) current = null;
  }
  return points;
}

/**
 * node marks suites with `type: 'suite'`; a point whose path prefixes a deeper-indented point's is one
 * too. The prefixes are indexed once (each with the deepest indent under it), so a suite of tens of
 * thousands of points is not compared pair by pair.
 */
function suiteTest(all: Point[]): (point: Point) => boolean {
  const deepestUnder = new Map<string, number>();
  for (const other of all) {
    for (let length = 1; length < other.path.length; length++) {
      const key = other.path.slice(0, length).join('\0');
      deepestUnder.set(key, Math.max(deepestUnder.get(key) ?? -1, other.indent));
    }
  }
  return (point) =>
    point.block.some((line) => /^\s*type: 'suite'/.test(line)) ||
    (deepestUnder.get(point.path.join('\0')) ?? -1) > point.indent;
}

function failureOf(point: Point): ParsedFailure {
  const block = dedent(point.block.filter((line, index, all) => line.trim() !== '' || index < all.length - 1));
  const yaml = block[0]?.trim() === '---';
  let message: string;
  if (yaml) {
    // node writes `error:`, qunit and ava `message:`; tape and node-tap only the point's name.
    const errorAt = block.findIndex((line) => /^\s*error: /.test(line));
    const keys = ' '.repeat(/^ */.exec(block[1] ?? '')?.[0].length ?? 0);
    const messageAt = block.findIndex((line) => line.startsWith(`${keys}message: `));
    const error = errorAt !== -1 ? yamlValue(block, errorAt) : messageAt !== -1 ? yamlValue(block, messageAt) : '';
    const name = /^\s*name: '?([^'\n]+)'?$/m.exec(block.join('\n'))?.[1];
    const stated = name && error && !error.startsWith(name) ? `${name}: ${error}` : error;
    message = [stated && stated !== 'failed' ? stated : point.name, ...comparison(block, keys)]
      .filter(Boolean)
      .join('\n');
  } else {
    const frameAt = block.findIndex((line) => /^\s+at /.test(line));
    message = (frameAt === -1 ? block : block.slice(0, frameAt)).join('\n');
  }
  return { testId: point.path.join(' > '), message: firstLines(message), detail: block.join('\n') };
}

/** tape's and qunit's `expected:` / `actual:` scalars, as two lines of the message. */
function comparison(block: string[], keys: string): string[] {
  const value = (key: string) =>
    block
      .find((line) => line.startsWith(keys) && new RegExp(`^${keys}${key}\\s*: `).test(line))
      ?.replace(/^\s*\w+\s*: /, '');
  const expected = value('expected');
  const actual = value('actual');
  return expected !== undefined && actual !== undefined ? [`expected: ${expected}`, `actual: ${actual}`] : [];
}

/** A YAML scalar: `error: 'x'` or a `|-` block of deeper lines. */
function yamlValue(block: string[], at: number): string {
  const line = block[at] as string;
  const inline = /^\s*\w+: (.*)$/.exec(line)?.[1] ?? '';
  if (!/^[|>][-+]?$/.test(inline.trim())) return inline.replace(/^'(.*)'$/, '$1').replace(/''/g, "'");
  const indent = /^\s*/.exec(line)?.[0].length ?? 0;
  const body: string[] = [];
  for (let index = at + 1; index < block.length; index++) {
    const next = block[index] as string;
    if (next.trim() !== '' && (/^\s*/.exec(next)?.[0].length ?? 0) <= indent) break;
    body.push(next);
  }
  return dedent(body).join('\n').trim();
}
