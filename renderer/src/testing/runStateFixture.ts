import { configFromWorkflow } from '../../../shared/engine/configFromWorkflow';
import { initialState } from '../../../shared/engine/initialState';
import { WORKFLOWS } from '../../../shared/engine/workflows';
import type { RunState } from '../../../shared/engine/runState';

/** A persisted run state as `run/get` returns it, for a supervised run. */
export function runStateFixture(runId: string, change: Partial<RunState> = {}): RunState {
  const state = initialState({
    runId,
    goal: 'fix median',
    goalHash: 'hash',
    config: configFromWorkflow(WORKFLOWS.supervised),
    now: '2026-11-22T03:37:35.000Z',
    nowMs: Date.parse('2026-11-22T03:37:35.000Z'),
  });
  return { ...state, ...change };
}
