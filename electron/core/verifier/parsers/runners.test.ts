import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TestRecord } from '../../../../shared/schemas/testInventory';
import { writeRunnerSuite, writeWeakenedRunnerSuite, type RunnerSuite } from '../../../../test-support/runnerSuites';
import { makeTempDir } from '../../../../test-support/tempRepo';
import { sourceAppRoot } from '../../appRoot';
import { compareWithReference, inventoryLines, type IdStyle } from '../../eval/parity/compare';
import {
  goJsonReference,
  jestJsonReference,
  junitReference,
  mochaJsonReference,
  vitestJsonReference,
  type ReferenceResult,
} from '../../eval/parity/referenceReports';
import { failureViews } from '../excerpt';
import { parseJUnit } from '../junit';
import { prepareCommand } from '../runnerFlags';
import { parseSummaryLines } from '../summaryLines';
import { parseJestJson } from './jest';
import type { TestOutcome } from './outcome';

/*
 * Each runner runs a real suite (pass, assertion failure, thrown error, skip, pending/todo, nested
 * describes); Lathe's reading of its text output is held to what the runner reports through its own
 * structured reporter. unittest and cargo have none: their closing line and the suite's contents are
 * the yardstick.
 */

const appRoot = sourceAppRoot();
const bin = (name: string) => path.join(appRoot, 'node_modules', '.bin', name);
const scratch = makeTempDir('lathe-runners-');
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** The same clean environment the Verifier gives a run. */
const ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: scratch,
  LANG: 'C.UTF-8',
  CI: 'true',
  NO_COLOR: '1',
  FORCE_COLOR: '0',
  PYTHONDONTWRITEBYTECODE: '1',
  RUST_BACKTRACE: '0',
  GOCACHE: path.join(scratch, 'gocache'),
  GOFLAGS: '-count=1',
  CARGO_TARGET_DIR: path.join(scratch, 'cargo-target'),
  // rustup's cargo finds its toolchain through these, not through PATH.
  RUSTUP_HOME: process.env.RUSTUP_HOME ?? path.join(os.homedir(), '.rustup'),
  CARGO_HOME: process.env.CARGO_HOME ?? path.join(os.homedir(), '.cargo'),
};
/** Debian's python3 with python3-pytest, as the house rules and the corpus use. */
const PYTHON = '/usr/bin/python3';

function suite(name: RunnerSuite, withNodeModules = false): string {
  return writeRunnerSuite(
    fs.mkdtempSync(path.join(scratch, `${name}-`)),
    name,
    withNodeModules ? path.join(appRoot, 'node_modules') : undefined,
  );
}

/** The suite with its top-level passing test renamed and its throwing test deleted (WEAKENED_EDITS). */
function weakenedSuite(name: RunnerSuite, withNodeModules = false): string {
  return writeWeakenedRunnerSuite(
    fs.mkdtempSync(path.join(scratch, `${name}-weakened-`)),
    name,
    withNodeModules ? path.join(appRoot, 'node_modules') : undefined,
  );
}

/** Runs a command with stdout and stderr into one stream, in order, as the Verifier captures them. */
function run(dir: string, argv: string[]): { code: number | null; output: string } {
  const file = path.join(dir, `.out-${Math.random().toString(36).slice(2)}`);
  const fd = fs.openSync(file, 'w');
  try {
    const result = spawnSync(argv[0] as string, argv.slice(1), {
      cwd: dir,
      env: ENV,
      stdio: ['ignore', fd, fd],
      timeout: 120_000,
    });
    return { code: result.status, output: fs.readFileSync(file, 'utf8') };
  } finally {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
  }
}

const has = (command: string, ...args: string[]) =>
  spawnSync(command, args.length > 0 ? args : ['--version'], { stdio: 'ignore' }).status === 0;

function expectParity(
  outcome: TestOutcome | null,
  reference: ReferenceResult,
  dir: string,
  idStyle: IdStyle = 'exact',
) {
  expect(outcome, 'Lathe read no results').not.toBeNull();
  const first = failureViews(outcome, dir)[0] ?? null;
  expect(outcome?.counts).toEqual(reference.counts);
  if (idStyle === 'exact') expect(first?.testId).toBe(reference.firstFailure?.testId);
  expect(compareWithReference({ counts: outcome?.counts ?? null, firstFailure: first }, reference, idStyle)).toEqual({
    counts: true,
    name: true,
    message: true,
  });
  return first;
}

