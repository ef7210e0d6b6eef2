import { describe, expect, it } from 'vitest';
import { parseSummaryLines } from '../summaryLines';
import { parseJestJson } from './jest';
import { combineOutcomes, completeInventory, type TestOutcome } from './outcome';

/*
 * The test inventory on outputs written out here: the shapes a real run of each runner prints
 * (runners.test.ts runs the runners themselves), the cases a real run rarely shows (a failing hook,
 * a test's own output that looks like a test line, two runs in one output), and outputs that name
 * only some tests, which must give no inventory rather than a partial one.
 */

const lines = (outcome: TestOutcome | null) => outcome?.tests?.map((test) => `${test.outcome} ${test.id}`);

const MOCHA_SPEC = `
> pkg@1.0.0 test
> mocha --reporter spec


  ✔ top level
  app
    ✔ slow one (120ms)
    ✔ same title
    ✔ same title
    routes
      1) "before each" hook for "gets"

  lib
    - pending one


  4 passing (200ms)
  1 pending
  1 failing

  1) app
       routes
         "before each" hook for "gets":
     Error: no server
      at Context.<anonymous> (test/app.js:4:11)
`;

describe('mocha spec output', () => {
  it('names every test by its suites, as the failure epilogue does; a failing hook is the failure mocha counts; a title twice is two tests', () => {
    const outcome = parseSummaryLines(MOCHA_SPEC);
    expect(outcome?.counts).toEqual({ passed: 4, failed: 1, skipped: 1, total: 6 });
    expect(lines(outcome)).toEqual([
      'passed top level',
      'passed app slow one',
      'passed app same title',
      'passed app same title',
      'failed app routes "before each" hook for "gets"',
      'skipped lib pending one',
    ]);
    expect(outcome?.failures.map((failure) => failure.testId)).toEqual(['app routes "before each" hook for "gets"']);
  });

  it('adds the trees of two runs in one output', () => {
    const second = '\n  other\n    ✓ works\n\n\n  1 passing (1ms)\n';
    expect(
      parseSummaryLines(`${MOCHA_SPEC}${second}`)
        ?.tests?.map((test) => test.id)
        .at(-1),
    ).toBe('other works');
    expect(parseSummaryLines(`${MOCHA_SPEC}${second}`)?.tests).toHaveLength(7);
  });

  it('gives no inventory when the tree does not add up: a test printing a line like a test line, a dropped line, or the dot reporter', () => {
    expect(
      parseSummaryLines(
        MOCHA_SPEC.replace('    ✔ slow one (120ms)\n', '    ✔ slow one (120ms)\n    ✔ printed by the test\n'),
      )?.tests,
    ).toBeUndefined();
    expect(parseSummaryLines(MOCHA_SPEC.replace('    - pending one\n', ''))?.tests).toBeUndefined();
    const dots =
      '\n  ․․․․,!\n\n  4 passing (200ms)\n  1 pending\n  1 failing\n\n  1) app\n       routes\n         "before each" hook for "gets":\n     Error: no server\n';
    expect(parseSummaryLines(dots)).toMatchObject({ counts: { total: 6 }, tests: undefined });
  });

  it('reads the list reporter’s full titles without their `: 3ms`', () => {
    // What mocha --reporter list prints, its carriage returns made line breaks as the Verifier reads them.
    const list =
      '\n    top level: \n  ✔ top level: 0ms\n    app works: \n  ✔ app works: 12ms\n    app fails: \n  1) app fails\n  - app later\n\n  2 passing (5ms)\n  1 pending\n  1 failing\n\n  1) app\n       fails:\n     Error: no\n';
    expect(lines(parseSummaryLines(list))).toEqual([
      'passed top level',
      'passed app works',
      'failed app fails',
      'skipped app later',
    ]);
  });

  it('gives no inventory when a failing line names another test than the epilogue', () => {
    expect(
      parseSummaryLines(MOCHA_SPEC.replace('      1) "before each" hook for "gets"', '      1) something else'))?.tests,
    ).toBeUndefined();
  });
});

