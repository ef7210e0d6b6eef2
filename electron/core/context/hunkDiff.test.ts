import { describe, expect, it } from 'vitest';
import { lineDiff } from '../../../shared/diff/lineDiff';
import { diffBlocks } from './hunkDiff';

// toolz's itertoolz.py: a function whose docstring holds a blank line, then the next function.
const ROWS = [
  'def remove(predicate, seq):',
  '    """ Return those items of sequence for which predicate(item) is False',
  '',
  '    >>> def iseven(x):',
  '    ...     return x % 2 == 0',
  '    >>> list(remove(iseven, [1, 2, 3, 4]))',
  '    [1, 3]',
  '    """',
  '    return filterfalse(predicate, seq)',
  '',
  '',
  'def accumulate(binop, seq, initial=no_default):',
  '    """ Repeatedly apply binary function to a sequence, accumulating results',
  '',
];

describe('diffBlocks', () => {
  it('keeps a deleted function one block where the plain line diff splits it on a matching blank line', () => {
    const before = `${ROWS.join('\n')}\n`;
    const after = `${ROWS.slice(10).join('\n')}\n`;
    expect(lineDiff(before, after).changes).toHaveLength(2);
    expect(diffBlocks(before, after)).toEqual([{ oldFirst: 1, oldCount: 10, newFirst: 1, newCount: 0 }]);
  });

  it('never slides a pure run into a replacement nearby: an edit and a deletion two blank lines apart stay two blocks', () => {
    const before = ['a = 1', '', '', 'def f():', '    return 1', '', '', 'b = 2', ''].join('\n');
    const after = ['a = 2', '', '', 'b = 2', ''].join('\n');
    expect(diffBlocks(before, after)).toEqual([
      { oldFirst: 1, oldCount: 1, newFirst: 1, newCount: 1 },
      { oldFirst: 4, oldCount: 4, newFirst: 4, newCount: 0 },
    ]);
  });

  it('reports insertions and replacements with 1-based first lines, adjacent changes merged', () => {
    expect(diffBlocks('a\nb\nc\n', 'a\nx\nb\nc\nd\n')).toEqual([
      { oldFirst: 2, oldCount: 0, newFirst: 2, newCount: 1 },
      { oldFirst: 4, oldCount: 0, newFirst: 5, newCount: 1 },
    ]);
    expect(diffBlocks('a\nb\nc\n', 'a\nB\nC\n')).toEqual([{ oldFirst: 2, oldCount: 2, newFirst: 2, newCount: 2 }]);
  });
});
