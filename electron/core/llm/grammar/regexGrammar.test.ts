import { describe, expect, it } from 'vitest';
import { gbnfMatcher } from '../../../../test-support/gbnfMatcher';
import { patternMaxLength, patternToGbnf } from './regexGrammar';
import { complementRanges } from './regexParser';

function stringMatcher(pattern: string, cap = 20) {
  const compiled = patternToGbnf(pattern, cap);
  if (!compiled) throw new Error(`unsupported: ${pattern}`);
  return gbnfMatcher(`root ::= "\\"" ${compiled.content} "\\""`);
}

describe('regex patterns as GBNF', () => {
  it.each([
    ['^T[1-9][0-9]?$', ['T1', 'T99'], ['T0', 'T100', 'X1', 't1']],
    ['^plan_[0-9]{4}$', ['plan_0001'], ['plan_001', 'plan_00001', 'plan-0001']],
    ['^(?:feat|fix)/[a-z-]{1,5}$', ['feat/ab', 'fix/a-b'], ['chore/x', 'feat/', 'feat/abcdef']],
    ['^[^/]+\\.py$', ['a.py', 'x_y.py'], ['a/b.py', '.py', 'a.pyc']],
    ['^\\d+(\\.\\d+)?$', ['3', '3.14'], ['3.', '.5', 'a']],
    ['^\\w+\\s\\w+$', ['hello world'], ['hello  world', 'hello']],
    ['^a.c$', ['abc', 'a-c'], ['ac', 'a\nc']],
  ])('%s', (pattern, good, bad) => {
    const matcher = stringMatcher(pattern);
    for (const text of good) expect(matcher.matches(JSON.stringify(text)), text).toBe(true);
    for (const text of bad) expect(matcher.matches(JSON.stringify(text)), text).toBe(false);
  });

  it('treats missing anchors as JSON schema does: the match may be anywhere', () => {
    const matcher = stringMatcher('ab');
    expect(matcher.matches('"xxabyy"')).toBe(true);
    expect(matcher.matches('"ab"')).toBe(true);
    expect(matcher.matches('"a b"')).toBe(false);
  });

  it('encodes characters JSON must escape', () => {
    const matcher = stringMatcher('^["\\\\\\n]{2}$');
    expect(matcher.matches(JSON.stringify('"\\'))).toBe(true);
    expect(matcher.matches(JSON.stringify('\n"'))).toBe(true);
    expect(matcher.matches('"\n\n"')).toBe(false);
  });

  it('caps unbounded repetition at the given length', () => {
    const matcher = stringMatcher('^a+$', 3);
    expect(matcher.matches('"aaa"')).toBe(true);
    expect(matcher.matches('"aaaa"')).toBe(false);
  });

  it.each(['(?=a)b', 'a\\1', '\\bword', '\\p{L}', 'a(?<!b)c', 'a^b'])('refuses %s (outside the subset)', (pattern) => {
    expect(patternToGbnf(pattern, 10)).toBeNull();
  });

  it('computes the longest match of bounded patterns', () => {
    expect(patternMaxLength('^T[1-9][0-9]?$')).toBe(3);
    expect(patternMaxLength('^(ab|cde){2}$')).toBe(6);
    expect(patternMaxLength('^a+$')).toBeNull();
    expect(patternMaxLength('abc')).toBeNull();
  });

  it('complements character ranges within the BMP', () => {
    expect(complementRanges([[0x30, 0x39]])).toEqual([
      [0, 0x2f],
      [0x3a, 0xffff],
    ]);
    expect(complementRanges([[0, 0xffff]])).toEqual([]);
  });
});
