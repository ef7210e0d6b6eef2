import { describe, expect, it } from 'vitest';
import { parseJUnit } from './junit';
import { lastLines, truncateReport } from '../basics/outputText';
import { prepareCommand, runnerOf } from './runnerFlags';
import type { TestOutcome } from './parsers/outcome';
import { parseSummaryLines } from './summaryLines';

/** Counts and the first failure's id and message: what these small cases check. */
function brief(outcome: TestOutcome | null) {
  const first = outcome?.failures[0];
  return (
    outcome && { counts: outcome.counts, firstFailure: first ? { testId: first.testId, message: first.message } : null }
  );
}

// docs/seeds.md 0.18
describe('truncateReport (seed 000)', () => {
  it('keeps up to 4000 characters as they are', () => {
    const text = 'x'.repeat(4000);
    expect(truncateReport(text)).toBe(text);
  });
  it('cuts longer text to the first 2500, "\\n...\\n", and the last 1000', () => {
    const text = `${'a'.repeat(2500)}${'m'.repeat(3000)}${'z'.repeat(1000)}`;
    expect(truncateReport(text)).toBe(`${'a'.repeat(2500)}\n...\n${'z'.repeat(1000)}`);
  });
});

describe('lastLines (seed 004)', () => {
  it('returns the last n lines, ignoring one trailing newline', () => {
    const text = Array.from({ length: 300 }, (_, index) => `l${index}`).join('\n') + '\n';
    const tail = lastLines(text, 200);
    expect(tail.split('\n')).toHaveLength(200);
    expect(tail.startsWith('l100\n')).toBe(true);
    expect(tail.endsWith('l299')).toBe(true);
    expect(lastLines('a\nb', 5)).toBe('a\nb');
    expect(lastLines('a\nb', 0)).toBe('');
  });
});

describe('parseJUnit', () => {
  it('reads pytest XML: counts, skips, and the first failure with its message', () => {
    const xml = `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="1" skipped="1" tests="4">
      <testcase classname="tests.test_a" name="test_one" time="0.001"/>
      <testcase classname="tests.test_a" name="test_two" time="0.001"><failure message="assert 1 == 2&#10;extra">trace</failure></testcase>
      <testcase classname="tests.test_a" name="test_three"><skipped type="pytest.skip" message="later"/></testcase>
      <testcase classname="tests.test_b" name="test_err"><error message="fixture blew up"/></testcase>
    </testsuite></testsuites>`;
    expect(brief(parseJUnit(xml))).toEqual({
      counts: { passed: 1, failed: 2, skipped: 1, total: 4 },
      firstFailure: { testId: 'tests.test_a::test_two', message: 'assert 1 == 2\nextra' },
    });
  });

  it('reads node --test XML with nested suites and names the failure by its suite path', () => {
    const xml = `<testsuites><testsuite name="outer"><testsuite name="inner"><testcase name="deep" classname="test"><failure type="testCodeFailure" message="boom">detail</failure></testcase></testsuite><testcase name="ok" classname="test"/></testsuite><testcase name="top" classname="test"/></testsuites>`;
    expect(brief(parseJUnit(xml))).toEqual({
      counts: { passed: 2, failed: 1, skipped: 0, total: 3 },
      firstFailure: { testId: 'outer > inner > deep', message: 'boom' },
    });
  });

  it('returns null for something that is not JUnit', () => {
    expect(parseJUnit('<html><body>no</body></html>')).toBeNull();
    expect(parseJUnit('not xml <<<')).toBeNull();
  });
});

describe('parseSummaryLines', () => {
  it('reads pytest -q output and its FAILED line', () => {
    const output =
      'F.s\n=== short test summary info ===\nFAILED tests/test_x.py::test_y - AssertionError: nope\n1 failed, 1 passed, 1 skipped in 0.03s\n';
    expect(brief(parseSummaryLines(output))).toEqual({
      counts: { passed: 1, failed: 1, skipped: 1, total: 3 },
      firstFailure: { testId: 'tests/test_x.py::test_y', message: 'AssertionError: nope' },
    });
  });
  it('reads node --test spec and TAP totals', () => {
    expect(
      parseSummaryLines(
        '✖ adds (1.2ms)\nℹ tests 3\nℹ suites 0\nℹ pass 2\nℹ fail 1\nℹ cancelled 0\nℹ skipped 0\nℹ todo 0\n',
      )?.counts,
    ).toEqual({ passed: 2, failed: 1, skipped: 0, total: 3 });
    expect(brief(parseSummaryLines('not ok 2 - adds\n# tests 2\n# pass 1\n# fail 1\n'))).toEqual({
      counts: { passed: 1, failed: 1, skipped: 0, total: 2 },
      firstFailure: { testId: 'adds', message: '' },
    });
  });
  it('reads jest, vitest, cargo and the plain closing line', () => {
    expect(parseSummaryLines('Tests:       1 failed, 4 passed, 5 total\n')?.counts).toEqual({
      passed: 4,
      failed: 1,
      skipped: 0,
      total: 5,
    });
    expect(parseSummaryLines('\u001b[2m      Tests \u001b[22m 2 failed | 7 passed (9)\n')?.counts).toEqual({
      passed: 7,
      failed: 2,
      skipped: 0,
      total: 9,
    });
    const cargo =
      'test a ... ok\ntest b ... FAILED\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured\ntest result: ok. 3 passed; 0 failed; 1 ignored; 0 measured\n';
    expect(brief(parseSummaryLines(cargo))).toEqual({
      counts: { passed: 4, failed: 1, skipped: 1, total: 6 },
      firstFailure: { testId: 'b', message: '' },
    });
    expect(parseSummaryLines('unit: 12 passed, 0 failed\n')?.counts).toEqual({
      passed: 12,
      failed: 0,
      skipped: 0,
      total: 12,
    });
    expect(parseSummaryLines('nothing to see here')).toBeNull();
  });
});

