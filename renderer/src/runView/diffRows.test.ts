import { describe, expect, it } from 'vitest';
import { lineDiff } from '../../../shared/diff/lineDiff';
import { diffRows, splitLines } from './diffRows';

describe('splitLines', () => {
  it('counts lines as the core line diff does', () => {
    expect(splitLines('a\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a\r\nb')).toEqual(['a', 'b']);
    expect(splitLines('')).toEqual([]);
    expect(splitLines(null)).toEqual([]);
    expect(splitLines('\n')).toEqual(['']);
  });
});

describe('diffRows', () => {
  const before = 'a\nb\nc\nd\n';
  const after = 'a\nB\nB2\nc\n';
  const { changes } = lineDiff(before, after);

  it('pairs removed and added lines on one row side by side, padding the shorter side', () => {
    expect(diffRows(4, 4, changes, true)).toEqual([
      { kind: 'same', before: 1, after: 1 },
      { kind: 'changed', before: 2, after: 2 },
      { kind: 'added', before: null, after: 3 },
      { kind: 'same', before: 3, after: 4 },
      { kind: 'removed', before: 4, after: null },
    ]);
  });

  it('lists removed lines before added ones inline', () => {
    expect(diffRows(4, 4, changes, false)).toEqual([
      { kind: 'same', before: 1, after: 1 },
      { kind: 'removed', before: 2, after: null },
      { kind: 'added', before: null, after: 2 },
      { kind: 'added', before: null, after: 3 },
      { kind: 'same', before: 3, after: 4 },
      { kind: 'removed', before: 4, after: null },
    ]);
  });

  it('shows every line of both texts once, in order, on a long file', () => {
    const old = Array.from({ length: 3000 }, (_, index) => `line ${index}`);
    const edited = old.flatMap((line, index) =>
      index % 40 === 0
        ? [`${line} changed`]
        : index % 500 === 0
          ? [line, '', 'added']
          : index % 777 === 0
            ? []
            : [line],
    );
    const diff = lineDiff(`${old.join('\n')}\n`, `${edited.join('\n')}\n`);
    for (const sideBySide of [true, false]) {
      const rows = diffRows(old.length, edited.length, diff.changes, sideBySide);
      const lefts = rows.flatMap((row) => (row.before === null ? [] : [row.before]));
      const rights = rows.flatMap((row) => (row.after === null ? [] : [row.after]));
      expect(lefts).toEqual(Array.from({ length: old.length }, (_, index) => index + 1));
      expect(rights).toEqual(Array.from({ length: edited.length }, (_, index) => index + 1));
      for (const row of rows) if (row.kind === 'same') expect(old[row.before! - 1]).toBe(edited[row.after! - 1]);
      expect(rows.filter((row) => row.kind !== 'same' && row.before !== null)).toHaveLength(diff.removed);
    }
  });

  it('shows a new file as added lines and cuts a block that runs past its text', () => {
    expect(diffRows(0, 2, lineDiff(null, 'x\ny\n').changes, true)).toEqual([
      { kind: 'added', before: null, after: 1 },
      { kind: 'added', before: null, after: 2 },
    ]);
    expect(diffRows(1, 1, [{ beforeStart: 1, beforeLines: 5, afterStart: 1, afterLines: 5 }], false)).toEqual([
      { kind: 'removed', before: 1, after: null },
      { kind: 'added', before: null, after: 1 },
    ]);
  });
});