describe('combined outputs', () => {
  const pytestVerbose =
    'tests/test_a.py::test_one PASSED [ 50%]\ntests/test_a.py::test_two FAILED [100%]\n=== short test summary info ===\nFAILED tests/test_a.py::test_two - assert 0\n====== 1 failed, 1 passed in 0.01s ======\n';

  it('concatenates the inventories when every runner in the output has one', () => {
    const outcome = parseSummaryLines(`${MOCHA_SPEC}${pytestVerbose}`);
    expect(outcome).toMatchObject({ runner: 'mocha + pytest', counts: { total: 8 } });
    expect(outcome?.tests).toHaveLength(8);
    expect(lines(outcome)?.slice(-2)).toEqual(['passed tests/test_a.py::test_one', 'failed tests/test_a.py::test_two']);
  });

  it('has none when one of them has none', () => {
    const pytestQuiet =
      '.F\n=== short test summary info ===\nFAILED tests/test_a.py::test_two - assert 0\n1 failed, 1 passed in 0.01s\n';
    expect(parseSummaryLines(`${MOCHA_SPEC}${pytestQuiet}`)).toMatchObject({ counts: { total: 8 }, tests: undefined });
    const withTests = parseSummaryLines(MOCHA_SPEC) as TestOutcome;
    expect(combineOutcomes([withTests, { ...withTests, tests: undefined }])?.tests).toBeUndefined();
    expect(combineOutcomes([withTests, withTests])?.tests).toHaveLength(12);
  });
});

describe('pytest text output', () => {
  it('-v: a test that passed and then errored in teardown is two results, as pytest counts it', () => {
    const output =
      'tests/test_a.py::test_x PASSED     [ 50%]\ntests/test_a.py::test_x ERROR      [ 50%]\ntests/test_a.py::test_p[a b] SKIPPED (later) [100%]\n=== short test summary info ===\nERROR tests/test_a.py::test_x - RuntimeError: teardown\n=== 1 passed, 1 skipped, 1 error in 0.02s ===\n';
    const outcome = parseSummaryLines(output);
    expect(outcome?.counts).toEqual({ passed: 1, failed: 1, skipped: 1, total: 3 });
    expect(lines(outcome)).toEqual([
      'passed tests/test_a.py::test_x',
      'failed tests/test_a.py::test_x',
      'skipped tests/test_a.py::test_p[a b]',
    ]);
    expect(outcome?.tests?.[0]?.file).toBe('tests/test_a.py');
  });

  it('-rA: the short summary names every test, unless a skip is listed by its place only', () => {
    const summary =
      '=== short test summary info ===\nPASSED tests/test_a.py::test_one\nXFAIL tests/test_a.py::test_known - bug\nFAILED tests/test_a.py::test_two - assert 0\n';
    expect(lines(parseSummaryLines(`${summary}=== 1 failed, 1 passed, 1 xfailed in 0.01s ===\n`))).toEqual([
      'passed tests/test_a.py::test_one',
      'skipped tests/test_a.py::test_known',
      'failed tests/test_a.py::test_two',
    ]);
    const withSkip = `${summary}SKIPPED [1] tests/test_a.py:9: later\n=== 1 failed, 1 passed, 1 skipped, 1 xfailed in 0.01s ===\n`;
    expect(parseSummaryLines(withSkip)).toMatchObject({ counts: { total: 4 }, tests: undefined });
  });
});

describe('go test output', () => {
  const verbose = `=== RUN   TestPasses
--- PASS: TestPasses (0.00s)
=== RUN   TestOuter
=== RUN   TestOuter/inner_passes
=== RUN   TestOuter/inner_fails
    add_test.go:15: Add(1, 1) = 2, want 3
=== RUN   TestOuter/skipped
    add_test.go:18: later
--- FAIL: TestOuter (0.00s)
    --- PASS: TestOuter/inner_passes (0.00s)
    --- FAIL: TestOuter/inner_fails (0.00s)
    --- SKIP: TestOuter/skipped (0.00s)
FAIL
FAIL	example.com/suite	0.002s
`;

  it('-v: the leaf tests, named as go names them', () => {
    const outcome = parseSummaryLines(verbose);
    expect(outcome?.counts).toEqual({ passed: 2, failed: 1, skipped: 1, total: 4 });
    expect(lines(outcome)).toEqual([
      'passed TestPasses',
      'passed TestOuter/inner_passes',
      'failed TestOuter/inner_fails',
      'skipped TestOuter/skipped',
    ]);
  });

  it('-json: the same', () => {
    const events = [
      { Action: 'run', Test: 'TestPasses' },
      { Action: 'pass', Test: 'TestPasses' },
      { Action: 'run', Test: 'TestOuter/inner_fails' },
      { Action: 'output', Test: 'TestOuter/inner_fails', Output: '    add_test.go:15: want 3\n' },
      { Action: 'fail', Test: 'TestOuter/inner_fails' },
      { Action: 'fail', Test: 'TestOuter' },
    ];
    expect(lines(parseSummaryLines(events.map((event) => JSON.stringify({ Time: 't', ...event })).join('\n')))).toEqual(
      ['passed TestPasses', 'failed TestOuter/inner_fails'],
    );
  });

  it('without -v go prints only the failing tests: no inventory', () => {
    const quiet =
      '--- FAIL: TestOuter (0.00s)\n    --- FAIL: TestOuter/inner_fails (0.00s)\n        add_test.go:15: want 3\nFAIL\nFAIL\texample.com/suite\t0.002s\n';
    expect(parseSummaryLines(quiet)).toMatchObject({ counts: { failed: 1 }, tests: undefined });
  });
});

