import type { RunStatus } from '../schemas/run';
import type { Transition } from './actions';
import type { RunState } from './runState';

/** Exit codes (docs/cli.md): 0 success or nothing to do, 1 goal not met, 2 unrecoverable infra error. */
export const EXIT_SUCCESS = 0;
export const EXIT_GOAL_NOT_MET = 1;
export const EXIT_INFRA = 2;

const TERMINAL: readonly RunStatus[] = ['complete', 'failed', 'stuck', 'aborted', 'time_expired'];

export function isTerminal(status: RunStatus): boolean {
  return TERMINAL.includes(status);
}

/** Ends the run for good: no resume continues a finished phase. */
export function finishRun(state: RunState, status: RunStatus, exitCode: number, reason: string): Transition {
  return {
    state: { ...state, phase: 'finished', status, gate: null, result: { status, exit_code: exitCode, reason } },
    events: [{ role: 'engine', type: 'run_finished', data: { status, exit_code: exitCode, reason, commits: state.commits } }],
  };
}

/** Stops the session but keeps the phase, so `--resume` continues where it stopped (Ctrl-C, time limit). */
export function stopRun(state: RunState, status: 'aborted' | 'time_expired', reason: string): Transition {
  return {
    state: { ...state, status, result: { status, exit_code: EXIT_GOAL_NOT_MET, reason } },
    events: [{ role: 'engine', type: 'run_stopped', data: { status, reason, phase: state.phase, resumable: true } }],
  };
}
