import { describe, expect, it } from 'vitest';
import { countChangedLines } from './lineCounts';

describe('countChangedLines', () => {
  it('counts added and removed lines, new and deleted files', () => {
    expect(countChangedLines('a\nb\nc\n', 'a\nB\nc\nd\n')).toEqual({ added: 2, removed: 1 });
    expect(countChangedLines(null, 'x\ny\n')).toEqual({ added: 2, removed: 0 });
    expect(countChangedLines('x\ny', null)).toEqual({ added: 0, removed: 2 });
    expect(countChangedLines('same\n', 'same\n')).toEqual({ added: 0, removed: 0 });
    expect(countChangedLines('', null)).toEqual({ added: 0, removed: 0 });
  });
});
