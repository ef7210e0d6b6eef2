import type { RunState } from '../engine/runState';
import type { RunView, TestView } from './types';

/** The run's numbers as the window shows them: one answer, taken from the projection (docs/decisions.md). */
export interface RunFigures {
  attempts: number;
  fixCycles: number;
  plans: number;
  replans: number;
  verifyLoops: number;
  failuresInARow: number;
  failedSteps: number;
  completedSteps: number;
  totalSteps: number;
  /** Step verification runs (not the preflight run), green and red: a count of runs, not of tests. */
  verifyRunsGreen: number;
  verifyRunsRed: number;
  /** The newest step verification run's status, or null before the first. */
  lastVerify: TestView['status'] | null;
}

/**
 * The saved state's counters when it is as new as the log, else the log's (a live run between two
 * state writes): the state knows resets the log does not carry, the log knows what came after the state.
 */
export function runFigures(view: RunView, state: RunState): RunFigures {
  const stateStep = state.plans.flatMap((plan) => plan.steps).find((candidate) => candidate.id === state.current_step_id);
  const stepRuns = view.tests.filter((test) => test.purpose === 'step');
  const green = stepRuns.filter((test) => test.status === 'PASS').length;
  const lastVerify = stepRuns.at(-1)?.status ?? null;
  const steps = Object.values(view.steps);
  if (view.lastSeq <= state.log_seq) {
    return {
      attempts: stateStep?.attempts ?? 0,
      fixCycles: state.counters.fix_cycles,
      plans: state.counters.plan_attempts,
      replans: state.counters.replans,
      verifyLoops: state.counters.total_verify_loops,
      failuresInARow: state.counters.consecutive_verify_failures,
      failedSteps: state.metrics.failed_steps,
      completedSteps: state.metrics.completed_steps,
      totalSteps: state.metrics.total_steps,
      verifyRunsGreen: state.metrics.verifications_passed,
      verifyRunsRed: state.metrics.verifications_failed,
      lastVerify,
    };
  }
  const step = view.currentStepId ? view.steps[view.stepKeyById[view.currentStepId] ?? ''] : undefined;
  return {
    attempts: step?.attempts ?? stateStep?.attempts ?? 0,
    fixCycles: view.counters.fixCycle,
    plans: Math.max(view.counters.planAttempts, state.counters.plan_attempts),
    replans: Math.max(view.counters.replans, state.counters.replans),
    verifyLoops: view.counters.totalVerifyLoops,
    failuresInARow: view.counters.consecutiveVerifyFailures,
    failedSteps: steps.filter((candidate) => candidate.status === 'failed').length,
    completedSteps: Math.max(state.metrics.completed_steps, steps.filter((candidate) => candidate.status === 'completed').length),
    totalSteps: state.metrics.total_steps,
    // Anything but PASS counts red, as the engine counts verifications.
    verifyRunsGreen: Math.max(state.metrics.verifications_passed, green),
    verifyRunsRed: Math.max(state.metrics.verifications_failed, stepRuns.length - green),
    lastVerify,
  };
}