describe('cargo, unittest, jest, vitest, node and TAP', () => {
  it('cargo: doc-tests and should-panic tests by their libtest names; --quiet dots give none', () => {
    const output =
      'running 2 tests\ntest tests::boom - should panic ... ok\ntest tests::later ... ignored, slow\n\ntest result: ok. 1 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out\n\nrunning 1 test\ntest src/lib.rs - add (line 3) ... FAILED\n\nfailures:\n\n---- src/lib.rs - add (line 3) stdout ----\nassertion failed\n\nfailures:\n    src/lib.rs - add (line 3)\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n';
    const outcome = parseSummaryLines(output);
    expect(lines(outcome)).toEqual(['passed tests::boom', 'skipped tests::later', 'failed src/lib.rs - add (line 3)']);
    expect(outcome?.failures.map((failure) => failure.testId)).toEqual(['src/lib.rs - add (line 3)']);
    expect(
      parseSummaryLines(
        'running 2 tests\n.i\ntest result: ok. 1 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out\n',
      )?.tests,
    ).toBeUndefined();
  });

  it('unittest -v: older Pythons name only the class in parentheses, so the method is added (to failures too); a docstring moves the result to the next line', () => {
    const output =
      'test_a (tests.test_x.T) ... ok\ntest_b (tests.test_x.T)\nChecks b. ... FAIL\n\n======================================================================\nFAIL: test_b (tests.test_x.T)\nChecks b.\n----------------------------------------------------------------------\nTraceback (most recent call last):\n  File "/r/tests/test_x.py", line 5, in test_b\n    self.fail("no")\nAssertionError: no\n\n----------------------------------------------------------------------\nRan 2 tests in 0.001s\n\nFAILED (failures=1)\n';
    const outcome = parseSummaryLines(output);
    expect(lines(outcome)).toEqual(['passed tests.test_x.T.test_a', 'failed tests.test_x.T.test_b']);
    expect(outcome?.failures[0]?.testId).toBe('tests.test_x.T.test_b');
  });

  it('jest JSON: every assertion with its file; a file that failed to run is a failure but no test', () => {
    const report = {
      numPassedTests: 1,
      numFailedTests: 1,
      numPendingTests: 1,
      numTodoTests: 1,
      numTotalTests: 4,
      testResults: [
        {
          name: '/r/a.test.js',
          assertionResults: [
            { ancestorTitles: ['a'], title: 'ok', status: 'passed', failureMessages: [] },
            {
              ancestorTitles: ['a', 'b'],
              title: 'bad',
              status: 'failed',
              failureMessages: ['Error: no\n    at x (/r/a.test.js:3:1)'],
            },
            { ancestorTitles: [], title: 'later', status: 'pending', failureMessages: [] },
            { ancestorTitles: [], title: 'some day', status: 'todo', failureMessages: [] },
          ],
        },
        {
          name: '/r/broken.test.js',
          message: 'SyntaxError',
          testExecError: { message: 'SyntaxError' },
          assertionResults: [],
        },
      ],
    };
    const outcome = parseJestJson(JSON.stringify(report), '/r');
    expect(outcome?.failures.map((failure) => failure.testId)).toEqual([
      'a › b › bad',
      'broken.test.js: Test suite failed to run',
    ]);
    expect(outcome?.tests).toEqual([
      { id: 'a › ok', outcome: 'passed', file: 'a.test.js' },
      { id: 'a › b › bad', outcome: 'failed', file: 'a.test.js' },
      { id: 'later', outcome: 'skipped', file: 'a.test.js' },
      { id: 'some day', outcome: 'skipped', file: 'a.test.js' },
    ]);
  });

  it('jest verbose text: one tree per file, a test’s console output inside it names no test', () => {
    const output =
      'PASS ./a.test.js\n  console.log\n    hello\n\n      at Object.log (a.test.js:2:11)\n\n  a\n    ✓ ok (3 ms)\nFAIL ./b.test.js\n  b\n    inner\n      ✕ bad (1 ms)\n    ○ skipped later\n\n  ● b › inner › bad\n\n    no\n\nTests:       1 failed, 1 skipped, 1 passed, 3 total\n';
    expect(lines(parseSummaryLines(output))).toEqual(['passed a › ok', 'failed b › inner › bad', 'skipped b › later']);
  });

  it('vitest: the verbose reporter names every test; the default one does not', () => {
    const verbose =
      ' ✓ test/a.test.ts > a > ok 2ms\n × test/a.test.ts > a > bad 1ms\n   → no\n ↓ test/a.test.ts > later\n\n⎯⎯⎯ Failed Tests 1 ⎯⎯⎯\n\n FAIL  test/a.test.ts > a > bad\nError: no\n ❯ test/a.test.ts:3:9\n\n Test Files  1 failed (1)\n      Tests  1 failed | 1 passed | 1 skipped (3)\n';
    expect(parseSummaryLines(verbose)?.tests).toEqual([
      { id: 'test/a.test.ts > a > ok', outcome: 'passed', file: 'test/a.test.ts' },
      { id: 'test/a.test.ts > a > bad', outcome: 'failed', file: 'test/a.test.ts' },
      { id: 'test/a.test.ts > later', outcome: 'skipped', file: 'test/a.test.ts' },
    ]);
    const defaults =
      ' ❯ test/a.test.ts (3 tests | 1 failed | 1 skipped) 4ms\n     ✓ ok 2ms\n     × bad 1ms\n\n⎯⎯⎯ Failed Tests 1 ⎯⎯⎯\n\n FAIL  test/a.test.ts > a > bad\nError: no\n\n Test Files  1 failed (1)\n      Tests  1 failed | 1 passed | 1 skipped (3)\n';
    expect(parseSummaryLines(defaults)).toMatchObject({ counts: { total: 3 }, tests: undefined });
  });

  it('node spec: a failing todo test counts as todo (skipped), as node counts it', () => {
    const output =
      '▶ s\n  ✔ ok (1ms)\n  ✖ some day (1ms) # TODO\n  ﹣ later (0ms) # SKIP\n▶ s (3ms)\nℹ tests 3\nℹ suites 1\nℹ pass 1\nℹ fail 0\nℹ cancelled 0\nℹ skipped 1\nℹ todo 1\nℹ duration_ms 5\n';
    expect(lines(parseSummaryLines(output))).toEqual(['passed s > ok', 'skipped s > some day', 'skipped s > later']);
  });

  it('TAP: test points by their subtest path; a point holding subtests is a suite, not a test', () => {
    const output =
      'TAP version 13\n# Subtest: s\n    # Subtest: a\n    ok 1 - a\n    # Subtest: b\n    not ok 2 - b\n    # Subtest: c\n    ok 3 - c # SKIP\n    1..3\nnot ok 1 - s\n1..1\n# tests 3\n# pass 1\n# fail 1\n# skipped 1\n';
    expect(lines(parseSummaryLines(output))).toEqual(['passed s > a', 'failed s > b', 'skipped s > c']);
  });
});

describe('completeInventory', () => {
  it('keeps a list only when it adds up to the counts outcome by outcome', () => {
    const tests = [
      { id: 'a', outcome: 'passed' as const },
      { id: 'b', outcome: 'failed' as const },
    ];
    expect(completeInventory(tests, { passed: 1, failed: 1, skipped: 0, total: 2 })).toBe(tests);
    expect(completeInventory(tests, { passed: 2, failed: 0, skipped: 0, total: 2 })).toBeUndefined();
    expect(completeInventory(tests, { passed: 1, failed: 1, skipped: 1, total: 3 })).toBeUndefined();
  });
});
