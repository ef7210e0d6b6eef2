import { describe, expect, it } from 'vitest';
import { lineDiff, type LineChange } from './lineDiff';

const linesOf = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));

/** `before` with every block replaced by its `after` lines, checking the lines between blocks agree. */
function replay(before: string, after: string, changes: LineChange[]): string[] {
  const from = linesOf(before);
  const to = linesOf(after);
  const out: string[] = [];
  let beforeLine = 1;
  let afterLine = 1;
  for (const change of changes) {
    expect(change.beforeStart - beforeLine).toBe(change.afterStart - afterLine);
    out.push(...from.slice(beforeLine - 1, change.beforeStart - 1));
    out.push(...to.slice(change.afterStart - 1, change.afterStart - 1 + change.afterLines));
    beforeLine = change.beforeStart + change.beforeLines;
    afterLine = change.afterStart + change.afterLines;
  }
  expect(from.length - beforeLine).toBe(to.length - afterLine);
  out.push(...from.slice(beforeLine - 1));
  return out;
}

describe('lineDiff', () => {
  it('pairs a removal with the addition beside it in one block, 1-based on each side', () => {
    expect(lineDiff('a\nb\nc\n', 'a\nB\nc\nd\n').changes).toEqual([
      { beforeStart: 2, beforeLines: 1, afterStart: 2, afterLines: 1 },
      { beforeStart: 4, beforeLines: 0, afterStart: 4, afterLines: 1 },
    ]);
    expect(lineDiff('a\nb\nc\n', 'a\nc\n').changes).toEqual([
      { beforeStart: 2, beforeLines: 1, afterStart: 2, afterLines: 0 },
    ]);
  });

  it('shows a new file as one insertion and a deleted one as one removal', () => {
    expect(lineDiff(null, 'x\ny\n')).toEqual({
      added: 2,
      removed: 0,
      changes: [{ beforeStart: 1, beforeLines: 0, afterStart: 1, afterLines: 2 }],
    });
    expect(lineDiff('x\ny\n', null)).toEqual({
      added: 0,
      removed: 2,
      changes: [{ beforeStart: 1, beforeLines: 2, afterStart: 1, afterLines: 0 }],
    });
    expect(lineDiff('same\n', 'same\n').changes).toEqual([]);
  });

  it('rebuilds the new text from the old one and its blocks', () => {
    const before = Array.from({ length: 600 }, (_, index) => `line ${index + 1}`);
    const after = before.flatMap((line, index) =>
      index % 37 === 0
        ? []
        : index % 50 === 0
          ? [`${line} changed`, 'added']
          : index % 91 === 0
            ? [line, 'extra', 'extra 2']
            : [line],
    );
    const beforeText = `${before.join('\n')}\n`;
    const afterText = `${after.join('\n')}\n`;
    const { added, removed, changes } = lineDiff(beforeText, afterText);
    expect(replay(beforeText, afterText, changes)).toEqual(after);
    expect(added).toBe(changes.reduce((sum, change) => sum + change.afterLines, 0));
    expect(removed).toBe(changes.reduce((sum, change) => sum + change.beforeLines, 0));
  });
});
