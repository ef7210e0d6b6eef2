import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { TestCounts } from '../../verifier/types';

/**
 * What a runner reports through its own structured reporter, read as plainly as possible and
 * independently of the Verifier's parsers: the yardstick the parity table and tests hold Lathe to.
 */
export interface ReferenceResult {
  counts: TestCounts;
  firstFailure: { testId: string; message: string; file: string | null } | null;
  /** Every failure in the report's order: its name and its message's first line. */
  failures: { testId: string; message: string }[];
  /** Every test the report lists, named as its failures are, with how it ended (pending, todo and xfail as skipped). */
  tests: { testId: string; outcome: 'passed' | 'failed' | 'skipped' }[];
}

type Json = Record<string, unknown>;
const asArray = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const asString = (value: unknown): string => (typeof value === 'string' ? value : '');
const relative = (file: string, repoDir: string | null) =>
  repoDir && path.isAbsolute(file) ? path.relative(repoDir, file) : file;
const total = (counts: Omit<TestCounts, 'total'>): TestCounts => ({
  ...counts,
  total: counts.passed + counts.failed + counts.skipped,
});

/** Mocha's `--reporter json` object; mocha writes it to stdout after whatever the tests printed. */
export function mochaJsonReference(stdout: string, repoDir: string | null): ReferenceResult {
  const start = stdout.lastIndexOf('{\n  "stats": {');
  if (start === -1) throw new Error('no mocha JSON report in the output');
  const report = JSON.parse(stdout.slice(start)) as Json;
  const stats = report.stats as Json;
  const failures = asArray(report.failures);
  const failure = failures[0];
  return {
    counts: total({ passed: Number(stats.passes), failed: Number(stats.failures), skipped: Number(stats.pending) }),
    firstFailure: failure
      ? {
          testId: asString(failure.fullTitle),
          message: asString((failure.err as Json | undefined)?.message),
          file: failure.file ? relative(asString(failure.file), repoDir) : null,
        }
      : null,
    failures: failures.map((item) => ({
      testId: asString(item.fullTitle),
      message: asString((item.err as Json | undefined)?.message).split('\n')[0] ?? '',
    })),
    // A failed hook is in `failures` only, and counted there, as mocha counts it.
    tests: [
      ...asArray(report.passes).map((item) => ({ testId: asString(item.fullTitle), outcome: 'passed' as const })),
      ...failures.map((item) => ({ testId: asString(item.fullTitle), outcome: 'failed' as const })),
      ...asArray(report.pending).map((item) => ({ testId: asString(item.fullTitle), outcome: 'skipped' as const })),
    ],
  };
}

/** `jest --json --outputFile`: its own totals, the first failed assertion in file order. */
export function jestJsonReference(json: string, repoDir: string | null): ReferenceResult {
  const report = JSON.parse(json) as Json;
  const counts: TestCounts = {
    passed: Number(report.numPassedTests),
    failed: Number(report.numFailedTests),
    skipped: Number(report.numPendingTests) + Number(report.numTodoTests ?? 0),
    total: Number(report.numTotalTests),
  };
  const failures = asArray(report.testResults).flatMap((file) =>
    asArray(file.assertionResults)
      .filter((result) => result.status === 'failed')
      .map((failed) => ({
        testId: [...(failed.ancestorTitles as string[]), asString(failed.title)].join(' › '),
        message: firstMessageLine(failed),
        file: relative(asString(file.name), repoDir),
      })),
  );
  const tests = asArray(report.testResults).flatMap((file) =>
    asArray(file.assertionResults).map((result) => ({
      testId: [...(result.ancestorTitles as string[]), asString(result.title)].join(' › '),
      outcome: outcomeOfStatus(result.status),
    })),
  );
  return {
    counts,
    firstFailure: failures[0] ?? null,
    failures: failures.map(({ testId, message }) => ({ testId, message })),
    tests,
  };
}

/** jest's and vitest's assertion statuses: anything but passed or failed is pending, skipped or todo. */
function outcomeOfStatus(status: unknown): ReferenceResult['tests'][number]['outcome'] {
  return status === 'passed' ? 'passed' : status === 'failed' ? 'failed' : 'skipped';
}

const firstMessageLine = (result: Json) =>
  (asArray(result.failureMessages) as unknown as string[]).map(String)[0]?.split('\n')[0] ?? '';