/**
 * The inventory: there, one entry per counted test, its failed tests the failures, and, when the
 * runner has a structured report, the same tests with the same outcomes as that report.
 */
function expectInventory(
  outcome: TestOutcome | null,
  reference: ReferenceResult | null,
  idStyle: IdStyle = 'exact',
): TestRecord[] {
  const tests = outcome?.tests;
  if (!outcome || !tests)
    throw new Error(`${outcome ? `${outcome.runner} (${outcome.source})` : 'the output'} gave no test inventory`);
  expect(tests).toHaveLength(outcome.counts.total);
  expect(
    tests
      .filter((test) => test.outcome === 'failed')
      .map((test) => test.id)
      .sort(),
  ).toEqual(outcome.failures.map((failure) => failure.testId).sort());
  if (reference)
    expect(inventoryLines(tests, idStyle)).toEqual(
      inventoryLines(
        reference.tests.map((test) => ({ id: test.testId, outcome: test.outcome })),
        'exact',
      ),
    );
  return tests;
}

/** What a later inventory lacks and adds against an earlier one, ids counted as a multiset. */
function idChanges(before: TestRecord[], after: TestRecord[]): { missing: string[]; added: string[] } {
  const remaining = after.map((test) => test.id);
  const missing: string[] = [];
  for (const { id } of before) {
    const at = remaining.indexOf(id);
    if (at === -1) missing.push(id);
    else remaining.splice(at, 1);
  }
  return { missing: missing.sort(), added: remaining.sort() };
}

