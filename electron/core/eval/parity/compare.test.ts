import { describe, expect, it } from 'vitest';
import { compareWithReference, inventoryMatches } from './compare';
import type { ReferenceResult } from './referenceReports';

const report = (tests: ReferenceResult['tests']): ReferenceResult => {
  const count = (outcome: string) => tests.filter((test) => test.outcome === outcome).length;
  const failures = tests
    .filter((test) => test.outcome === 'failed')
    .map((test) => ({ testId: test.testId, message: 'boom' }));
  return {
    counts: { passed: count('passed'), failed: count('failed'), skipped: count('skipped'), total: tests.length },
    firstFailure: failures[0] ? { ...failures[0], file: null } : null,
    failures,
    tests,
  };
};

describe('comparing with a runner’s own report', () => {
  it('names a pytest test dotted only up to its parameters, which may hold `::` themselves', () => {
    const theirs = report([
      { testId: 'tests.test_grouping.test_cast[select foo::integer from bar]', outcome: 'failed' },
    ]);
    const ours = {
      counts: theirs.counts,
      firstFailure: { testId: 'tests/test_grouping.py::test_cast[select foo::integer from bar]', message: 'boom' },
    };
    expect(compareWithReference(ours, theirs, 'pytest-dotted').name).toBe(true);
    expect(
      inventoryMatches(
        [{ id: 'tests/test_grouping.py::test_cast[select foo::integer from bar]', outcome: 'failed' }],
        theirs,
        'pytest-dotted',
      ),
    ).toBe(true);
  });

  it('matches inventories as multisets of id and outcome, whatever their order', () => {
    const theirs = report([
      { testId: 'a', outcome: 'passed' },
      { testId: 'a', outcome: 'passed' },
      { testId: 'b', outcome: 'failed' },
    ]);
    expect(
      inventoryMatches(
        [
          { id: 'b', outcome: 'failed' },
          { id: 'a', outcome: 'passed' },
          { id: 'a', outcome: 'passed' },
        ],
        theirs,
        'exact',
      ),
    ).toBe(true);
    expect(
      inventoryMatches(
        [
          { id: 'b', outcome: 'failed' },
          { id: 'a', outcome: 'passed' },
        ],
        theirs,
        'exact',
      ),
    ).toBe(false);
    expect(
      inventoryMatches(
        [
          { id: 'b', outcome: 'passed' },
          { id: 'a', outcome: 'passed' },
          { id: 'a', outcome: 'passed' },
        ],
        theirs,
        'exact',
      ),
    ).toBe(false);
    expect(inventoryMatches(null, theirs, 'exact')).toBe(false);
  });

  it('compares ids without what a JUnit report cannot carry: control characters, and spaces at either end', () => {
    const theirs = report([{ testId: 'test/a.test.ts > parse > \u0000http://x ', outcome: 'passed' }]);
    expect(inventoryMatches([{ id: 'test/a.test.ts > parse > http://x', outcome: 'passed' }], theirs, 'exact')).toBe(
      true,
    );
  });
});
