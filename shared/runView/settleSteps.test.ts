import { describe, expect, it } from 'vitest';
import type { RunLogEvent } from '../schemas/run';
import { buildRunView } from './reduceRunEvents';

/** Issue 29: a run that ended failed or stuck kept its step "in progress" in the window. */

let seq = 0;
const event = (role: string, type: string, data: Record<string, unknown>): RunLogEvent =>
  ({
    ts: `2026-11-22T03:37:${String(10 + ++seq).padStart(2, '0')}.000Z`,
    seq,
    run_id: '20261122T033735Z',
    role,
    type,
    data,
  }) as RunLogEvent;

function startedT1(): RunLogEvent[] {
  seq = 0;
  return [
    event('engine', 'run_started', { goal: 'fix median', workflow: 'supervised', seed: '002' }),
    event('planner', 'plan', {
      plan_id: 'plan_0001',
      depth: 0,
      parent_step_id: null,
      analysis: '',
      tasks: [
        {
          id: 'T1',
          title: 'Fix median()',
          rationale: '',
          acceptance: '',
          artifacts: [],
          complexity: 'simple',
          depends_on: [],
        },
        {
          id: 'T2',
          title: 'Document it',
          rationale: '',
          acceptance: '',
          artifacts: [],
          complexity: 'simple',
          depends_on: ['T1'],
        },
      ],
    }),
    event('engine', 'step_started', { step_id: 'T1', title: 'Fix median()', plan_id: 'plan_0001', depth: 0 }),
  ];
}

const statuses = (events: RunLogEvent[]) =>
  Object.values(buildRunView(events).steps).map((step) => [step.id, step.status, step.failReason]);

describe('steps of a run that ended', () => {
  it('failed or stuck: the step in progress failed with the run’s reason, as state.json says; the others stay pending', () => {
    for (const status of ['failed', 'stuck'] as const) {
      const events = [
        ...startedT1(),
        event('engine', 'run_finished', {
          status,
          exit_code: 1,
          reason: 'REPLAY_EXHAUSTED: no more coder entries',
          commits: [],
        }),
      ];
      expect(statuses(events)).toEqual([
        ['T1', 'failed', 'REPLAY_EXHAUSTED: no more coder entries'],
        ['T2', 'pending', null],
      ]);
    }
  });

  it('stopped to resume: the step shows stopped, never in progress, and a resume takes it up again', () => {
    const stopped = [
      ...startedT1(),
      event('engine', 'run_stopped', {
        status: 'paused',
        reason: 'paused by the user',
        phase: 'coding',
        resumable: true,
      }),
    ];
    expect(statuses(stopped)).toEqual([
      ['T1', 'stopped', null],
      ['T2', 'pending', null],
    ]);
    expect(statuses([...stopped, event('engine', 'run_resumed', {})])[0]).toEqual(['T1', 'in_progress', null]);
  });

  it('complete: the steps keep what their own events said', () => {
    const events = [
      ...startedT1(),
      event('engine', 'step_completed', { step_id: 'T1', commits: [] }),
      event('engine', 'run_finished', { status: 'complete', exit_code: 0, reason: 'done', commits: [] }),
    ];
    expect(statuses(events)[0]).toEqual(['T1', 'completed', null]);
  });
});
