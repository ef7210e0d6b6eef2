import { describe, expect, it } from 'vitest';
import {
  failToPass,
  readCargo,
  repeatedAtStart,
  reportCommandProblem,
  readGoTest,
  readJest,
  readTape,
  readTapTests,
  readUnittest,
  readUvu,
} from './runnerReports';

describe('runner reports', () => {
  it('jest --json: assertions by full name', () => {
    const json = JSON.stringify({
      testResults: [
        {
          assertionResults: [
            { fullName: 'parse handles empty', status: 'passed' },
            { fullName: 'parse throws', status: 'failed' },
            { fullName: 'todo', status: 'pending' },
          ],
        },
      ],
    });
    expect(readJest(`npm warn noise\n${json}`)).toEqual({
      passed: ['parse handles empty'],
      failed: ['parse throws'],
      passedCount: 1,
      namesPassing: true,
    });
    expect(readJest('not json at all').passedCount).toBe(0);
  });

  it('ava --tap: one line per test, skips and todos left out', () => {
    const tap = [
      'TAP version 13',
      'ok 1 - parse › handles empty',
      'not ok 2 - stringify › sorts keys',
      'ok 3 - later # SKIP',
      '1..3',
    ].join('\n');
    expect(readTapTests(tap)).toMatchObject({ passed: ['parse › handles empty'], failed: ['stringify › sorts keys'] });
  });

  it('tape: a test fails when any assertion under its heading fails', () => {
    const tap = [
      'TAP version 13',
      '# parse',
      'ok 1 should be equal',
      'ok 2 should be equal',
      '# stringify',
      'ok 3 should be equal',
      'not ok 4 should be deep equal',
      '',
      '1..4',
      '# tests 4',
      '# pass  3',
      '# fail  1',
    ].join('\n');
    expect(readTape(tap)).toMatchObject({ passed: ['parse'], failed: ['stringify'], passedCount: 1 });
  });

  it('uvu: failures by suite and name, passes counted only', () => {
    const out = [
      'diff ✘   (1 / 3)',
      '',
      '   FAIL  diff  "prints BigInts"',
      '    Expected values to be deeply equal',
      '',
      '  Total:     30',
      '  Passed:    29',
    ].join('\n');
    expect(readUvu(out, '')).toEqual({
      passed: [],
      failed: ['diff > prints BigInts'],
      passedCount: 29,
      namesPassing: false,
    });
  });

  it('unittest -v: dotted ids, docstrings on the next line, FAIL headers', () => {
    const err = [
      'test_a (pkg.test.test_api.ApiTest.test_a) ... ok',
      'test_b (pkg.test.test_api.ApiTest.test_b)',
      'The docstring line ... FAIL',
      'test_c (pkg.test.test_api.ApiTest) ... ERROR',
      'test_d (pkg.test.test_api.ApiTest.test_d) ... skipped "no"',
      '======================================================================',
      'FAIL: test_b (pkg.test.test_api.ApiTest.test_b)',
    ].join('\n');
    expect(readUnittest('', err)).toMatchObject({
      passed: ['pkg.test.test_api.ApiTest.test_a'],
      failed: ['pkg.test.test_api.ApiTest.test_b', 'pkg.test.test_api.ApiTest.test_c'],
    });
  });

  it('go test -v: tests and subtests; a build failure is one failure', () => {
    const out = [
      '=== RUN   TestParse',
      '--- PASS: TestParse (0.00s)',
      '=== RUN   TestIP',
      '    --- FAIL: TestIP/nil (0.00s)',
      '--- FAIL: TestIP (0.00s)',
      'FAIL',
    ].join('\n');
    expect(readGoTest(out)).toMatchObject({ passed: ['TestParse'], failed: ['TestIP/nil', 'TestIP'] });
    expect(readGoTest('# example.com/p\n./a.go:3:1: syntax error\nFAIL\texample.com/p [build failed]').failed).toEqual([
      '(build failed)',
    ]);
  });

  it('cargo test: names with paths; a compile error is one failure', () => {
    const out = [
      'running 2 tests',
      'test tests::parses ... ok',
      'test tests::rejects ... FAILED',
      'test slow ... ignored',
    ].join('\n');
    expect(readCargo(out, '')).toMatchObject({ passed: ['tests::parses'], failed: ['tests::rejects'] });
    expect(readCargo('', 'error[E0425]: cannot find value `x`').failed).toEqual(['(compile failed)']);
  });

  it('fail_to_pass: passing at the fix and not at the start, or the start failures when passes are unnamed', () => {
    const named = (passed: string[], failed: string[]) => ({
      passed,
      failed,
      passedCount: passed.length,
      namesPassing: true,
    });
    expect(failToPass(named(['a', 'b', 'c'], []), named(['a'], ['b']))).toEqual(['b', 'c']);
    const counted = (failed: string[]) => ({ passed: [], failed, passedCount: 3, namesPassing: false });
    expect(failToPass(counted([]), counted(['s > x']))).toEqual(['s > x']);
  });

  it('a second run of the start keeps only the failures that repeat: a test that passes again was flaky', () => {
    const named = (passed: string[], failed: string[]) => ({
      passed,
      failed,
      passedCount: passed.length,
      namesPassing: true,
    });
    expect(repeatedAtStart(['fixed', 'flaky', 'gone'], named(['flaky', 'other'], ['fixed']))).toEqual([
      'fixed',
      'gone',
    ]);
    const counted = (failed: string[]) => ({ passed: [], failed, passedCount: 3, namesPassing: false });
    expect(repeatedAtStart(['s > fixed', 's > flaky'], counted(['s > fixed']))).toEqual(['s > fixed']);
  });

  it('a cargo report must run every test binary: without --no-fail-fast the unrun tests would read as fail-to-pass', () => {
    expect(reportCommandProblem('cargo', 'cargo test --offline --tests')).toBe(
      '`cargo test --offline --tests` stops at the first failing test binary: add --no-fail-fast, so every test runs at the start too',
    );
    expect(reportCommandProblem('cargo', 'cargo test --offline --no-fail-fast --tests')).toBeNull();
    expect(reportCommandProblem('jest', 'npx jest --json')).toBeNull();
  });
});