/** vitest's `--reporter=json` (jest's shape): a test is named `file > suite > test`, as vitest prints it (vitest 1 lists the file's own unnamed suite as an empty title). */
export function vitestJsonReference(json: string, repoDir: string | null): ReferenceResult {
  const report = JSON.parse(json) as Json;
  const counts: TestCounts = {
    passed: Number(report.numPassedTests),
    failed: Number(report.numFailedTests),
    skipped: Number(report.numPendingTests) + Number(report.numTodoTests ?? 0),
    total: Number(report.numTotalTests),
  };
  const failures = asArray(report.testResults).flatMap((file) => {
    const name = relative(asString(file.name), repoDir);
    return asArray(file.assertionResults)
      .filter((result) => result.status === 'failed')
      .map((failed) => ({
        testId: [name, ...(failed.ancestorTitles as string[]).filter(Boolean), asString(failed.title)].join(' > '),
        message: firstMessageLine(failed),
        file: name,
      }));
  });
  const tests = asArray(report.testResults).flatMap((file) => {
    const name = relative(asString(file.name), repoDir);
    return asArray(file.assertionResults).map((result) => ({
      testId: [name, ...(result.ancestorTitles as string[]).filter(Boolean), asString(result.title)].join(' > '),
      outcome: outcomeOfStatus(result.status),
    }));
  });
  return {
    counts,
    firstFailure: failures[0] ?? null,
    failures: failures.map(({ testId, message }) => ({ testId, message })),
    tests,
  };
}

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  htmlEntities: true,
  isArray: (name) => ['testsuite', 'testcase', 'failure', 'error', 'skipped'].includes(name),
});

/**
 * JUnit XML as pytest and node --test write it. pytest names a test `classname.name` (dotted); node
 * nests suites, named here by their path (`outer > inner > test`).
 */
export function junitReference(text: string, style: 'pytest' | 'node' | 'playwright'): ReferenceResult {
  const root = xml.parse(text) as Json;
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const failures: ReferenceResult['failures'] = [];
  const tests: ReferenceResult['tests'] = [];
  const visit = (node: Json, suites: string[]) => {
    for (const testCase of asArray(node.testcase)) {
      const failure = asArray(testCase.failure)[0] ?? asArray(testCase.error)[0];
      // playwright: the name is already the `describe › test` path, the classname its file.
      const name =
        style === 'pytest'
          ? `${asString(testCase.classname)}.${asString(testCase.name)}`
          : style === 'playwright'
            ? asString(testCase.name)
            : [...suites, asString(testCase.name)].join(' > ');
      if (failure) {
        counts.failed++;
        // nose2 writes `test failure` as every failure's message: the traceback's last line is the error.
        const stated = asString(failure.message);
        const body = asString(failure['#text']).trim().split('\n');
        failures.push({
          testId: name,
          message: (stated === 'test failure' ? (body.at(-1) ?? '') : stated).split('\n')[0] ?? '',
        });
      } else if (testCase.skipped) counts.skipped++;
      else counts.passed++;
      tests.push({ testId: name, outcome: failure ? 'failed' : testCase.skipped ? 'skipped' : 'passed' });
    }
    for (const suite of asArray(node.testsuite))
      visit(suite, style === 'node' ? [...suites, asString(suite.name)] : suites);
  };
  const top = (root.testsuites as Json | undefined) ?? root;
  visit(top, []);
  return { counts: total(counts), firstFailure: failures[0] ? { ...failures[0], file: null } : null, failures, tests };
}

/** `go test -json` events: one result per leaf test (a test that ran subtests is their group). */
export function goJsonReference(stdout: string): ReferenceResult {
  const results: { test: string; action: string; output: string[] }[] = [];
  const output = new Map<string, string[]>();
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const event = JSON.parse(line) as { Action: string; Test?: string; Output?: string };
    if (!event.Test) continue;
    if (event.Action === 'output')
      output.set(event.Test, [...(output.get(event.Test) ?? []), (event.Output ?? '').trim()]);
    if (['pass', 'fail', 'skip'].includes(event.Action))
      results.push({ test: event.Test, action: event.Action, output: [] });
  }
  const leaves = results.filter((result) => !results.some((other) => other.test.startsWith(`${result.test}/`)));
  const count = (action: string) => leaves.filter((leaf) => leaf.action === action).length;
  const failures = leaves
    .filter((leaf) => leaf.action === 'fail')
    .map((leaf) => ({
      testId: leaf.test,
      message: (output.get(leaf.test) ?? []).find((line) => line && !/^(=== |--- )/.test(line)) ?? '',
    }));
  const tests = leaves.map((leaf) => ({
    testId: leaf.test,
    outcome:
      leaf.action === 'pass'
        ? ('passed' as const)
        : leaf.action === 'fail'
          ? ('failed' as const)
          : ('skipped' as const),
  }));
  return {
    counts: total({ passed: count('pass'), failed: count('fail'), skipped: count('skip') }),
    firstFailure: failures[0] ? { ...failures[0], file: null } : null,
    failures,
    tests,
  };
}

