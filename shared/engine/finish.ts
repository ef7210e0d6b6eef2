import type { ErrorCode } from '../errors';
import type { RunStatus, StoppedStatus } from '../schemas/run';
import type { Transition } from './actions';
import { currentStep, updateStep } from './planOps';
import type { Workflow } from './workflows';
import type { RunState } from './runState';

/** Exit codes (docs/cli.md): 0 success or nothing to do, 1 goal not met, 2 unrecoverable infra error. */
export const EXIT_SUCCESS = 0;
export const EXIT_GOAL_NOT_MET = 1;
export const EXIT_INFRA = 2;

/** Statuses that end a session; `aborted` (interrupted), `paused` and `time_expired` keep the phase, so a resume continues. */
const TERMINAL: readonly RunStatus[] = ['complete', 'failed', 'stuck', 'aborted', 'paused', 'time_expired'];

export function isTerminal(status: RunStatus): boolean {
  return TERMINAL.includes(status);
}

/**
 * Model errors no retry or replan can cure (docs/models.md marks them not retryable): the model file
 * will not load, memory will not grow, a replay transcript has no entry left, the spec is wrong, the
 * prompt (or a whole-file writer's files and answer) cannot fit the model's window.
 */
export const MODEL_UNAVAILABLE_CODES: readonly ErrorCode[] = [
  'MODEL_LOAD_FAILED',
  'INSUFFICIENT_MEMORY',
  'REPLAY_EXHAUSTED',
  'BAD_MODEL_SPEC',
  'CONTEXT_OVERFLOW',
];

/**
 * Ends the run for good: no resume continues a finished phase. `code` names the infrastructure error
 * that ended it (a failed effect, a model that cannot answer), for readers such as `lathe eval`.
 */
export function finishRun(
  state: RunState,
  status: RunStatus,
  exitCode: number,
  reason: string,
  code?: ErrorCode,
): Transition {
  const result =
    code === undefined ? { status, exit_code: exitCode, reason } : { status, exit_code: exitCode, reason, code };
  const closed = status === 'complete' ? state : failRunningSteps(state, reason);
  return {
    state: { ...closed, phase: 'finished', status, gate: null, result },
    events: [{ role: 'engine', type: 'run_finished', data: { ...result, commits: state.commits } }],
  };
}

/**
 * A run that ended without its goal leaves no step or plan "in progress": the steps it was running
 * failed with the run's reason (counted, as a failed step is), so its state, report and listings say so.
 */
function failRunningSteps(state: RunState, reason: string): RunState {
  const running = state.plans.flatMap((plan) => plan.steps.filter((step) => step.status === 'in_progress'));
  const plans = state.plans.map((plan) => ({
    ...plan,
    status: plan.status === 'in_progress' ? ('failed' as const) : plan.status,
    steps: plan.steps.map((step) =>
      step.status === 'in_progress'
        ? { ...step, status: 'failed' as const, fail_reason: step.fail_reason ?? reason }
        : step,
    ),
  }));
  return { ...state, plans, metrics: { ...state.metrics, failed_steps: state.metrics.failed_steps + running.length } };
}

/** Stops the session but keeps the phase, so `--resume` continues where it stopped (Ctrl-C, Pause, time limit). */
export function stopRun(state: RunState, status: StoppedStatus, reason: string): Transition {
  return {
    state: { ...state, status, result: { status, exit_code: EXIT_GOAL_NOT_MET, reason } },
    events: [{ role: 'engine', type: 'run_stopped', data: { status, reason, phase: state.phase, resumable: true } }],
  };
}

/**
 * Seed 004: a stuck run waits for a person ("stuck-report artifacts retained until resolved"). Once they
 * fixed what blocked it, resuming verifies again at the run's head: green carries on (and resolves the
 * report), red is stuck again at once, since the total verify counter resets only on green.
 */
export function reopenStuck(state: RunState, workflow: Workflow): RunState {
  const reopened: RunState = {
    ...state,
    status: 'running',
    result: null,
    gate: null,
    proposal: null,
    proposal_files: [],
    feedback: null,
    fix_review: null,
  };
  const step = currentStep(state);
  if (step && state.workspace) {
    const wasFailed = step.status === 'failed';
    const again = updateStep(reopened, step.id, (current) => ({
      ...current,
      status: 'in_progress',
      fail_reason: null,
    }));
    // The run's end failed the plans it was in (finishRun); verifying again, they are under way once more.
    const stack = new Set(again.plan_stack);
    const planOpen = {
      ...again,
      plans: again.plans.map((plan) =>
        stack.has(plan.plan_id) && plan.status === 'failed' ? { ...plan, status: 'in_progress' as const } : plan,
      ),
    };
    return {
      ...planOpen,
      phase: 'verifying',
      metrics: wasFailed
        ? { ...planOpen.metrics, failed_steps: Math.max(0, planOpen.metrics.failed_steps - 1) }
        : planOpen.metrics,
    };
  }
  return { ...reopened, phase: workflow.scouts ? 'scouting' : 'planning', scouting: null };
}
