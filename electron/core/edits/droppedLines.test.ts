import { describe, expect, it } from 'vitest';
import { droppedLinesMessage, droppedRuns } from './droppedLines';

/** A module of `count` small functions, 4 lines each (3 of code, 1 blank). */
function moduleOf(count: number): string[] {
  return Array.from({ length: count }, (_, index) => [
    `def f${index}(x):`,
    `    y = x + ${index}`,
    '    return y',
    '',
  ]).flat();
}
const text = (lines: string[]) => `${lines.join('\n')}\n`;

describe('droppedRuns', () => {
  it('names a long run left out with nothing in its place, in the original line numbers', () => {
    const lines = moduleOf(30);
    const after = [...lines.slice(0, 40), ...lines.slice(64)];
    expect(droppedRuns(text(lines), text(after))).toEqual([{ first: 41, last: 64 }]);
  });

  it('names a file cut short: a third of a small file is gone', () => {
    const lines = moduleOf(9);
    expect(droppedRuns(text(lines), text(lines.slice(0, 24)))).toEqual([{ first: 25, last: 36 }]);
  });

  it('lets through what fixes do: a few lines deleted, a block rewritten, small deletions in a small file', () => {
    const lines = moduleOf(30);
    expect(droppedRuns(text(lines), text([...lines.slice(0, 8), ...lines.slice(14)]))).toEqual([]);
    const rewritten = [
      ...lines.slice(0, 40),
      ...Array.from({ length: 6 }, (_, index) => `    z${index} = compute(${index})`),
      ...lines.slice(70),
    ];
    expect(droppedRuns(text(lines), text(rewritten))).toEqual([]);
    const small = moduleOf(3);
    expect(droppedRuns(text(small), text([...small.slice(0, 4), ...small.slice(8)]))).toEqual([]);
  });

  it('counts runs of code only: blank lines removed are not code', () => {
    const lines = ['a = 1', ...Array.from({ length: 30 }, () => ''), 'b = 2'];
    expect(droppedRuns(text(lines), 'a = 1\nb = 2\n')).toEqual([]);
  });

  it('ignores trailing whitespace and line endings when it lines the versions up', () => {
    const lines = moduleOf(30);
    expect(droppedRuns(lines.map((line) => `${line}  \r\n`).join(''), text(lines))).toEqual([]);
  });
});

describe('droppedLinesMessage', () => {
  it('names each range with an ASCII hyphen, one line as `line A`, and says what a whole-file answer must do', () => {
    expect(
      droppedLinesMessage([
        { first: 41, last: 64 },
        { first: 90, last: 90 },
      ]),
    ).toBe(
      'your answer leaves out lines 41-64 and line 90 of the file and puts nothing in their place; a whole-file answer must repeat every line it keeps: write the complete file, changing only what the task needs',
    );
    const many = Array.from({ length: 8 }, (_, index) => ({ first: index * 10 + 1, last: index * 10 + 5 }));
    expect(droppedLinesMessage(many)).toContain(
      'lines 1-5, lines 11-15, lines 21-25, lines 31-35, lines 41-45 and lines 51-55 of the file (and 2 more places)',
    );
  });
});
