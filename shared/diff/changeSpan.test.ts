import { describe, expect, it } from 'vitest';
import { lineDiff } from './lineDiff';
import { changeSpan, spanCounts } from './changeSpan';

const commits = [{ sha: 'c1' }, { sha: 'c2' }, { sha: 'c3' }];

describe("a gate card's counts are the diff's", () => {
  it('spans the reviewed commits: from the parent of the first (the base for the run’s first) to the last', () => {
    expect(changeSpan(commits, ['c2', 'c3'])).toEqual({ from: 'c1', to: 'c3' });
    expect(changeSpan(commits, ['c1', 'c2'])).toEqual({ to: 'c2' });
    expect(changeSpan(commits, ['c3'])).toEqual({ from: 'c2', to: 'c3' });
    expect(changeSpan(commits, ['gone'])).toBeNull();
  });

  it('counts a line two edit sets touched once, as the diff of the span does (issue 29: +5 −3 on the card, +3 −1 in the diff)', () => {
    const base = 'a\nb\nc\n';
    const first = 'a\nB\nC\nd\n';
    const second = 'a\nB\nc2\nd\ne\n';
    const perCommit = [lineDiff(base, first), lineDiff(first, second)];
    const summed = perCommit.reduce(
      (sum, diff) => ({ added: sum.added + diff.added, removed: sum.removed + diff.removed }),
      { added: 0, removed: 0 },
    );
    const net = lineDiff(base, second);
    expect(summed).not.toEqual({ added: net.added, removed: net.removed });
    expect(spanCounts([{ path: 'f.txt', added: net.added, removed: net.removed }])).toEqual([
      { path: 'f.txt', added: 4, removed: 2 },
    ]);
  });
});
