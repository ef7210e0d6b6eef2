/**
 * Every runner Lathe reads, as a generated suite, the command a repository would run, and the
 * runner's own report to hold Lathe's reading to: its machine-readable reporter where it has one,
 * else (uvu, cargo) the suite's contents as the runner counts them. Shared by
 * verifier/parsers/moreRunners.test.ts and the runner parity bench (bench/parity.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dotted } from '../electron/core/eval/parity/compare';
import {
  goJsonReference,
  jasmineReference,
  jestJsonReference,
  junitReference,
  mochaJsonReference,
  tapReference,
  vitestJsonReference,
  type ReferenceResult,
} from '../electron/core/eval/parity/referenceReports';
import { writeMoreRunnerSuite, writeRunnerSuite, type MoreRunnerSuite, type RunnerSuite } from './runnerSuites';

/** What a case needs from the machine: the runner cache (ava, tap, …), Lathe's node_modules, or a toolchain. */
export type CaseNeeds = 'cache' | 'app' | 'python' | 'nose2' | 'go' | 'cargo';

export interface RunnerCase {
  runner: string;
  needs: CaseNeeds;
  suite: { kind: 'base'; name: RunnerSuite } | { kind: 'more'; name: MoreRunnerSuite };
  /** The test command as a repository would run it; `bin:x` is `node_modules/.bin/x` in the suite. */
  command: string[];
  /** The runner's own report: the command that makes it (`{report}` is a file for it) and how it is read. */
  reference: {
    what: string;
    argv: string[];
    env?: Record<string, string>;
    read: (output: string, reportFile: string, dir: string) => ReferenceResult;
  };
  /** pytest's JUnit report names a test `module.Class.test`, Lathe by its node id. */
  dottedIds?: boolean;
}

const PYTHON = '/usr/bin/python3';

/** The runner's own counts written as its report would give them, for runners without a structured reporter. */
function suiteContents(
  passed: number,
  failed: number,
  skipped: number,
  failures: { testId: string; message: string }[],
): ReferenceResult {
  return {
    counts: { passed, failed, skipped, total: passed + failed + skipped },
    firstFailure: failures[0] ? { ...failures[0], file: null } : null,
    failures,
    tests: [],
  };
}

