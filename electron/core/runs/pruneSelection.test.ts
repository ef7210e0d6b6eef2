import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../../shared/schemas/run';
import { matchesPrune, type PruneFilter } from './pruneSelection';

const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const DAY = 86_400_000;

function run(
  status: RunSummary['status'],
  options: { closed?: 'undone' | 'merged'; resumable?: boolean; daysAgo?: number } = {},
): Pick<RunSummary, 'status' | 'closed' | 'resumable' | 'updatedAt'> {
  return {
    status,
    closed: options.closed
      ? { action: options.closed, at: '2026-03-01T00:00:00.000Z', seq: 9, into: null, commit: null }
      : null,
    resumable: options.resumable ?? false,
    updatedAt: new Date(NOW - (options.daysAgo ?? 0) * DAY).toISOString(),
  };
}

const all: PruneFilter = { statuses: null, olderThanMs: null, now: NOW };

describe('matchesPrune', () => {
  it('by default: failed, stuck, aborted, out-of-time and undone runs that cannot resume; never complete, merged, running, paused or waiting', () => {
    expect(
      ['failed', 'stuck', 'aborted', 'time_expired'].map((status) =>
        matchesPrune(run(status as RunSummary['status']), all),
      ),
    ).toEqual([true, true, true, true]);
    expect(matchesPrune(run('complete', { closed: 'undone' }), all)).toBe(true);
    expect(matchesPrune(run('complete'), all)).toBe(false);
    expect(matchesPrune(run('complete', { closed: 'merged' }), all)).toBe(false);
    expect(
      ['running', 'paused', 'waiting_for_gate'].map((status) =>
        matchesPrune(run(status as RunSummary['status'], { resumable: true }), all),
      ),
    ).toEqual([false, false, false]);
    expect(matchesPrune(run('aborted', { resumable: true }), all)).toBe(false);
    expect(matchesPrune(run('time_expired', { resumable: true }), all)).toBe(false);
  });

  it('with --status: exactly the statuses named, resumable runs and merged runs included', () => {
    const named = (statuses: PruneFilter['statuses']): PruneFilter => ({ ...all, statuses });
    expect(matchesPrune(run('aborted', { resumable: true }), named(['aborted']))).toBe(true);
    expect(matchesPrune(run('running', { resumable: true }), named(['running']))).toBe(true);
    expect(matchesPrune(run('complete', { closed: 'merged' }), named(['merged']))).toBe(true);
    expect(matchesPrune(run('complete', { closed: 'merged' }), named(['complete']))).toBe(false);
    expect(matchesPrune(run('failed'), named(['undone']))).toBe(false);
  });

  it('with --older-than: only runs last changed at least that long ago', () => {
    const week: PruneFilter = { ...all, olderThanMs: 7 * DAY };
    expect(matchesPrune(run('failed', { daysAgo: 8 }), week)).toBe(true);
    expect(matchesPrune(run('failed', { daysAgo: 7 }), week)).toBe(true);
    expect(matchesPrune(run('failed', { daysAgo: 6 }), week)).toBe(false);
    expect(matchesPrune({ ...run('failed'), updatedAt: 'not a date' }, week)).toBe(false);
  });
});
