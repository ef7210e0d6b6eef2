import { describe, expect, it } from 'vitest';
import { codeTokens, parseSource, type CodeToken } from './codeTokens';

const show = (tokens: CodeToken[]) =>
  tokens.map(
    (token) =>
      `${token.start}${token.end === token.start ? '' : `-${token.end}`}:${token.isComment ? '#' : token.isMember ? '.' : token.isName ? '$' : ''}${token.text.replace(/\s+/g, ' ')}`,
  );

describe('codeTokens', () => {
  it('reads Python docstrings and comments as comments, strings whole, attributes and keyword names as members', async () => {
    const source = 'def f(a):\n    """Doc\n    more"""\n    x = a.total + 1  # note\n    return g(key=f"{x}")\n';
    expect(show(await codeTokens('m.py', source))).toEqual([
      '1:def',
      '1:$f',
      '1:(',
      '1:$a',
      '1:)',
      '1::',
      '2-3:#"""Doc more"""',
      '4:$x',
      '4:=',
      '4:$a',
      '4:.',
      '4:.total',
      '4:+',
      '4:1',
      '4:## note',
      '5:return',
      '5:$g',
      '5:(',
      '5:.key',
      '5:=',
      '5:f"{x}"',
      '5:)',
    ]);
  });

  it('reads JSDoc as a comment, regexes and template strings whole, properties as members', async () => {
    const source = '/**\n * Doc.\n */\nfunction f(a) {\n  return /\\/\\//.test(`${a.b}`);\n}\n';
    expect(show(await codeTokens('a.js', source))).toEqual([
      '1-3:#/** * Doc. */',
      '4:function',
      '4:$f',
      '4:(',
      '4:$a',
      '4:)',
      '4:{',
      '5:return',
      '5:/\\/\\//',
      '5:.',
      '5:.test',
      '5:(',
      '5:`${a.b}`',
      '5:)',
      '5:;',
      '6:}',
    ]);
  });

  it('walks only the lines asked for, whole tokens that touch them included', async () => {
    const parsed = await parseSource('m.py', 'x = 1\ns = """a\nb"""\ny = 2\n');
    try {
      expect(show(parsed.tokensIn(3, 2))).toEqual(['2-3:"""a b"""', '4:$y', '4:=', '4:2']);
      expect(parsed.lines).toBe(4);
      expect(parsed.tokensIn(1, 0)).toEqual([]);
    } finally {
      parsed.close();
    }
    expect(() => parsed.tokensIn(1, 1)).toThrow(/tokens read after its syntax tree was freed/);
  });

  it('reads a file without a grammar as plain tokens, none of them a name (a changed word is an edit, not a rename)', async () => {
    expect(show(await codeTokens('notes.md', 'Use "total" here\n'))).toEqual(['1:Use', '1:"total"', '1:here']);
  });
});
