import { describe, expect, it } from 'vitest';
import { toSummary, type RunStateHeader } from './listRuns';

const header: RunStateHeader = {
  run_id: '20261122T033736Z',
  goal: 'fix median',
  workflow: 'dev-agent',
  status: 'complete',
  branch: 'lathe/20261122T033736Z',
  created_at: '2026-11-22T03:37:36.000Z',
  // Merged almost four minutes later: the merge rewrote updated_at.
  updated_at: '2026-11-22T03:41:28.000Z',
  elapsed_ms: 6800,
  commits: ['a1'],
  closed: { action: 'merged', at: '2026-11-22T03:41:28.000Z', seq: 40, into: 'main', commit: 'a1' },
  phase: 'finished',
  follow_up_of: null,
};

describe("a run's list entry", () => {
  it('keeps the run’s own duration after a merge or undo, not the time until it (issue 29: 6.8 s became 3 min 52 s)', () => {
    expect(toSummary(header).durationMs).toBe(6800);
    expect(
      toSummary({
        ...header,
        closed: { action: 'undone', at: '2026-11-22T03:41:28.000Z', seq: 41, into: null, commit: 'b0' },
      }),
    ).toMatchObject({ durationMs: 6800, branch: null });
  });
});
