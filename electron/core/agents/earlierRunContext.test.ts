import { describe, expect, it } from 'vitest';
import type { BuiltContext } from '../context/contextAssembly';
import { withEarlierRun } from './earlierRunContext';

/** A ranked context that fills whatever budget it is given with one file item. */
const ranked = async (budgetTokens: number): Promise<BuiltContext> => ({
  items: [{ id: 'file:src/stats.js', text: 'x'.repeat(budgetTokens * 4), priority: 1000 }],
  included: [
    { id: 'file:src/stats.js', path: 'src/stats.js', kind: 'file', tokens: budgetTokens, reason: 'ranked #1' },
  ],
  dropped: [],
  budgetTokens,
  usedTokens: budgetTokens,
});

const EARLIER = {
  runId: '20260101T000000Z',
  text: `### Earlier run 20260101T000000Z\nGoal: fix median\n${'+diff line\n'.repeat(2_000)}`,
};

describe('withEarlierRun', () => {
  it('adds the earlier run within a fifth of the budget, after the ranked files and below them in priority', async () => {
    const built = await withEarlierRun(EARLIER, ranked)(4_000);
    const item = built.items.find((entry) => entry.id === 'run:20260101T000000Z');
    expect(item?.text).toContain('Goal: fix median');
    expect(item?.text).toContain('(earlier run cut to fit the context)');
    expect(Math.min(...built.items.filter((entry) => entry !== item).map((entry) => entry.priority))).toBeGreaterThan(
      item?.priority ?? Infinity,
    );
    const entry = built.included.find((included) => included.kind === 'run');
    expect(entry).toMatchObject({ path: '20260101T000000Z', reason: 'the earlier run this one follows up on' });
    expect(entry?.tokens).toBeLessThanOrEqual(800);
    expect(built.usedTokens).toBeLessThanOrEqual(4_000);
  });

  it('leaves a budget too small for it to the ranked files, and says it dropped it', async () => {
    const built = await withEarlierRun(EARLIER, ranked)(500);
    expect(built.items.map((item) => item.id)).toEqual(['file:src/stats.js']);
    expect(built.dropped).toEqual([
      expect.objectContaining({
        id: 'run:20260101T000000Z',
        kind: 'run',
        reason: 'the earlier run this one follows up on; no room',
      }),
    ]);
  });

  it('changes nothing for a run that follows up on none', async () => {
    expect(withEarlierRun(null, ranked)).toBe(ranked);
  });
});
