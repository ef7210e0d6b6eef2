import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../../../shared/schemas/run';
import { FollowUpNotice, FollowUpOf, followUpBlockedBecause } from './RunChain';

const render = (element: ReactElement) => renderToStaticMarkup(element).replaceAll('<!-- -->', '');
const PARENT = '20261122T033735Z';
const summary = (change: Partial<RunSummary> = {}): RunSummary => ({
  runId: '20261122T040000Z',
  goal: 'also handle an empty list',
  workflow: 'minimal',
  status: 'complete',
  branch: 'lathe/20261122T040000Z',
  startedAt: '2026-11-22T04:00:00.000Z',
  updatedAt: '2026-11-22T04:01:00.000Z',
  durationMs: 6800,
  commits: 1,
  closed: null,
  resumable: false,
  followUpOf: null,
  ...change,
});

describe('the run chain in History', () => {
  it('links a follow-up to the run it continues, and the New run form names that run', () => {
    const link = render(<FollowUpOf parent={PARENT} onOpen={() => undefined} />);
    expect(link).toContain('data-testid="follow-up-of"');
    expect(link).toContain(`↳ follows up on ${PARENT}`);
    expect(render(<FollowUpNotice runId={PARENT} onClear={() => undefined} />)).toContain(
      `Follows up on run <code>${PARENT}</code>`,
    );
  });

  it('offers Follow up on a finished or failed run with a head to start from, as `lathe run --follow-up` does', () => {
    expect(followUpBlockedBecause(summary(), false)).toBeNull();
    expect(followUpBlockedBecause(summary({ status: 'failed' }), false)).toBeNull();
    expect(
      followUpBlockedBecause(
        summary({ closed: { action: 'merged', at: 't', seq: 9, into: 'main', commit: 'c'.repeat(40) } }),
        true,
      ),
    ).toBeNull();
    expect(followUpBlockedBecause(summary({ status: 'running' }), false)).toBe('The run is still going on');
    expect(
      followUpBlockedBecause(
        summary({ closed: { action: 'undone', at: 't', seq: 9, into: null, commit: null }, branch: null }),
        false,
      ),
    ).toMatch(/undone/);
    expect(followUpBlockedBecause(summary({ status: 'failed', branch: null, commits: 0 }), false)).toBe(
      'The run never made a branch',
    );
    expect(followUpBlockedBecause(summary(), true)).toBe('The run’s branch is gone');
  });
});
