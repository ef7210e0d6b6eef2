import type { RunState } from '../../../shared/engine/runState';
import { isLatheError, LatheError } from '../../../shared/errors';
import { RunStore } from './runStore';
import { isRunId } from '../git/runWorkspace';
import type { GitFacade, RunWorkspace } from '../git/types';
import { refuseUndone } from './closeRun';
import { earlierRunText } from './earlierRun';

/** Where a follow-up starts and what its agents are told of the run it continues. */
export interface FollowUpStart {
  /** The run followed up on. */
  runId: string;
  /** Its head: the follow-up's branch starts here, and it is the follow-up's base for diff, undo and merge. */
  startCommit: string;
  /** The compact "Earlier run" context (earlierRun.ts). */
  earlier: string;
}

/** Still being driven: its branch may move while the follow-up reads it. */
const LIVE = new Set<RunState['status']>(['running', 'waiting_for_gate']);

const refused = (runId: string, message: string) => new LatheError('FOLLOW_UP_REFUSED', message, { run_id: runId });

/**
 * Checks that `parentId` can be followed up on and reads its head, goal, plan and diff. Throws before
 * anything is created: RUN_NOT_FOUND (no such run), RUN_UNDONE (its branch was removed), or
 * FOLLOW_UP_REFUSED (it never made a branch, is still running, or its branch is gone); all exit 64.
 */
export async function followUpStart(
  git: Pick<GitFacade, 'headOf' | 'runPatch'>,
  repoRoot: string,
  parentId: string,
): Promise<FollowUpStart> {
  // Never joined to a path unless it is a run id Lathe could have made.
  if (!isRunId(parentId))
    throw new LatheError(
      'RUN_NOT_FOUND',
      `no run ${JSON.stringify(parentId.slice(0, 80))} in ${repoRoot} (see \`lathe runs\`)`,
      { run_id: parentId.slice(0, 80) },
    );
  const parent = RunStore.readState(repoRoot, parentId);
  refuseUndone(parent);
  const workspace = parent.workspace;
  if (!workspace)
    throw refused(
      parentId,
      `run ${parentId} never made a branch (it ended ${parent.status} before its first step); start a new run instead`,
    );
  if (LIVE.has(parent.status) && parent.phase !== 'finished') {
    throw refused(
      parentId,
      `run ${parentId} is still ${parent.status === 'running' ? 'running' : 'waiting at a gate'}; follow up on it once it has ended (a run whose process died: resume it first)`,
    );
  }
  const startCommit = await headOf(git, parent, workspace);
  const diff = await git.runPatch(workspace, startCommit);
  return { runId: parentId, startCommit, earlier: earlierRunText(parent, diff) };
}

/** A merged run's head is the commit it was merged at (its branch may be pruned since); otherwise its branch tip. */
async function headOf(git: Pick<GitFacade, 'headOf'>, parent: RunState, workspace: RunWorkspace): Promise<string> {
  if (parent.closed?.action === 'merged' && parent.closed.commit) return parent.closed.commit;
  try {
    return await git.headOf(workspace);
  } catch (error) {
    if (!isLatheError(error, 'GIT_RUN_BRANCH_MISSING')) throw error;
    throw refused(
      parent.run_id,
      `the branch ${workspace.branch} of run ${parent.run_id} is gone (pruned or deleted), so there is nothing to continue from; start a new run instead`,
    );
  }
}
