import { describe, expect, it } from 'vitest';
import { citesLines, isNamed } from './evidence';

const view = (feedback: string | null) => ({ feedback, maxTokens: 1024, format: 'search-replace' as const });

describe('fault evidence', () => {
  it.each([
    ['lines 730-736', true],
    ['line 735', true],
    ['Lines 735–740', true],
    ['lines 736 to 738', true],
    ['lines 700-729', false],
    ['line 737', false],
    ['735', false],
  ])('cites lines 730-736 in %j: %s', (text, cited) => {
    expect(citesLines(`toolz/itertoolz.py: ${text}`, [730, 736])).toBe(cited);
  });

  it('needs what each kind names, and no more', () => {
    const nearMiss = {
      kind: 'near-miss-search' as const,
      path: 'a.py',
      ranges: [[10, 12] as const, [14, 16] as const],
    };
    expect(isNamed(nearMiss, view('the closest match is at lines 15-17 of a.py'))).toBe(true);
    expect(isNamed(nearMiss, view('the search block was not found in a.py'))).toBe(false);
    const unrelated = { kind: 'unrelated-change' as const, path: 'lib/a.js', range: [40, 44] as const };
    expect(isNamed(unrelated, view('lib/a.js: lines 41-42 change code the task does not need'))).toBe(true);
    expect(isNamed(unrelated, view('lines 41-42 change code the task does not need'))).toBe(false);
    expect(isNamed(unrelated, view('lib/a.js changes code the task does not need'))).toBe(false);
    expect(isNamed({ kind: 'no-op' }, view('Your edit Changed Nothing in a.py'))).toBe(true);
    expect(isNamed({ kind: 'no-op' }, view(null))).toBe(false);
    expect(
      isNamed(
        { kind: 'wrong-path', path: 'lib/response.js', wrongPath: 'response.js' },
        view('response.js does not exist'),
      ),
    ).toBe(false);
    expect(
      isNamed(
        { kind: 'wrong-path', path: 'lib/response.js', wrongPath: 'response.js' },
        view('response.js does not exist; lib/response.js does'),
      ),
    ).toBe(true);
    expect(
      isNamed({ kind: 'elide', placeholder: '# ... existing code ...' }, view('line 3 is "# ... existing code ..."')),
    ).toBe(true);
    expect(isNamed({ kind: 'cut-off', maxTokens: 1024, format: 'search-replace' }, view('cut'))).toBe(false);
    expect(
      isNamed({ kind: 'cut-off', maxTokens: 1024, format: 'search-replace' }, { ...view(null), maxTokens: 1500 }),
    ).toBe(true);
    expect(
      isNamed(
        { kind: 'cut-off', maxTokens: 1024, format: 'search-replace' },
        { ...view(null), format: 'unified-diff' },
      ),
    ).toBe(true);
  });
});