describe('prepareCommand', () => {
  it('adds JUnit and no-cache flags for pytest, keeping argv an array', () => {
    const prepared = prepareCommand(['/usr/bin/python3', '-m', 'pytest', '-q'], '/art', undefined);
    expect(prepared.runner).toBe('pytest');
    expect(prepared.argv).toEqual([
      '/usr/bin/python3',
      '-m',
      'pytest',
      '-q',
      '--junitxml',
      '/art/junit.xml',
      '-p',
      'no:cacheprovider',
    ]);
    expect(
      prepareCommand(['pytest', '-p', 'no:cacheprovider'], '/art', undefined).argv.filter(
        (arg) => arg === 'no:cacheprovider',
      ),
    ).toHaveLength(1);
  });
  it('puts node --test reporters first: spec to stdout, JUnit to the artifact dir', () => {
    expect(prepareCommand(['node', '--test', 'test/'], '/art', undefined).argv).toEqual([
      'node',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=junit',
      '--test-reporter-destination=/art/junit.xml',
      '--test',
      'test/',
    ]);
  });
  it('recognises runners and leaves others alone', () => {
    expect(runnerOf(['npx', 'vitest', 'run'])).toBe('vitest');
    expect(runnerOf(['python3.11', '-m', 'pytest'])).toBe('pytest');
    expect(prepareCommand(['npx', 'jest'], '/art', undefined)).toMatchObject({
      argv: ['npx', 'jest', '--ci', '--json', '--outputFile=/art/jest.json'],
      jsonFile: '/art/jest.json',
    });
    expect(prepareCommand(['npx', 'jest', '--json', '--outputFile=mine.json'], '/art', undefined)).toMatchObject({
      argv: ['npx', 'jest', '--json', '--outputFile=mine.json', '--ci'],
      jsonFile: null,
    });
    expect(prepareCommand(['go', 'test', './...'], '/art', undefined).argv).toEqual(['go', 'test', '-v', './...']);
    expect(runnerOf(['npx', 'playwright', 'test'])).toBe('playwright');
    expect(runnerOf(['npx', 'playwright', 'install'])).toBe('other');
    expect(prepareCommand(['npx', 'playwright', 'test'], '/art', undefined)).toMatchObject({
      argv: ['npx', 'playwright', 'test', '--reporter=list,junit', '--output=/art/playwright'],
      junitFile: '/art/junit.xml',
      env: { PLAYWRIGHT_JUNIT_OUTPUT_NAME: '/art/junit.xml' },
    });
    expect(prepareCommand(['playwright', 'test', '--reporter=dot'], '/art', undefined)).toMatchObject({
      argv: ['playwright', 'test', '--reporter=dot', '--output=/art/playwright'],
      junitFile: null,
    });
    expect(prepareCommand(['go', 'test', '-json', './...'], '/art', undefined).argv).toEqual([
      'go',
      'test',
      '-json',
      './...',
    ]);
    expect(prepareCommand(['make', 'test'], '/art', ['a.c'])).toMatchObject({
      argv: ['make', 'test'],
      junitFile: null,
      coverage: null,
    });
  });
  it('runs every cargo test binary: --no-fail-fast before any `--`, never twice', () => {
    expect(prepareCommand(['cargo', 'test'], '/art', undefined)).toMatchObject({
      argv: ['cargo', 'test', '--no-fail-fast'],
      runner: 'cargo',
    });
    expect(prepareCommand(['cargo', 'test', '--offline', '--', '--test-threads=1'], '/art', undefined).argv).toEqual([
      'cargo',
      'test',
      '--offline',
      '--no-fail-fast',
      '--',
      '--test-threads=1',
    ]);
    expect(prepareCommand(['cargo', 'test', '--no-fail-fast'], '/art', undefined).argv).toEqual([
      'cargo',
      'test',
      '--no-fail-fast',
    ]);
    expect(runnerOf(['cargo', 'build'])).toBe('other');
  });
});
