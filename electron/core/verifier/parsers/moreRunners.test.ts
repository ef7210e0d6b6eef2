import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceResult } from '../../eval/parity/referenceReports';
import { ensureRunnerCache, runnersRequired, type RunnerCache } from '../../../../test-support/runnerCache';
import {
  caseMatch,
  missingFor,
  referenceEnvOf,
  resolveArgv,
  runCaptured,
  runnerEnv,
  RUNNER_CASES,
  writeCaseSuite,
  type RunnerCase,
} from '../../../../test-support/runnerCases';
import { makeTempDir } from '../../../../test-support/tempRepo';
import { sourceAppRoot } from '../../appRoot';
import { failureViews } from '../excerpt';
import { parseSummaryLines } from '../summaryLines';
import { verify } from '../verify';
import type { TestOutcome } from './outcome';

/*
 * The runners beyond runners.test.ts, each run for real on a generated suite (runnerCases.ts): Lathe's
 * reading of the output a repository's test command prints is held to the runner's own report. ava,
 * tap, tape, jasmine, uvu and qunit come from the runner cache (test-support/runnerCache.ts); without
 * the npm registry they are skipped with the reason, unless LATHE_REQUIRE_RUNNERS=1 (CI).
 */

const appRoot = sourceAppRoot();
const scratch = makeTempDir('lathe-more-runners-');
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const env = runnerEnv(scratch);
let cache: RunnerCache = { unavailable: 'not asked yet' };

beforeAll(() => {
  cache = ensureRunnerCache();
  if ('unavailable' in cache && runnersRequired) throw new Error(cache.unavailable);
}, 660_000);

const caseOf = (runner: string) => RUNNER_CASES.find((candidate) => candidate.runner === runner) as RunnerCase;

/** The case's suite run twice (the repository's command, the runner's own report); null with the reason when it cannot run here. */
function runCase(
  testCase: RunnerCase,
): { outcome: TestOutcome | null; reference: ReferenceResult; dir: string; code: number | null } | { skip: string } {
  const missing = missingFor(testCase.needs, 'dir' in cache ? cache.dir : null);
  if (missing) return { skip: `${missing}${'unavailable' in cache ? `: ${cache.unavailable}` : ''}` };
  const dir = writeCaseSuite(testCase, scratch, {
    app: path.join(appRoot, 'node_modules'),
    cache: 'dir' in cache ? path.join(cache.dir, 'node_modules') : null,
  });
  const report = path.join(dir, '..', `${path.basename(dir)}.report`);
  const fill = { report, scratch: `${dir}.scratch` };
  const referenceEnv = referenceEnvOf(testCase, env, dir, fill);
  const referenceRun = runCaptured(dir, resolveArgv(testCase.reference.argv, dir, fill), referenceEnv);
  const reference = testCase.reference.read(referenceRun.output, report, dir);
  const run = runCaptured(dir, resolveArgv(testCase.command, dir, fill), env);
  return { outcome: parseSummaryLines(run.output), reference, dir, code: run.code };
}

function expectParity(result: ReturnType<typeof runCase>, expected: ReferenceResult['counts']) {
  if ('skip' in result) return null;
  const { outcome, reference, dir } = result;
  expect(outcome, 'Lathe read no results').not.toBeNull();
  expect(reference.counts).toEqual(expected);
  expect(outcome?.counts).toEqual(reference.counts);
  expect(caseMatch({ counts: outcome?.counts ?? null, failures: outcome?.failures ?? [] }, reference)).toEqual({
    counts: true,
    failures: true,
    messages: true,
  });
  return failureViews(outcome, dir);
}

const skipReason = (testCase: RunnerCase) => missingFor(testCase.needs, 'dir' in cache ? cache.dir : null);

