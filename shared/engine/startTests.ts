import type { Transition } from './actions';
import type { PendingEvent } from './runEvents';
import { testedHead } from './attemptGuard';
import { EXIT_INFRA, EXIT_SUCCESS, finishRun } from './finish';
import type { Workflow } from './workflows';
import type { RunState, TestSummary } from './runState';
import { feedbackFrom } from './testFeedback';

/** Where a run goes once its workspace is ready: the tests at the start when there is a command to run them. */
export function phaseAfterPrepare(workflow: Workflow, testCommand: string[] | null): RunState['phase'] {
  if (workflow.preflight_test || testCommand !== null) return 'preflight';
  return workflow.scouts ? 'scouting' : 'planning';
}

/**
 * The suite at the run's start. Every workflow records it as the baseline later verifications are
 * compared with (a test that goes missing is a weakened suite, an attempt that fails more tests than
 * its base is undone). Seed 001 also acts on it: green means nothing to do, red is the first feedback.
 */
export function afterStartTests(
  state: RunState,
  workflow: Workflow,
  test: TestSummary,
  purpose: 'preflight' | 'baseline',
): Transition {
  const baseline = { status: test.status, counts: test.counts, commit: state.head };
  const recorded: RunState = { ...state, last_test: test, baseline, tested_head: testedHead(state, test) };
  const event: PendingEvent = { role: 'verifier', type: 'test_result', data: { purpose, ...test } };
  if (test.status === 'INFRA_ERROR') {
    // Nothing a model writes can make a command run that cannot start: say so before any model call.
    const ended = finishRun(
      recorded,
      workflow.stuck_report ? 'stuck' : 'failed',
      EXIT_INFRA,
      `the test command could not run: ${test.reason ?? 'unknown reason'}`,
    );
    return { state: ended.state, events: [event, ...ended.events] };
  }
  const next = workflow.scouts ? 'scouting' : 'planning';
  if (purpose === 'baseline') return { state: { ...recorded, phase: next }, events: [event] };
  if (test.passed) {
    const ended = finishRun(recorded, 'complete', EXIT_SUCCESS, 'nothing to do: the tests already pass');
    return { state: ended.state, events: [event, ...ended.events] };
  }
  // The failing tests the run starts from: the evidence a later green shows the change is tested (seed 004's done).
  const failure = {
    step_id: null,
    status: test.status,
    first_failure: test.first_failure ? `${test.first_failure.test_id}: ${test.first_failure.message}` : null,
    report: test.excerpt || test.report.slice(0, 1500),
    artifact_dir: test.artifact_dir,
  };
  return {
    state: {
      ...recorded,
      phase: next,
      feedback: feedbackFrom(test, 'first_failure', workflow.failure_view),
      failure_history: [...recorded.failure_history, failure].slice(-5),
    },
    events: [event],
  };
}
