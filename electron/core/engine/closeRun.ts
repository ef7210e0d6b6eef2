import type { PendingEvent } from '../../../shared/engine/runEvents';
import type { RunState } from '../../../shared/engine/runState';
import { LatheError } from '../../../shared/errors';
import type { RunClosure } from '../../../shared/schemas/run';
import type { EngineDeps } from './engineDeps';
import { RunStore } from './runStore';
import { releaseRunArtifacts } from './stuckReport';
import { releaseIfRetained } from '../verifier/artifacts';

type CloseDeps = Pick<EngineDeps, 'git'> & Partial<Pick<EngineDeps, 'releaseArtifacts'>>;

/** Seed 004: a merged or undone run's stuck report is resolved; its artifacts fall under retention again. */
async function releaseResolved(deps: CloseDeps, store: RunStore, state: RunState): Promise<RunState> {
  const released = await releaseRunArtifacts(
    { releaseArtifacts: deps.releaseArtifacts ?? releaseIfRetained },
    state,
    (event) => store.append(event),
  );
  if (released.length === 0) return state;
  const next = { ...state, log_seq: store.lastSeq };
  store.saveState(next);
  return next;
}

export interface ClosedRun {
  state: RunState;
  /** Already undone before this call: nothing was done. */
  already: boolean;
}

/**
 * Writes what the user did to the run's log, then mirrors it in state.json (`closed`), as every
 * transition is written: so `lathe runs`, `--resume` and the window all read it from the run itself.
 */
function record(
  store: RunStore,
  state: RunState,
  event: PendingEvent,
  closure: Omit<RunClosure, 'at' | 'seq'>,
): RunState {
  const written = store.append(event);
  const closed: RunClosure = { ...closure, at: written.ts, seq: written.seq };
  const next: RunState = { ...state, closed, updated_at: written.ts, log_seq: store.lastSeq };
  store.saveState(next);
  return next;
}

function workspaceOf(state: RunState) {
  if (!state.workspace)
    throw new LatheError(
      'NO_WORKSPACE',
      `run ${state.run_id} never created a branch; there is nothing to undo or merge`,
      { run_id: state.run_id },
    );
  return state.workspace;
}

/** Removes the run's branch and workspace (undoing a merge too); a second undo changes nothing. */
export async function undoRecordedRun(deps: CloseDeps, repoRoot: string, runId: string): Promise<ClosedRun> {
  const { store, state } = RunStore.open(repoRoot, runId);
  if (state.closed?.action === 'undone') return { state, already: true };
  const workspace = workspaceOf(state);
  await deps.git.undoRun(workspace);
  const event: PendingEvent = {
    role: 'user',
    type: 'run_undone',
    data: {
      branch: workspace.branch,
      base: workspace.baseCommit,
      previous_status: state.status,
      was_merged: state.closed?.action === 'merged',
    },
  };
  const closed = record(store, state, event, { action: 'undone', into: null, commit: workspace.baseCommit });
  return { state: await releaseResolved(deps, store, closed), already: false };
}

/** Fast-forwards the branch the run started from to the run's result; an undone run has nothing left to merge. */
export async function mergeRecordedRun(
  deps: CloseDeps,
  repoRoot: string,
  runId: string,
): Promise<{ merged: string; state: RunState }> {
  const { store, state } = RunStore.open(repoRoot, runId);
  refuseUndone(state);
  const workspace = workspaceOf(state);
  const { merged } = await deps.git.mergeRun(workspace);
  const event: PendingEvent = {
    role: 'user',
    type: 'run_merged',
    data: { into: workspace.originalBranch, commit: merged, branch: workspace.branch },
  };
  const next = await releaseResolved(
    deps,
    store,
    record(store, state, event, { action: 'merged', into: workspace.originalBranch, commit: merged }),
  );
  // The run's work is on the user's branch now: its worktree folder goes (the branch stays, so undo still works,
  // and a resume recreates the folder). Failing to remove it does not undo a merge that happened.
  // catch-ok: the merge happened, and failing to remove the folder does not undo it (see above)
  await deps.git.closeRun(workspace).catch(() => undefined);
  return { merged, state: next };
}

/** An undone run's branch is gone: it cannot be resumed or merged, only started again. */
export function refuseUndone(state: RunState): void {
  if (state.closed?.action !== 'undone') return;
  throw new LatheError(
    'RUN_UNDONE',
    `run ${state.run_id} was undone at ${state.closed.at} (its branch is gone); start a new run instead`,
    { run_id: state.run_id, undone_at: state.closed.at },
  );
}