export const RUNNER_CASES: RunnerCase[] = [
  {
    runner: 'mocha',
    needs: 'app',
    suite: { kind: 'base', name: 'mocha' },
    command: ['bin:mocha', 'test/a.test.js'],
    reference: {
      what: 'mocha --reporter json',
      argv: ['bin:mocha', '--reporter', 'json', 'test/a.test.js'],
      read: (output, _report, dir) => mochaJsonReference(output, dir),
    },
  },
  {
    runner: 'JUnit XML (mocha xunit to stdout)',
    needs: 'app',
    suite: { kind: 'base', name: 'mocha' },
    command: ['bin:mocha', '--reporter', 'xunit', 'test/a.test.js'],
    reference: {
      what: 'mocha --reporter json',
      argv: ['bin:mocha', '--reporter', 'json', 'test/a.test.js'],
      read: (output, _report, dir) => mochaJsonReference(output, dir),
    },
  },
  {
    runner: 'jest',
    needs: 'app',
    suite: { kind: 'base', name: 'jest' },
    command: ['bin:jest', '--ci'],
    reference: {
      what: 'jest --json',
      argv: ['bin:jest', '--ci', '--json', '--outputFile={report}'],
      read: (_output, report, dir) => jestJsonReference(fs.readFileSync(report, 'utf8'), dir),
    },
  },
  {
    runner: 'vitest',
    needs: 'app',
    suite: { kind: 'base', name: 'vitest' },
    command: ['bin:vitest', 'run'],
    reference: {
      what: 'vitest --reporter=json',
      argv: ['bin:vitest', 'run', '--reporter=json', '--outputFile.json={report}'],
      read: (_output, report, dir) => vitestJsonReference(fs.readFileSync(report, 'utf8'), dir),
    },
  },
  {
    runner: 'node:test',
    needs: 'app',
    suite: { kind: 'base', name: 'node' },
    command: [process.execPath, '--test', 'test/'],
    reference: {
      what: 'node --test-reporter=junit',
      argv: [process.execPath, '--test', '--test-reporter=junit', '--test-reporter-destination={report}', 'test/'],
      read: (_output, report) => junitReference(fs.readFileSync(report, 'utf8'), 'node'),
    },
  },
  {
    runner: 'ava',
    needs: 'cache',
    suite: { kind: 'more', name: 'ava' },
    command: ['bin:ava'],
    reference: { what: 'ava --tap', argv: ['bin:ava', '--tap'], read: (output) => tapReference(output) },
  },
  {
    runner: 'tap (node-tap)',
    needs: 'cache',
    suite: { kind: 'more', name: 'tap' },
    command: ['bin:tap', '--disable-coverage'],
    reference: {
      what: 'tap --reporter=tap',
      argv: ['bin:tap', '--disable-coverage', '--reporter=tap'],
      read: (output) => tapReference(output),
    },
  },
  {
    runner: 'tape',
    needs: 'cache',
    suite: { kind: 'more', name: 'tape' },
    command: ['bin:tape', 'test/*.test.js'],
    reference: { what: 'its TAP points', argv: ['bin:tape', 'test/*.test.js'], read: (output) => tapReference(output) },
  },
  {
    runner: 'jasmine',
    needs: 'cache',
    suite: { kind: 'more', name: 'jasmine' },
    command: ['bin:jasmine'],
    reference: {
      what: 'a jasmine reporter (specDone)',
      argv: ['bin:jasmine', '--reporter=./reference-reporter.cjs'],
      env: { JASMINE_REFERENCE_FILE: '{report}' },
      read: (_output, report) => jasmineReference(fs.readFileSync(report, 'utf8')),
    },
  },
  {
    runner: 'uvu',
    needs: 'cache',
    suite: { kind: 'more', name: 'uvu' },
    command: ['bin:uvu', 'tests'],
    // uvu has no machine-readable reporter: the suite's contents, as uvu counts them.
    reference: {
      what: 'the suite’s contents (no reporter)',
      argv: ['bin:uvu', 'tests'],
      read: () =>
        suiteContents(2, 2, 1, [
          { testId: 'outer > fails an assertion', message: 'Expected values to be strictly equal:' },
          { testId: 'outer > throws', message: 'boom here' },
        ]),
    },
  },
  {
    runner: 'qunit',
    needs: 'cache',
    suite: { kind: 'more', name: 'qunit' },
    command: ['bin:qunit', 'test/'],
    reference: { what: 'its TAP points', argv: ['bin:qunit', 'test/'], read: (output) => tapReference(output) },
  },
  {
    runner: 'playwright test',
    needs: 'app',
    suite: { kind: 'more', name: 'playwright' },
    command: ['bin:playwright', 'test'],
    reference: {
      what: 'playwright --reporter=junit',
      argv: ['bin:playwright', 'test', '--reporter=junit', '--output={scratch}/results'],
      env: { PLAYWRIGHT_JUNIT_OUTPUT_NAME: '{report}' },
      read: (_output, report) => junitReference(fs.readFileSync(report, 'utf8'), 'playwright'),
    },
  },
  {
    runner: 'pytest',
    needs: 'python',
    dottedIds: true,
    suite: { kind: 'base', name: 'python' },
    command: [PYTHON, '-m', 'pytest', '-q', 'tests/test_a.py'],
    reference: {
      what: 'pytest --junitxml',
      argv: [PYTHON, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', '--junitxml={report}', 'tests/test_a.py'],
      read: (_output, report) => junitReference(fs.readFileSync(report, 'utf8'), 'pytest'),
    },
  },
  {
    runner: 'unittest',
    needs: 'python',
    suite: { kind: 'base', name: 'python' },
    command: [PYTHON, '-m', 'unittest', 'tests.test_unit'],
    reference: {
      what: 'the suite’s contents (no reporter)',
      argv: [PYTHON, '-m', 'unittest', 'tests.test_unit'],
      read: () =>
        suiteContents(1, 2, 2, [
          { testId: 'tests.test_unit.Outer.test_err', message: "KeyError: 'missing'" },
          { testId: 'tests.test_unit.Outer.test_bad', message: 'AssertionError: 2 != 5' },
        ]),
    },
  },
  {
    runner: 'nose2',
    needs: 'nose2',
    suite: { kind: 'more', name: 'nose2' },
    command: [PYTHON, '-m', 'nose2', '-v'],
    reference: {
      what: 'nose2 --junit-xml',
      argv: [
        PYTHON,
        '-m',
        'nose2',
        '--plugin',
        'nose2.plugins.junitxml',
        '--junit-xml',
        '--junit-xml-path',
        '{report}',
      ],
      read: (_output, report) => junitReference(fs.readFileSync(report, 'utf8'), 'pytest'),
    },
  },
  {
    runner: 'go test',
    needs: 'go',
    suite: { kind: 'base', name: 'go' },
    command: ['go', 'test', './...'],
    reference: {
      what: 'go test -json',
      argv: ['go', 'test', '-json', './...'],
      read: (output) => goJsonReference(output),
    },
  },
  {
    runner: 'cargo test',
    needs: 'cargo',
    suite: { kind: 'base', name: 'cargo' },
    command: ['cargo', 'test', '--offline'],
    reference: {
      what: 'the suite’s contents (no stable reporter)',
      argv: ['cargo', 'test', '--offline'],
      read: () =>
        suiteContents(1, 2, 1, [
          { testId: 'tests::inner::fails_an_assertion', message: 'assertion `left == right` failed' },
          { testId: 'tests::inner::panics', message: 'boom here' },
        ]),
    },
  },
];

/** Why a case cannot run on this machine, or null when it can. */
export function missingFor(needs: CaseNeeds, cacheDir: string | null): string | null {
  const has = (command: string, ...args: string[]) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;
  switch (needs) {
    case 'cache':
      return cacheDir ? null : 'the test-runner cache could not be installed';
    case 'app':
      return null;
    case 'python':
      return has(PYTHON, '-c', 'import pytest') ? null : 'python3-pytest is not installed';
    case 'nose2':
      return has(PYTHON, '-c', 'import nose2') ? null : 'python3-nose2 is not installed';
    case 'go':
      return has('go', 'version') ? null : 'go is not installed (golang-go)';
    case 'cargo':
      return has('cargo', '--version') ? null : 'cargo is not installed';
  }
}

/** The clean environment the Verifier gives a run, with caches in `scratch`. */
export function runnerEnv(scratch: string): Record<string, string> {
  return {
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
    RUSTUP_HOME: process.env.RUSTUP_HOME ?? path.join(os.homedir(), '.rustup'),
    CARGO_HOME: process.env.CARGO_HOME ?? path.join(os.homedir(), '.cargo'),
  };
}

/** Writes the case's suite into a fresh folder under `scratch`, node_modules linked where it needs them. */
export function writeCaseSuite(
  testCase: RunnerCase,
  scratch: string,
  modules: { app: string; cache: string | null },
): string {
  const dir = fs.mkdtempSync(path.join(scratch, `${testCase.suite.name}-`));
  const nodeModules =
    testCase.needs === 'cache' ? (modules.cache ?? undefined) : testCase.needs === 'app' ? modules.app : undefined;
  if (testCase.suite.kind === 'base') writeRunnerSuite(dir, testCase.suite.name, nodeModules);
  else writeMoreRunnerSuite(dir, testCase.suite.name, nodeModules);
  return dir;
}

/** An argv with `bin:x`, `{report}` and `{scratch}` filled in. */
export function resolveArgv(argv: string[], dir: string, fill: Record<string, string>): string[] {
  return argv.map((arg) => {
    const filled = Object.entries(fill).reduce((text, [key, value]) => text.replaceAll(`{${key}}`, value), arg);
    return filled.startsWith('bin:') ? path.join(dir, 'node_modules', '.bin', filled.slice(4)) : filled;
  });
}

/** The environment of a case's reference command: the runner's own, plus the case's variables with their places filled in. */
export function referenceEnvOf(
  testCase: RunnerCase,
  env: Record<string, string>,
  dir: string,
  fill: Record<string, string>,
): Record<string, string> {
  const own = Object.entries(testCase.reference.env ?? {}).map(([key, value]) => [
    key,
    resolveArgv([value], dir, fill)[0] as string,
  ]);
  return { ...env, ...Object.fromEntries(own) };
}

/** Runs a command with stdout and stderr into one stream, in order, as the Verifier captures them. */
export function runCaptured(
  dir: string,
  argv: string[],
  env: Record<string, string>,
): { code: number | null; output: string; ms: number } {
  const file = path.join(os.tmpdir(), `lathe-runner-out-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const fd = fs.openSync(file, 'w');
  const started = performance.now();
  try {
    // A glob (`test/*.test.js`) is the shell's, as in a package.json script.
    const command = argv.some((arg) => arg.includes('*'))
      ? ['sh', '-c', argv.map((arg) => (arg.includes('*') ? arg : `'${arg.replace(/'/g, "'\\''")}'`)).join(' ')]
      : argv;
    const result = spawnSync(command[0] as string, command.slice(1), {
      cwd: dir,
      env,
      stdio: ['ignore', fd, fd],
      timeout: 180_000,
    });
    return { code: result.status, output: fs.readFileSync(file, 'utf8'), ms: Math.round(performance.now() - started) };
  } finally {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
  }
}

/** Lathe's reading against the runner's report: counts, the failing tests (as a set), each one's message. */
export interface CaseMatch {
  counts: boolean;
  failures: boolean;
  messages: boolean;
}

export function caseMatch(
  found: { counts: ReferenceResult['counts'] | null; failures: { testId: string; message: string }[] },
  theirs: ReferenceResult,
  dottedIds = false,
): CaseMatch {
  const ours = dottedIds
    ? { ...found, failures: found.failures.map((failure) => ({ ...failure, testId: dotted(failure.testId) })) }
    : found;
  const counts =
    ours.counts !== null &&
    (['passed', 'failed', 'skipped', 'total'] as const).every((key) => ours.counts?.[key] === theirs.counts[key]);
  const names = (list: { testId: string }[]) => list.map((failure) => failure.testId).sort();
  const failures = JSON.stringify(names(ours.failures)) === JSON.stringify(names(theirs.failures));
  const squash = (text: string) => text.replace(/^\s*(\w*Error)(\s*\[[\w-]+\])?:\s*/, '').replace(/\s+/g, '');
  const messages = theirs.failures.every((failure) => {
    const mine = ours.failures.find((candidate) => candidate.testId === failure.testId);
    return mine !== undefined && squash(mine.message).includes(squash(failure.message));
  });
  return { counts, failures, messages };
}