/**
 * A TAP stream (tape, qunit, ava --tap, node-tap): every test point that holds no deeper points,
 * named by its `# Subtest:` path; `# SKIP` and `# TODO` points are skipped, whatever `ok` says (TAP
 * counts a todo's `not ok` as no failure). The message is the YAML `message:`, else the point's name.
 */
export function tapReference(text: string): ReferenceResult {
  const points: { depth: number; path: string[]; ok: boolean; directive: boolean; message: string }[] = [];
  const open: { depth: number; name: string }[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    const depth = /^ */.exec(line)?.[0].length ?? 0;
    const subtest = /^ *# Subtest: (.*)$/.exec(line);
    if (subtest) {
      while (open.length > 0 && (open.at(-1)?.depth ?? -1) >= depth) open.pop();
      open.push({ depth, name: (subtest[1] ?? '').trim() });
      return;
    }
    const point = /^ *(not )?ok \d+(?: -)? ?(.*?)(?: # time=\S+)?(?:\s+# (SKIP|TODO)\b.*)?$/i.exec(line);
    if (!point) return;
    while (open.length > 0 && (open.at(-1)?.depth ?? -1) > depth) open.pop();
    const name = (point[2] ?? '').trim();
    const parents = open.filter((entry) => entry.depth < depth).map((entry) => entry.name);
    if (open.at(-1)?.depth === depth) open.pop();
    const yaml = lines.slice(index + 1, index + 40);
    const end = yaml.findIndex((next) => /^ *\.\.\.$/.test(next));
    // No `message:` (tape, node-tap): the point's name is the assertion's message; qunit's `failed` says nothing.
    const stated = yaml
      .slice(0, end === -1 ? 0 : end)
      .find((next) => /^ *message: /.test(next))
      ?.replace(/^ *message: /, '')
      .replace(/^'(.*)'$/, '$1')
      .replace(/^[|>][-+]?$/, '');
    points.push({
      depth,
      path: [...parents, name],
      ok: !point[1],
      directive: Boolean(point[3]),
      message: stated === undefined || stated === 'failed' ? name : stated,
    });
  });
  const leaves = points.filter(
    (point) =>
      !points.some(
        (other) =>
          other.depth > point.depth &&
          other.path.length > point.path.length &&
          point.path.every((part, at) => other.path[at] === part),
      ),
  );
  const outcome = (point: (typeof points)[number]) =>
    point.directive ? ('skipped' as const) : point.ok ? ('passed' as const) : ('failed' as const);
  const failures = leaves
    .filter((point) => outcome(point) === 'failed')
    .map((point) => ({ testId: point.path.join(' > '), message: point.message.split('\n')[0] ?? '' }));
  const count = (which: ReturnType<typeof outcome>) => leaves.filter((point) => outcome(point) === which).length;
  return {
    counts: total({ passed: count('passed'), failed: count('failed'), skipped: count('skipped') }),
    firstFailure: failures[0] ? { ...failures[0], file: null } : null,
    failures,
    tests: leaves.map((point) => ({ testId: point.path.join(' > '), outcome: outcome(point) })),
  };
}

/** The specs a jasmine reporter saw (`{ fullName, status, message }`): pending and excluded specs are skipped. */
export function jasmineReference(json: string): ReferenceResult {
  const specs = JSON.parse(json) as { fullName: string; status: string; message: string }[];
  const outcome = (status: string) =>
    status === 'passed' ? ('passed' as const) : status === 'failed' ? ('failed' as const) : ('skipped' as const);
  const failures = specs
    .filter((spec) => spec.status === 'failed')
    .map((spec) => ({ testId: spec.fullName, message: spec.message.split('\n')[0] ?? '' }));
  const count = (which: ReturnType<typeof outcome>) => specs.filter((spec) => outcome(spec.status) === which).length;
  return {
    counts: total({ passed: count('passed'), failed: count('failed'), skipped: count('skipped') }),
    firstFailure: failures[0] ? { ...failures[0], file: null } : null,
    failures,
    tests: specs.map((spec) => ({ testId: spec.fullName, outcome: outcome(spec.status) })),
  };
}
