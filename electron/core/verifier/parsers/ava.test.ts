import { describe, expect, it } from 'vitest';
import { parseAvaOutput } from './ava';

// ava's default reporter on query-string (issue 30's wider corpus): a `test.failing` is a known failure.
const passing = [
  '  ✔ parse › a',
  '  ✔ parse › b',
  '  ✔ [expected fail] properties › reads back',
  '  ─',
  '',
  '  2 tests passed',
  '  1 known failure',
  '',
].join('\n');
const failing = [
  '  ✔ parse › a',
  '  ✘ [fail]: parse › b should be 1',
  '  ✔ [expected fail] properties › reads back',
  '  ─',
  '',
  '  parse › b',
  '',
  '  Difference (- actual, + expected):',
  '  - 2',
  '  + 1',
  '',
  '  › file://test/parse.js:12:4',
  '',
  '  ─',
  '',
  '  1 test failed',
  '  1 known failure',
  '',
].join('\n');

describe('ava: a known failure (test.failing)', () => {
  it('counts as passed whether or not other tests fail, so the total stays the same', () => {
    const green = parseAvaOutput(passing);
    const red = parseAvaOutput(failing);
    expect(green?.counts).toMatchObject({ passed: 3, failed: 0, total: 3 });
    expect(red?.counts).toMatchObject({ passed: 2, failed: 1, total: 3 });
  });

  it('names it by its title, without the [expected fail] mark, in both', () => {
    expect(parseAvaOutput(passing)?.tests?.map((test) => test.id)).toContain('properties › reads back');
    expect(parseAvaOutput(failing)?.tests?.find((test) => test.id === 'properties › reads back')).toEqual({
      id: 'properties › reads back',
      outcome: 'passed',
    });
  });
});
