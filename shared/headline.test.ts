import { describe, expect, it } from 'vitest';
import { firstLine, goalLine, headline, shortenAtWord } from './headline';

const LONG =
  'Add a --verbose flag to the CLI that prints every step of the parser, and document it in the README with an example of its output';

describe('shortenAtWord', () => {
  it('keeps a text that fits, on one line', () => {
    expect(shortenAtWord('  fix\tthe  median ', 72)).toBe('fix the median');
  });

  it('cuts at the last word boundary that fits and marks the cut', () => {
    const short = shortenAtWord(LONG, 72);
    expect(short.length).toBeLessThanOrEqual(72);
    expect(short).toBe('Add a --verbose flag to the CLI that prints every step of the parser…');
    expect(LONG.startsWith(short.slice(0, -1))).toBe(true);
  });

  it('keeps a word that ends exactly at the room', () => {
    expect(shortenAtWord('abc def ghi', 8)).toBe('abc def…');
  });

  it('cuts inside one very long word rather than showing nothing', () => {
    expect(shortenAtWord(`see ${'x'.repeat(100)}`, 20)).toBe(`see ${'x'.repeat(15)}…`);
  });

  it('never leaves half of a surrogate pair', () => {
    const cut = shortenAtWord(`${'a'.repeat(8)}😀😀😀`, 10);
    expect(cut).toBe(`${'a'.repeat(8)}…`);
  });
});

describe('firstLine and headline', () => {
  it('takes the first line with text and says whether more follow', () => {
    expect(firstLine('\n\n  Fix median  \n\nIt returns the mean.\n')).toEqual({ line: 'Fix median', more: true });
    expect(firstLine('Fix median\n\n')).toEqual({ line: 'Fix median', more: false });
    expect(firstLine('  ')).toEqual({ line: '', more: false });
  });

  it('marks lines it leaves out, within the width', () => {
    expect(headline('Fix median\nIt returns the mean.', 60)).toBe('Fix median …');
    expect(headline('Fix median', 60)).toBe('Fix median');
    const cut = headline(`${'word '.repeat(12).trim()}\nmore`, 60);
    expect(cut.length).toBeLessThanOrEqual(60);
    expect(cut.endsWith('…')).toBe(true);
    expect(headline('abcdefghi\nmore', 10)).toBe('abcdefg…');
  });
});

describe('goalLine', () => {
  it('shows a multi-line goal’s first line with an ellipsis marker, and a one-line goal as it is (issue 29)', () => {
    expect(goalLine('Fix median()\n\nIt returns the mean; add a test.')).toBe('Fix median() …');
    expect(goalLine('\n  Fix median()  \n')).toBe('Fix median()');
    expect(goalLine('Fix median() and document it')).toBe('Fix median() and document it');
  });
});
