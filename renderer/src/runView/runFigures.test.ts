import { describe, expect, it } from 'vitest';
import { recordedLog } from './fixtures/loadLog';
import { buildRunView } from '../../../shared/runView/reduceRunEvents';
import { runFigures } from '../../../shared/runView/runFigures';
import { runStateFixture } from '../testing/runStateFixture';

const log = recordedLog('supervised');
const runId = log[0]?.run_id ?? '';
const stepRuns = log.filter((event) => event.type === 'test_result' && event.data.purpose === 'step');

describe('the run figures of the projection', () => {
  it('come from the saved state when it is as new as the log', () => {
    const view = buildRunView(log, runId);
    const state = runStateFixture(runId, { log_seq: view.lastSeq });
    state.metrics = { ...state.metrics, completed_steps: 7, total_steps: 9, verifications_passed: 5, verifications_failed: 4 };
    expect(runFigures(view, state)).toMatchObject({ completedSteps: 7, totalSteps: 9, verifyRunsGreen: 5, verifyRunsRed: 4 });
  });

  it('come from the log when it has moved past the saved state, as a live run between two state reads', () => {
    const last = log.at(-1);
    // The run's preflight test run is not a verification and counts neither way.
    const preflight = { ts: last?.ts ?? '', seq: (last?.seq ?? 0) + 1, run_id: runId, role: 'verifier' as const, type: 'test_result', data: { purpose: 'preflight', status: 'FAIL', passed: false, exit_code: 1 } };
    const view = buildRunView([...log, preflight], runId);
    expect(view.tests.at(-1)?.purpose).toBe('preflight');
    const state = runStateFixture(runId, { log_seq: 1 });
    const green = stepRuns.filter((event) => event.data.status === 'PASS').length;
    expect(green).toBeGreaterThan(0);
    expect(stepRuns.length - green).toBeGreaterThan(0);
    const completed = log.filter((event) => event.type === 'step_completed').length;
    expect(runFigures(view, state)).toMatchObject({ completedSteps: completed, verifyRunsGreen: green, verifyRunsRed: stepRuns.length - green });
  });

  it('name the last verification run, never the preflight, beside the count of runs', () => {
    const last = log.at(-1);
    const preflight = { ts: last?.ts ?? '', seq: (last?.seq ?? 0) + 1, run_id: runId, role: 'verifier' as const, type: 'test_result', data: { purpose: 'preflight', status: 'FAIL', passed: false, exit_code: 1 } };
    const view = buildRunView([...log, preflight], runId);
    const lastStepRun = stepRuns.at(-1)?.data.status;
    expect(lastStepRun).toBeDefined();
    expect(runFigures(view, runStateFixture(runId, { log_seq: 1 })).lastVerify).toBe(lastStepRun);
    expect(runFigures(view, runStateFixture(runId, { log_seq: view.lastSeq })).lastVerify).toBe(lastStepRun);
  });
});
