import { describe, expect, it } from 'vitest';
import { compareInventory, weakenedFeedback, type InventorySnapshot } from './testInventory';

const passed = (...ids: string[]) => ids.map((id) => ({ id, outcome: 'passed' as const }));
function snapshot(tests: { id: string; outcome: 'passed' | 'failed' | 'skipped' }[], named = true): InventorySnapshot {
  const count = (outcome: string) => tests.filter((test) => test.outcome === outcome).length;
  return {
    counts: { passed: count('passed'), failed: count('failed'), skipped: count('skipped'), total: tests.length },
    tests: named ? tests : null,
  };
}

describe('the test inventory against the run start (issue 26)', () => {
  const start = snapshot([...passed('a::one', 'a::two'), { id: 'a::three', outcome: 'failed' }]);

  it('a suite that still has every test is not weakened, whatever now passes or fails', () => {
    const fixed = snapshot(passed('a::one', 'a::two', 'a::three'));
    expect(compareInventory(start, fixed)).toMatchObject({
      compared: 'names',
      weakened: false,
      missing_count: 0,
      before_total: 3,
      after_total: 3,
    });
    const added = snapshot(passed('a::one', 'a::two', 'a::three', 'a::four'));
    expect(compareInventory(start, added)?.weakened).toBe(false);
  });

  it('a removed test is missing, a renamed one too, even when the total stays', () => {
    const removed = compareInventory(start, snapshot(passed('a::one', 'a::two')));
    expect(removed).toMatchObject({ weakened: true, missing: ['a::three'], after_total: 2 });
    const renamed = compareInventory(start, snapshot(passed('a::one', 'a::two', 'a::three_fixed')));
    expect(renamed).toMatchObject({ weakened: true, missing: ['a::three'], before_total: 3, after_total: 3 });
  });

  it('a test that ran and is now skipped weakens the suite', () => {
    const skipped = compareInventory(
      start,
      snapshot([...passed('a::one', 'a::two'), { id: 'a::three', outcome: 'skipped' }]),
    );
    expect(skipped).toMatchObject({ weakened: true, skipped_now: ['a::three'], missing_count: 0 });
  });

  it('counts ids as a multiset: one of two same-named parametrised tests going away is missing', () => {
    const twice = snapshot(passed('p[x]', 'p[x]'));
    expect(compareInventory(twice, snapshot(passed('p[x]')))).toMatchObject({ weakened: true, missing: ['p[x]'] });
  });

  it('without names (a runner that names only failures) it compares the totals', () => {
    const byCount = compareInventory(snapshot(passed('a', 'b', 'c'), false), snapshot(passed('a', 'b'), false));
    expect(byCount).toMatchObject({ compared: 'totals', weakened: true, missing_count: 0 });
    expect(compareInventory(snapshot(passed('a', 'b'), false), snapshot(passed('x', 'y'), false))?.weakened).toBe(
      false,
    );
  });

  it('says nothing when either run reported no counts', () => {
    expect(compareInventory({ counts: null, tests: null }, start)).toBeNull();
    expect(compareInventory(start, { counts: null, tests: null })).toBeNull();
  });

  it('tells the writer what went missing and what to do instead, naming the changed test files', () => {
    const check = compareInventory(start, snapshot(passed('a::one')), ['tests/test_a.py']);
    expect(check).not.toBeNull();
    const text = weakenedFeedback(check as NonNullable<typeof check>);
    expect(text).toMatch(/^TESTS_WEAKENED: the run started with 3 tests; this change leaves 1\./);
    expect(text).toContain('- a::two');
    expect(text).toContain('tests/test_a.py');
    expect(text).toContain('change the code under test instead');
  });
});

describe('adding tests to an existing test file changes none of its tests', () => {
  it('tells pure additions from edits and deletions', async () => {
    const { onlyAddsLines } = await import('./testInventory');
    const before = "test('a', () => {});\ntest('b', () => {});\n";
    expect(onlyAddsLines(before, `${before}test('c', () => {});\n`)).toBe(true);
    expect(onlyAddsLines(before, "test('a', () => {});\ntest('new', () => {});\ntest('b', () => {});\n")).toBe(true);
    expect(onlyAddsLines(before, "test('a', () => {});\ntest('b', () => { assert.ok(1); });\n")).toBe(false);
    expect(onlyAddsLines(before, "test('a', () => {});\n")).toBe(false);
  });
});

describe('a test file that could not load at the start', () => {
  it('is one failing entry named after the file; once it loads, its tests take its place', () => {
    const start = snapshot([{ id: '/tmp/w/test/twins.test.js', outcome: 'failed' }]);
    const loaded = snapshot(passed('twins > a', 'twins > b', 'twins > c', 'twins > d'));
    expect(compareInventory(start, loaded)).toMatchObject({
      weakened: false,
      missing_count: 0,
      before_total: 1,
      after_total: 4,
    });
    // Deleting the file instead leaves fewer tests than the start.
    expect(compareInventory(start, snapshot([]))?.weakened).toBe(true);
    const pytest = snapshot([{ id: 'tests/test_a.py', outcome: 'failed' }, ...passed('tests/test_b.py::test_b')]);
    expect(
      compareInventory(pytest, snapshot(passed('tests/test_a.py::test_a', 'tests/test_b.py::test_b')))?.weakened,
    ).toBe(false);
  });
});
