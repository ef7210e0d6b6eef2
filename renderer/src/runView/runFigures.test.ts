import { describe, expect, it } from 'vitest';
import type { RunLogEvent } from '../../../shared/schemas/run';
import { recordedLog } from './fixtures/loadLog';
import { buildRunView } from '../../../shared/runView/reduceRunEvents';
import { eventsAfter, runFigures } from '../../../shared/runView/runFigures';
import { runStateFixture } from '../testing/runStateFixture';

const log = recordedLog('supervised');
const runId = log[0]?.run_id ?? '';
const lastSeq = log.at(-1)?.seq ?? 0;
const verifications = log.filter(
  (event) => event.type === 'test_result' && (event.data.purpose === 'step' || event.data.purpose === 'final'),
);

function later(seq: number, type: string, data: Record<string, unknown>): RunLogEvent {
  return { ts: log.at(-1)?.ts ?? '', seq, run_id: runId, role: 'verifier', type, data };
}

describe('the run figures of the projection', () => {
  it('are the saved state when it is as new as the log', () => {
    const view = buildRunView(log, runId);
    const state = runStateFixture(runId, { log_seq: view.lastSeq });
    state.metrics = {
      ...state.metrics,
      completed_steps: 7,
      total_steps: 9,
      verifications_passed: 5,
      verifications_failed: 4,
    };
    expect(runFigures(view, state, eventsAfter(log, state.log_seq))).toMatchObject({
      completedSteps: 7,
      totalSteps: 9,
      verifyRunsGreen: 5,
      verifyRunsRed: 4,
    });
  });

  it('are the state moved on by the events after it, as a live run between two state reads', () => {
    // The run's preflight test run is not a verification and counts neither way.
    const all = [
      ...log,
      later(lastSeq + 1, 'test_result', { purpose: 'preflight', status: 'FAIL', passed: false, exit_code: 1 }),
    ];
    const view = buildRunView(all, runId);
    const state = runStateFixture(runId, { log_seq: 1 });
    const green = verifications.filter((event) => event.data.status === 'PASS').length;
    expect(green).toBeGreaterThan(0);
    expect(verifications.length - green).toBeGreaterThan(0);
    const completed = log.filter((event) => event.type === 'step_completed').length;
    expect(runFigures(view, state, eventsAfter(all, 1))).toMatchObject({
      completedSteps: completed,
      verifyRunsGreen: green,
      verifyRunsRed: verifications.length - green,
    });
  });

  it('keep the counters a green run reset when a finished run logged more after its last save', () => {
    // The e2e screenshot's case: the state saved at the end says no failures in a row; the log's last
    // `counters` event (before the green run) said 1, and the run logs its report after the save.
    const all = [
      ...log,
      later(lastSeq + 1, 'counters', { consecutive_verify_failures: 1, total_verify_loops: 1, replans: 0 }),
      later(lastSeq + 2, 'test_result', { purpose: 'step', status: 'PASS' }),
      later(lastSeq + 3, 'report_written', { report: 'report.md' }),
    ];
    const view = buildRunView(all, runId);
    expect(view.counters.consecutiveVerifyFailures).toBe(1);
    const state = runStateFixture(runId, { log_seq: lastSeq + 2 });
    state.metrics = { ...state.metrics, verifications_passed: 4, verifications_failed: 1 };
    const figures = runFigures(view, state, eventsAfter(all, state.log_seq));
    expect(figures).toMatchObject({
      failuresInARow: 0,
      verifyLoops: 0,
      verifyRunsGreen: 4,
      verifyRunsRed: 1,
      lastVerify: 'PASS',
    });
  });

  it('count a green verification after the save and reset the failure counters with it', () => {
    const all = [...log, later(lastSeq + 1, 'test_result', { purpose: 'step', status: 'PASS' })];
    const view = buildRunView(all, runId);
    const state = runStateFixture(runId, { log_seq: lastSeq });
    state.counters = { ...state.counters, consecutive_verify_failures: 2, total_verify_loops: 3 };
    state.metrics = { ...state.metrics, verifications_passed: 4, verifications_failed: 2 };
    expect(runFigures(view, state, eventsAfter(all, lastSeq))).toMatchObject({
      verifyRunsGreen: 5,
      verifyRunsRed: 2,
      failuresInARow: 0,
      verifyLoops: 0,
      lastVerify: 'PASS',
    });
  });

  it('name the last verification run, never the preflight', () => {
    const all = [
      ...log,
      later(lastSeq + 1, 'test_result', { purpose: 'preflight', status: 'FAIL', passed: false, exit_code: 1 }),
    ];
    const view = buildRunView(all, runId);
    const lastRun = verifications.at(-1)?.data.status;
    expect(lastRun).toBeDefined();
    expect(runFigures(view, runStateFixture(runId, { log_seq: lastSeq }), []).lastVerify).toBe(lastRun);
  });

  it('finds the events after a seq from the end of the log', () => {
    expect(eventsAfter(log, lastSeq - 3).map((event) => event.seq)).toEqual([lastSeq - 2, lastSeq - 1, lastSeq]);
    expect(eventsAfter(log, lastSeq)).toEqual([]);
    expect(eventsAfter(log, 0)).toHaveLength(log.length);
  });
});
