import git from 'isomorphic-git';
import type { RunFootprint, RunWorkspace } from './types';
import { gitError } from './gitErrors';
import { readHeadOf, resolveBranch, type RepoContext } from './repoContext';
import { readRunMetadata, recordedWorktreeDir, removeRunMetadata } from './runMetadata';
import { removeRunWorktree } from './worktreeFolders';
import { realPathOfNearest } from './worktreeRoot';

interface ListedWorktree {
  dir: string;
  branch: string | null;
  main: boolean;
}

/** `git worktree list --porcelain`: the main checkout first, then the linked ones. */
async function listWorktrees(context: RepoContext, repoRoot: string): Promise<ListedWorktree[]> {
  const blocks = (await context.git(repoRoot, ['worktree', 'list', '--porcelain'])).stdout
    .split('\n\n')
    .filter((block) => block.trim() !== '');
  return blocks.map((block, index) => {
    const lines = block.split('\n');
    const branch =
      lines.find((line) => line.startsWith('branch refs/heads/'))?.slice('branch refs/heads/'.length) ?? null;
    return {
      dir: lines.find((line) => line.startsWith('worktree '))?.slice('worktree '.length) ?? '',
      branch,
      main: index === 0,
    };
  });
}

export async function runFootprintIn(context: RepoContext, workspace: RunWorkspace): Promise<RunFootprint> {
  const branch = (await resolveBranch(context, workspace.branch)) ? workspace.branch : null;
  if (!context.native) {
    if (workspace.mode === 'worktree')
      throw gitError('NATIVE_REQUIRED', 'this run uses a git worktree, which needs the git command line', {
        runId: workspace.runId,
      });
    const head = await readHeadOf(context, context.dirs.gitDir);
    return { branch, worktree: null, checkedOutIn: head.branch === workspace.branch ? workspace.repoRoot : null };
  }
  const listed = await listWorktrees(context, workspace.repoRoot);
  const recorded =
    workspace.mode === 'worktree'
      ? realPathOfNearest(
          recordedWorktreeDir(
            context.dirs.commonDir,
            workspace.runId,
            await readRunMetadata(context.dirs.commonDir, workspace.runId),
          ),
        )
      : null;
  const own =
    recorded === null ? undefined : listed.find((entry) => !entry.main && realPathOfNearest(entry.dir) === recorded);
  const holder = listed.find((entry) => entry !== own && entry.branch === workspace.branch);
  return { branch, worktree: own?.dir ?? null, checkedOutIn: holder?.dir ?? null };
}

/**
 * Removes what is left of a finished run in the repository: its own worktree folder, its branch and its
 * metadata. Never a branch checked out anywhere but in the run's own worktree (GIT_BRANCH_CHECKED_OUT),
 * and never a merge undone: the branch the run started from is not touched.
 */
export async function pruneRunIn(context: RepoContext, workspace: RunWorkspace): Promise<void> {
  const footprint = await runFootprintIn(context, workspace);
  if (footprint.checkedOutIn !== null) {
    throw gitError(
      'BRANCH_CHECKED_OUT',
      `the run branch ${workspace.branch} is checked out in ${footprint.checkedOutIn}; switch that checkout to another branch first`,
      {
        branch: workspace.branch,
        worktree: footprint.checkedOutIn,
      },
    );
  }
  if (footprint.worktree !== null) await removeRunWorktree(context, workspace.repoRoot, footprint.worktree);
  if (footprint.branch !== null) {
    if (context.native) await context.git(workspace.repoRoot, ['branch', '--quiet', '-D', workspace.branch]);
    else await git.deleteRef({ ...context.iso, ref: `refs/heads/${workspace.branch}` });
  }
  await removeRunMetadata(context.dirs.commonDir, workspace.runId);
}