describe('more runners, each on a real suite run by the real runner', { timeout: 240_000 }, () => {
  it('ava: its default reporter, held to `ava --tap` (todo as skipped, though ava’s TAP counts it in `# fail`)', (context) => {
    const result = runCase(caseOf('ava'));
    if ('skip' in result) return context.skip(result.skip);
    expect(result.code).toBe(1);
    const views = expectParity(result, { passed: 2, failed: 2, skipped: 2, total: 6 });
    expect(result.outcome).toMatchObject({
      runner: 'ava',
      source: 'text output',
      summary: ['2 tests failed', '1 test skipped', '1 test todo'],
    });
    expect(views?.[0]).toMatchObject({
      testId: 'fails an assertion',
      message: expect.stringContaining('- 2\n+ 3'),
      location: 'test/a.test.js:3:39',
    });
    expect(views?.[1]).toMatchObject({
      testId: 'throws',
      message: expect.stringContaining("message: 'boom here'"),
      location: 'test/a.test.js:4:30',
    });
    expect(result.outcome?.tests?.map((test) => `${test.outcome} ${test.id}`).sort()).toEqual([
      'failed fails an assertion',
      'failed throws',
      'passed passes',
      'passed top level passes',
      'skipped is skipped',
      'skipped is todo',
    ]);
    // ava's own TAP, read by Lathe's TAP reader, gives the same counts.
    const tap = parseSummaryLines(
      runCaptured(result.dir, resolveArgv(['bin:ava', '--tap'], result.dir, {}), env).output,
    );
    expect(tap).toMatchObject({ runner: 'TAP', counts: result.outcome?.counts });
  });

  it('tap (node-tap): its TAP output, held to its own `# { total … }` tally and points (assertions are its tests)', (context) => {
    const result = runCase(caseOf('tap (node-tap)'));
    if ('skip' in result) return context.skip(result.skip);
    const views = expectParity(result, { passed: 2, failed: 2, skipped: 2, total: 6 });
    expect(result.outcome?.summary).toContain('# { total: 6, pass: 2, fail: 2, todo: 1, skip: 1 }');
    expect(views?.map((view) => [view.testId, view.message, view.location])).toEqual([
      [
        'test/a.test.js > outer > inner > fails an assertion > should be equal',
        'should be equal',
        'test/a.test.js:5:51',
      ],
      ['test/a.test.js > outer > inner > throws > boom here', 'boom here', 'test/a.test.js:6:42'],
    ]);
    expect(result.outcome?.tests).toHaveLength(6);
  });

  it('tape: its TAP, held to its points (tape counts a todo assertion in `# pass`; TAP and Lathe call it skipped)', (context) => {
    const result = runCase(caseOf('tape'));
    if ('skip' in result) return context.skip(result.skip);
    expect(result.code).toBe(1);
    const views = expectParity(result, { passed: 2, failed: 2, skipped: 1, total: 5 });
    expect(views?.[0]).toMatchObject({
      testId: 'adds up',
      message: 'adds up\nexpected: 3\nactual:   2',
      location: 'test/a.test.js:3:39',
    });
    expect(views?.[1]).toMatchObject({
      testId: 'TypeError: boom here',
      location: expect.stringMatching(/^test\/a\.test\.js:4:\d+$/),
    });
  });

  it('jasmine: its console reporter, held to a reporter of its own API (pending specs as skipped)', (context) => {
    const result = runCase(caseOf('jasmine'));
    if ('skip' in result) return context.skip(result.skip);
    expect(result.code).toBe(3);
    const views = expectParity(result, { passed: 2, failed: 2, skipped: 2, total: 6 });
    expect(result.outcome?.summary[0]).toBe('6 specs, 2 failures, 2 pending specs');
    expect(views?.find((view) => view.testId === 'outer inner fails an assertion')).toMatchObject({
      message: 'Expected 2 to be 3.',
      location: 'spec/a.spec.js:4:52',
    });
    expect(views?.find((view) => view.testId === 'outer inner throws')).toMatchObject({
      message: 'TypeError: boom here',
      location: 'spec/a.spec.js:5:32',
    });
  });

  it('uvu: Total (skips left out), Passed and Skipped, each FAIL block named `suite > test`', (context) => {
    const result = runCase(caseOf('uvu'));
    if ('skip' in result) return context.skip(result.skip);
    expect(result.code).toBe(1);
    const views = expectParity(result, { passed: 2, failed: 2, skipped: 1, total: 5 });
    expect(views?.map((view) => [view.testId, view.location])).toEqual([
      ['outer > fails an assertion', 'tests/a.js:5:44'],
      ['outer > throws', 'tests/a.js:6:31'],
    ]);
  });

  it('qunit: its CLI’s TAP, todo apart from fail as qunit counts it', (context) => {
    const result = runCase(caseOf('qunit'));
    if ('skip' in result) return context.skip(result.skip);
    expect(result.code).toBe(1);
    const views = expectParity(result, { passed: 2, failed: 2, skipped: 2, total: 6 });
    expect(views?.[0]).toMatchObject({
      testId: 'outer > inner > fails an assertion',
      message: expect.stringContaining('expected: 3\nactual: 2'),
      location: 'test/a.test.js:4:59',
    });
    expect(views?.[1]).toMatchObject({
      testId: 'outer > inner > throws',
      message: expect.stringContaining('Died on test #1: boom here'),
    });
    expect(result.outcome?.tests).toHaveLength(6);
  });

  it('playwright test: its dot reporter (CI), held to its JUnit reporter (fixme as skipped)', (context) => {
    const result = runCase(caseOf('playwright test'));
    if ('skip' in result) return context.skip(result.skip);
    expect(result.code).toBe(1);
    const views = expectParity(result, { passed: 2, failed: 2, skipped: 2, total: 6 });
    expect(views?.[0]).toMatchObject({
      testId: 'outer › inner › fails an assertion',
      message: expect.stringMatching(/^expect\(received\)\.toBe\(expected\)/),
      location: 'tests/a.spec.js:5:54',
    });
    // The list reporter names every test.
    const list = parseSummaryLines(
      runCaptured(
        result.dir,
        resolveArgv(
          ['bin:playwright', 'test', '--reporter=list', `--output=${result.dir}.scratch/list`],
          result.dir,
          {},
        ),
        env,
      ).output,
    );
    expect(list?.tests?.map((test) => `${test.outcome} ${test.id}`).sort()).toEqual([
      'failed outer › inner › fails an assertion',
      'failed outer › inner › throws',
      'passed outer › passes',
      'passed top level passes',
      'skipped outer › inner › is fixme',
      'skipped outer › inner › is skipped',
    ]);
  });

  it('playwright test through verify(): its JUnit report beside the list reporter, its results in the artifact folder, not the repository', async () => {
    const testCase = caseOf('playwright test');
    const dir = writeCaseSuite(testCase, scratch, { app: path.join(appRoot, 'node_modules'), cache: null });
    const result = await verify({
      workDir: dir,
      argv: [path.join(dir, 'node_modules', '.bin', 'playwright'), 'test'],
      timeoutMs: 180_000,
      artifactRoot: path.join(scratch, 'artifacts'),
    });
    expect(result).toMatchObject({
      status: 'FAIL',
      resultsFrom: 'playwright (JUnit XML)',
      counts: { passed: 2, failed: 2, skipped: 2, total: 6 },
      firstFailure: { testId: 'outer › inner › fails an assertion', location: 'tests/a.spec.js:5:54' },
    });
    expect(result.tests).toHaveLength(6);
    expect(result.tail).toMatch(/✓ +1 tests\/a\.spec\.js:3:3 › outer › passes/);
    expect(fs.existsSync(path.join(dir, 'test-results'))).toBe(false);
  });

  it('nose2: unittest’s closing line, held to its junitxml plugin (function and generated tests too)', (context) => {
    const result = runCase(caseOf('nose2'));
    if ('skip' in result) return context.skip(result.skip);
    expect(result.code).toBe(1);
    const views = expectParity(result, { passed: 3, failed: 3, skipped: 2, total: 8 });
    expect(views?.find((view) => view.testId === 'tests.test_unit.test_generator:2')).toMatchObject({
      message: 'AssertionError',
      location: 'tests/test_unit.py:37',
    });
    expect(result.outcome?.tests?.map((test) => `${test.outcome} ${test.id}`)).toContain(
      'failed tests.test_unit.test_generator:2',
    );
    expect(result.outcome?.tests).toHaveLength(8);
  });

  it('JUnit XML printed to the output (mocha’s xunit reporter), held to mocha’s JSON', (context) => {
    const result = runCase(caseOf('JUnit XML (mocha xunit to stdout)'));
    if ('skip' in result) return context.skip(result.skip);
    const views = expectParity(result, { passed: 2, failed: 2, skipped: 2, total: 6 });
    expect(result.outcome).toMatchObject({ runner: 'JUnit', source: 'JUnit XML in the output' });
    expect(views?.[0]).toMatchObject({
      testId: 'outer inner fails an assertion',
      location: expect.stringMatching(/^test\/a\.test\.js:5:\d+$/),
    });
  });

  it('names why a runner case is skipped', () => {
    expect(skipReason({ ...caseOf('ava'), needs: 'cache' })).toBe(
      'dir' in cache ? null : 'the test-runner cache could not be installed',
    );
  });
});
