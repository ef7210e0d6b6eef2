import type { RunSummary } from './schemas/run';

export type MergeRefusalCode = 'RUN_UNDONE' | 'ALREADY_MERGED' | 'RUN_BRANCH_GONE' | 'RUN_NOT_COMPLETE' | 'NO_COMMITS';

export interface MergeRefusal {
  code: MergeRefusalCode;
  message: string;
}

/**
 * Why a run cannot be merged, or null when it can: the window's Merge button and `lathe merge` refuse
 * the same runs. What the repository's state refuses (local edits, a branch that moved on) is found by
 * the merge itself (git/mergeRun.ts).
 */
export function mergeRefusal(
  run: Pick<RunSummary, 'status' | 'commits' | 'closed'>,
  branchGone: boolean,
): MergeRefusal | null {
  if (run.closed?.action === 'undone')
    return { code: 'RUN_UNDONE', message: 'This run was undone: its branch is gone.' };
  if (run.closed?.action === 'merged')
    return { code: 'ALREADY_MERGED', message: `Already merged into ${run.closed.into ?? 'its branch'}.` };
  if (branchGone) return { code: 'RUN_BRANCH_GONE', message: 'The run branch no longer exists.' };
  if (run.status !== 'complete')
    return { code: 'RUN_NOT_COMPLETE', message: `Only a complete run can be merged (this one is ${run.status}).` };
  if (run.commits === 0) return { code: 'NO_COMMITS', message: 'The run made no commits.' };
  return null;
}
