import { stopRun } from '../../../shared/engine/finish';
import type { RunState } from '../../../shared/engine/runState';
import { RunStore } from './runStore';

/**
 * A second Ctrl-C: the process is about to exit with an operation still under way. The run's last
 * saved state is its last completed sub-step; it is marked stopped (phase kept, resumable) so that no
 * list shows a run as `running` that no process drives. Synchronous, so it runs whole inside a signal
 * handler, between two of the live session's own synchronous writes.
 */
export function stopRunNow(repoRoot: string, runId: string, reason: string): RunState | null {
  const { store, state } = RunStore.open(repoRoot, runId);
  if (state.phase === 'finished' || (state.status !== 'running' && state.status !== 'waiting_for_gate')) return null;
  const transition = stopRun(state, 'aborted', reason);
  for (const event of transition.events) store.append(event);
  const stopped: RunState = { ...transition.state, log_seq: store.lastSeq };
  store.saveState(stopped);
  return stopped;
}