describe('runner results, held to the runner’s own structured report', () => {
  it('mocha: spec and TAP output match mocha’s JSON reporter (pending counts as skipped)', () => {
    const dir = suite('mocha');
    const files = ['test/a.test.js'];
    const reference = mochaJsonReference(run(dir, [bin('mocha'), '--reporter', 'json', ...files]).output, dir);
    expect(reference.counts).toEqual({ passed: 2, failed: 2, skipped: 2, total: 6 });
    const spec = run(dir, [bin('mocha'), ...files]);
    expect(spec.code).toBe(2);
    const fromSpec = parseSummaryLines(spec.output);
    expect(fromSpec).toMatchObject({
      runner: 'mocha',
      source: 'spec output',
      summary: [expect.stringMatching(/^2 passing/), '2 pending', '2 failing'],
    });
    const first = expectParity(fromSpec, reference, dir);
    expect(first).toMatchObject({
      testId: 'outer inner fails an assertion',
      location: expect.stringMatching(/^test\/a\.test\.js:5:\d+$/),
    });
    expect(failureViews(fromSpec, dir)[1]).toMatchObject({
      testId: 'outer inner throws',
      message: 'TypeError: boom here',
      location: expect.stringMatching(/^test\/a\.test\.js:6:\d+$/),
    });
    const fromTap = parseSummaryLines(run(dir, [bin('mocha'), '--reporter', 'tap', ...files]).output);
    expect(fromTap?.runner).toBe('TAP');
    expectParity(fromTap, reference, dir);
    const before = expectInventory(fromSpec, reference);
    expect(before.map((test) => test.id)).toEqual([
      'top level passes',
      'outer passes',
      'outer inner fails an assertion',
      'outer inner throws',
      'outer inner is skipped',
      'outer inner is pending',
    ]);
    expectInventory(fromTap, reference);
    // The dot reporter names no passing test: counts, but no inventory.
    expect(parseSummaryLines(run(dir, [bin('mocha'), '--reporter', 'dot', ...files]).output)).toMatchObject({
      counts: reference.counts,
      tests: undefined,
    });
    const weakened = weakenedSuite('mocha');
    const after = expectInventory(
      parseSummaryLines(run(weakened, [bin('mocha'), ...files]).output),
      mochaJsonReference(run(weakened, [bin('mocha'), '--reporter', 'json', ...files]).output, weakened),
    );
    expect(idChanges(before, after)).toEqual({
      missing: ['outer inner throws', 'top level passes'],
      added: ['top level passes, renamed'],
    });
  });

  it('jest: text output and `--json` both match jest’s JSON report (todo counts as skipped)', () => {
    const dir = suite('jest');
    const jsonFile = path.join(dir, 'jest.json');
    const { output } = run(dir, [bin('jest'), '--ci', '--rootDir', dir, '--json', `--outputFile=${jsonFile}`]);
    const reference = jestJsonReference(fs.readFileSync(jsonFile, 'utf8'), dir);
    expect(reference.counts).toEqual({ passed: 2, failed: 2, skipped: 2, total: 6 });
    const first = expectParity(parseSummaryLines(output), reference, dir);
    expect(first).toMatchObject({ testId: 'outer › inner › fails an assertion', location: 'a.test.js:4:54' });
    expectParity(parseJestJson(fs.readFileSync(jsonFile, 'utf8'), dir), reference, dir);
    // One file: jest's verbose tree names every test in its text too.
    expectInventory(parseSummaryLines(output), reference);
    const before = expectInventory(parseJestJson(fs.readFileSync(jsonFile, 'utf8'), dir), reference);
    expect(before.every((test) => test.file === 'a.test.js')).toBe(true);
    const weakened = weakenedSuite('jest');
    const weakenedJson = path.join(weakened, 'jest.json');
    const weakenedOutput = run(weakened, [
      bin('jest'),
      '--ci',
      '--rootDir',
      weakened,
      '--json',
      `--outputFile=${weakenedJson}`,
    ]).output;
    const after = expectInventory(
      parseJestJson(fs.readFileSync(weakenedJson, 'utf8'), weakened),
      jestJsonReference(fs.readFileSync(weakenedJson, 'utf8'), weakened),
    );
    expect(idChanges(before, after)).toEqual({
      missing: ['outer › inner › throws', 'top level passes'],
      added: ['top level passes, renamed'],
    });
    expect(inventoryLines(expectInventory(parseSummaryLines(weakenedOutput), null), 'exact')).toEqual(
      inventoryLines(after, 'exact'),
    );
  });

  it('vitest: text output and JUnit both match vitest’s JSON reporter', () => {
    const dir = suite('vitest', true);
    const json = path.join(dir, 'vitest.json');
    const junit = path.join(dir, 'junit.xml');
    const { output } = run(dir, [
      bin('vitest'),
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${json}`,
      '--reporter=junit',
      `--outputFile.junit=${junit}`,
    ]);
    const reference = vitestJsonReference(fs.readFileSync(json, 'utf8'), dir);
    expect(reference.counts).toEqual({ passed: 2, failed: 2, skipped: 2, total: 6 });
    const first = expectParity(parseSummaryLines(output), reference, dir);
    expect(first).toMatchObject({
      testId: 'test/a.test.js > outer > inner > fails an assertion',
      location: expect.stringMatching(/^test\/a\.test\.js:5:\d+$/),
    });
    expectParity(parseJUnit(fs.readFileSync(junit, 'utf8'), { runner: 'vitest', repoDir: dir }), reference, dir);
    // The default reporter prints the tests of a failing file without their describes: no inventory from it.
    expect(parseSummaryLines(output)?.tests).toBeUndefined();
    const before = expectInventory(
      parseJUnit(fs.readFileSync(junit, 'utf8'), { runner: 'vitest', repoDir: dir }),
      reference,
    );
    expectInventory(parseSummaryLines(run(dir, [bin('vitest'), 'run', '--reporter=verbose']).output), reference);
    const weakened = weakenedSuite('vitest', true);
    const weakenedJunit = path.join(weakened, 'junit.xml');
    run(weakened, [bin('vitest'), 'run', '--reporter=junit', `--outputFile.junit=${weakenedJunit}`]);
    const after = expectInventory(
      parseJUnit(fs.readFileSync(weakenedJunit, 'utf8'), { runner: 'vitest', repoDir: weakened }),
      null,
    );
    expect(idChanges(before, after)).toEqual({
      missing: ['test/a.test.js > outer > inner > throws', 'test/a.test.js > top level passes'],
      added: ['test/a.test.js > top level passes, renamed'],
    });
  });

  it('node --test: spec and TAP output match its JUnit reporter (skip and todo count as skipped)', () => {
    const dir = suite('node');
    const junit = path.join(dir, 'junit.xml');
    const tap = path.join(dir, 'tap.txt');
    const { output } = run(dir, [
      process.execPath,
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      '--test-reporter=junit',
      `--test-reporter-destination=${junit}`,
      'test/',
    ]);
    const reference = junitReference(fs.readFileSync(junit, 'utf8'), 'node');
    expect(reference.counts).toEqual({ passed: 2, failed: 2, skipped: 2, total: 6 });
    const first = expectParity(parseSummaryLines(output), reference, dir);
    expect(first).toMatchObject({ testId: 'outer > inner > fails an assertion', location: 'test/a.test.js:6:45' });
    expectParity(parseSummaryLines(fs.readFileSync(tap, 'utf8')), reference, dir);
    // node's JUnit message drops line breaks; the error the test threw is read from the body instead.
    const fromJUnit = parseJUnit(fs.readFileSync(junit, 'utf8'), { runner: 'node:test', repoDir: dir });
    expectParity(fromJUnit, reference, dir);
    expect(failureViews(fromJUnit, dir).map((failure) => failure.message)).toEqual(
      failureViews(parseSummaryLines(output), dir).map((failure) => failure.message),
    );
    const before = expectInventory(parseSummaryLines(output), reference);
    expectInventory(parseSummaryLines(fs.readFileSync(tap, 'utf8')), reference);
    expectInventory(fromJUnit, reference);
    const weakened = weakenedSuite('node');
    const weakenedJunit = path.join(weakened, 'junit.xml');
    const after = expectInventory(
      parseSummaryLines(
        run(weakened, [
          process.execPath,
          '--test',
          '--test-reporter=spec',
          '--test-reporter-destination=stdout',
          '--test-reporter=junit',
          `--test-reporter-destination=${weakenedJunit}`,
          'test/',
        ]).output,
      ),
      junitReference(fs.readFileSync(weakenedJunit, 'utf8'), 'node'),
    );
    expect(idChanges(before, after)).toEqual({
      missing: ['outer > inner > throws', 'top level passes'],
      added: ['top level passes, renamed'],
    });
  });

  it('pytest: text output and JUnit (named by node id) match its JUnit report (xfail counts as skipped)', () => {
    const dir = suite('python');
    const junit = path.join(dir, 'junit.xml');
    const { output } = run(dir, [
      PYTHON,
      '-m',
      'pytest',
      '-q',
      '-p',
      'no:cacheprovider',
      `--junitxml=${junit}`,
      'tests/test_a.py',
    ]);
    const reference = junitReference(fs.readFileSync(junit, 'utf8'), 'pytest');
    expect(reference.counts).toEqual({ passed: 2, failed: 2, skipped: 2, total: 6 });
    const first = expectParity(parseSummaryLines(output), reference, dir, 'pytest-dotted');
    expect(first).toMatchObject({
      testId: 'tests/test_a.py::TestOuter::TestInner::test_fails',
      message: expect.stringMatching(/^assert 2 == 3/),
      location: 'tests/test_a.py:16',
    });
    const fromJUnit = parseJUnit(fs.readFileSync(junit, 'utf8'), { runner: 'pytest', repoDir: dir });
    expect(failureViews(fromJUnit, dir)[0]).toEqual(first);
    expectParity(fromJUnit, reference, dir, 'pytest-dotted');
    // -q prints dots: counts and failures, no inventory; -v names every test, as JUnit does.
    expect(parseSummaryLines(output)?.tests).toBeUndefined();
    const before = expectInventory(fromJUnit, reference, 'pytest-dotted');
    expect(before.map((test) => test.file)).toEqual(Array(6).fill('tests/test_a.py'));
    expectInventory(
      parseSummaryLines(run(dir, [PYTHON, '-m', 'pytest', '-v', '-p', 'no:cacheprovider', 'tests/test_a.py']).output),
      reference,
      'pytest-dotted',
    );
    const weakened = weakenedSuite('python');
    const weakenedJunit = path.join(weakened, 'junit.xml');
    const verbose = run(weakened, [
      PYTHON,
      '-m',
      'pytest',
      '-v',
      '-p',
      'no:cacheprovider',
      `--junitxml=${weakenedJunit}`,
      'tests/test_a.py',
    ]).output;
    const after = expectInventory(
      parseJUnit(fs.readFileSync(weakenedJunit, 'utf8'), { runner: 'pytest', repoDir: weakened }),
      junitReference(fs.readFileSync(weakenedJunit, 'utf8'), 'pytest'),
      'pytest-dotted',
    );
    expect(idChanges(before, after)).toEqual({
      missing: ['tests/test_a.py::TestOuter::TestInner::test_throws', 'tests/test_a.py::test_top'],
      added: ['tests/test_a.py::test_top_renamed'],
    });
    expect(inventoryLines(expectInventory(parseSummaryLines(verbose), null), 'exact')).toEqual(
      inventoryLines(after, 'exact'),
    );
  });

  it('unittest: counts as its closing line states them, failures in its order with the traceback’s place', () => {
    const dir = suite('python');
    const result = run(dir, [PYTHON, '-m', 'unittest', 'tests.test_unit']);
    expect(result.output).toMatch(/^FAILED \(failures=1, errors=1, skipped=1, expected failures=1\)$/m);
    const outcome = parseSummaryLines(result.output);
    expect(outcome).toMatchObject({ runner: 'unittest', counts: { passed: 1, failed: 2, skipped: 2, total: 5 } });
    // unittest prints errors before failures.
    expect(failureViews(outcome, dir)).toEqual([
      {
        testId: 'tests.test_unit.Outer.test_err',
        message: "KeyError: 'missing'",
        location: 'tests/test_unit.py:16',
        frames: ['tests/test_unit.py:16'],
      },
      {
        testId: 'tests.test_unit.Outer.test_bad',
        message: 'AssertionError: 2 != 5',
        location: 'tests/test_unit.py:13',
        frames: ['tests/test_unit.py:13'],
      },
    ]);
    // Without -v unittest prints dots; with it, a line per test.
    expect(outcome?.tests).toBeUndefined();
    const verbose = parseSummaryLines(run(dir, [PYTHON, '-m', 'unittest', '-v', 'tests.test_unit']).output);
    expect(verbose?.counts).toEqual(outcome?.counts);
    const before = expectInventory(verbose, null);
    expect(inventoryLines(before, 'exact')).toEqual([
      'failed tests.test_unit.Outer.test_bad',
      'failed tests.test_unit.Outer.test_err',
      'passed tests.test_unit.Outer.test_ok',
      'skipped tests.test_unit.Outer.test_expected_failure',
      'skipped tests.test_unit.Outer.test_skip',
    ]);
    const after = expectInventory(
      parseSummaryLines(run(weakenedSuite('python'), [PYTHON, '-m', 'unittest', '-v', 'tests.test_unit']).output),
      null,
    );
    expect(idChanges(before, after)).toEqual({
      missing: ['tests.test_unit.Outer.test_err', 'tests.test_unit.Outer.test_ok'],
      added: ['tests.test_unit.Outer.test_ok_renamed'],
    });
  });

  it.skipIf(!has('cargo'))(
    'cargo test: counts as libtest’s result line states them, failures sorted as its failures list',
    () => {
      const dir = suite('cargo');
      const result = run(dir, ['cargo', 'test', '--offline', '--quiet']);
      expect(result.output).toMatch(/^test result: FAILED\. 1 passed; 2 failed; 1 ignored;/m);
      const outcome = parseSummaryLines(result.output);
      expect(outcome).toMatchObject({ runner: 'cargo test', counts: { passed: 1, failed: 2, skipped: 1, total: 4 } });
      expect(
        failureViews(outcome, dir).map(({ testId, message, location }) => ({ testId, message, location })),
      ).toEqual([
        {
          testId: 'tests::inner::fails_an_assertion',
          message: 'assertion `left == right` failed\n  left: 2\n right: 3',
          location: 'src/lib.rs:19:13',
        },
        { testId: 'tests::inner::panics', message: 'boom here', location: 'src/lib.rs:24:13' },
      ]);
      // --quiet prints a dot per test; without it libtest prints a line per test.
      expect(outcome?.tests).toBeUndefined();
      const verbose = parseSummaryLines(run(dir, ['cargo', 'test', '--offline']).output);
      expect(verbose?.counts).toEqual(outcome?.counts);
      const before = expectInventory(verbose, null);
      expect(inventoryLines(before, 'exact')).toEqual([
        'failed tests::inner::fails_an_assertion',
        'failed tests::inner::panics',
        'passed tests::passes',
        'skipped tests::inner::is_ignored',
      ]);
      const after = expectInventory(
        parseSummaryLines(run(weakenedSuite('cargo'), ['cargo', 'test', '--offline']).output),
        null,
      );
      expect(idChanges(before, after)).toEqual({
        missing: ['tests::inner::panics', 'tests::passes'],
        added: ['tests::passes_renamed'],
      });
    },
  );

  it.skipIf(!has('cargo'))(
    'cargo test as Lathe runs it: every test binary runs though the library tests fail (--no-fail-fast)',
    () => {
      const dir = suite('cargo');
      fs.mkdirSync(path.join(dir, 'tests'));
      fs.writeFileSync(
        path.join(dir, 'tests', 'later.rs'),
        '#[test]\nfn later_passes() {\n    assert_eq!(suite::add(2, 2), 4);\n}\n',
      );
      const bare = parseSummaryLines(run(dir, ['cargo', 'test', '--offline']).output);
      // cargo's default: the failing library binary stops the run, so the integration test is never run.
      expect(bare?.tests?.map((test) => test.id)).not.toContain('later_passes');
      const prepared = prepareCommand(['cargo', 'test', '--offline'], dir, undefined);
      const all = parseSummaryLines(run(dir, prepared.argv).output);
      expect(all?.counts).toEqual({ passed: 2, failed: 2, skipped: 1, total: 5 });
      expect(all?.tests?.map((test) => test.id)).toContain('later_passes');
    },
  );

  it.skipIf(!has('go', 'version'))(
    'go test: -v text output matches `go test -json` (leaf tests; a panic is the test’s failure)',
    () => {
      const dir = suite('go');
      const reference = goJsonReference(run(dir, ['go', 'test', '-json', './...']).output);
      expect(reference.counts).toEqual({ passed: 2, failed: 2, skipped: 1, total: 5 });
      const verbose = run(dir, ['go', 'test', '-v', './...']);
      const first = expectParity(parseSummaryLines(verbose.output), reference, dir);
      expect(first).toMatchObject({
        testId: 'TestOuter/inner_fails',
        message: 'add_test.go:15: Add(1, 1) = 2, want 3',
        location: 'add_test.go:15',
      });
      expect(failureViews(parseSummaryLines(verbose.output), dir)[1]).toMatchObject({
        testId: 'TestZPanics',
        message: expect.stringMatching(/^panic: boom here/),
        location: 'add_test.go:22',
      });
      expectParity(parseSummaryLines(run(dir, ['go', 'test', '-json', './...']).output), reference, dir);
      const before = expectInventory(parseSummaryLines(verbose.output), reference);
      expectInventory(parseSummaryLines(run(dir, ['go', 'test', '-json', './...']).output), reference);
      // Without -v go names only the failing tests.
      expect(parseSummaryLines(run(dir, ['go', 'test', './...']).output)?.tests).toBeUndefined();
      const weakened = weakenedSuite('go');
      const after = expectInventory(
        parseSummaryLines(run(weakened, ['go', 'test', '-v', './...']).output),
        goJsonReference(run(weakened, ['go', 'test', '-json', './...']).output),
      );
      expect(idChanges(before, after)).toEqual({
        missing: ['TestPasses', 'TestZPanics'],
        added: ['TestPassesRenamed'],
      });
    },
  );
});
