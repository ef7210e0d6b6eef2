import { readRunEvent } from '../engine/readRunEvent';
import type { RunState } from '../engine/runState';
import type { RunLogEvent } from '../schemas/run';
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
  /** Verification runs (each step's and the goal's final run; not the preflight), green and red: a count of runs, not of tests. */
  verifyRunsGreen: number;
  verifyRunsRed: number;
  /** The newest verification run's status, or null before the first. */
  lastVerify: TestView['status'] | null;
}

/** A run's verification runs, as the engine counts them in `verifications_passed`/`_failed`. */
const isVerification = (purpose: string | null | undefined) => purpose === 'step' || purpose === 'final';

/** The log events after `seq`, found from the end (a live run's state is a few events behind its log). */
export function eventsAfter(events: readonly RunLogEvent[], seq: number): RunLogEvent[] {
  let start = events.length;
  while (start > 0 && (events[start - 1]?.seq ?? 0) > seq) start -= 1;
  return events.slice(start);
}

/**
 * The saved state's numbers moved on by the log events written after it (`after`: events with a seq
 * above `state.log_seq`). The state knows what the log does not say (a green run resets the failure
 * counters without an event); the events say what happened since the state was saved. A finished run
 * logs a few events after its last save, so the log alone would show stale counters.
 */
export function runFigures(view: RunView, state: RunState, after: readonly RunLogEvent[]): RunFigures {
  const stateStep = state.plans
    .flatMap((plan) => plan.steps)
    .find((candidate) => candidate.id === state.current_step_id);
  const lastVerify = view.tests.filter((test) => isVerification(test.purpose)).at(-1)?.status ?? null;
  const figures: RunFigures = {
    attempts: stateStep?.attempts ?? 0,
    fixCycles: state.counters.fix_cycles,
    plans: Math.max(view.counters.planAttempts, state.counters.plan_attempts),
    replans: Math.max(view.counters.replans, state.counters.replans),
    verifyLoops: state.counters.total_verify_loops,
    failuresInARow: state.counters.consecutive_verify_failures,
    failedSteps: state.metrics.failed_steps,
    completedSteps: state.metrics.completed_steps,
    totalSteps: state.metrics.total_steps,
    verifyRunsGreen: state.metrics.verifications_passed,
    verifyRunsRed: state.metrics.verifications_failed,
    lastVerify,
  };
  let stepMoved = false;
  for (const event of after) {
    if (event.seq <= state.log_seq) continue;
    const known = readRunEvent(event);
    switch (known?.type) {
      case 'test_result': {
        if (!isVerification(known.data.purpose)) break;
        // Anything but PASS counts red, as the engine counts verifications.
        const green = known.data.status === 'PASS';
        if (green) figures.verifyRunsGreen += 1;
        else figures.verifyRunsRed += 1;
        if (green && known.data.purpose === 'step') Object.assign(figures, { failuresInARow: 0, verifyLoops: 0 });
        break;
      }
      case 'counters':
        figures.failuresInARow = known.data.consecutive_verify_failures ?? figures.failuresInARow;
        figures.verifyLoops = known.data.total_verify_loops ?? figures.verifyLoops;
        figures.replans = Math.max(figures.replans, known.data.replans ?? 0);
        break;
      case 'fix_cycle':
        figures.fixCycles = known.data.cycle ?? figures.fixCycles + 1;
        break;
      case 'step_started':
      case 'retry':
        figures.fixCycles = 0;
        stepMoved = true;
        break;
      case 'step_completed':
        figures.completedSteps += 1;
        break;
      case 'step_failed':
        figures.failedSteps += 1;
        break;
      default:
    }
  }
  if (stepMoved) {
    const step = view.currentStepId ? view.steps[view.stepKeyById[view.currentStepId] ?? ''] : undefined;
    figures.attempts = step?.attempts ?? figures.attempts;
  }
  return figures;
}
