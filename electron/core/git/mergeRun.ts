import git from 'isomorphic-git';
import type { RunWorkspace } from './types';
import { nativeDirtyPaths, isoDirtyPaths } from './dirtyPaths';
import { gitError } from './gitErrors';
import { readHeadOf, resolveBranch, type RepoContext } from './repoContext';
import { worktreeHolding } from './restore';
import { runHead } from './history';
import { diffTrees, treeOf } from './treeObjects';

/**
 * Fast-forwards the original branch to the run's head, and nothing else: refused when the branch
 * moved on (not a fast-forward) or when the user's checkout has local edits to files the run changed.
 */
export async function mergeRunIn(context: RepoContext, workspace: RunWorkspace): Promise<{ merged: string }> {
  const original = workspace.originalBranch;
  if (!original)
    throw gitError('NO_ORIGINAL_BRANCH', 'the run started on a detached HEAD; there is no branch to merge into', {
      branch: workspace.branch,
    });
  const head = await runHead(context, workspace);
  const tip = await resolveBranch(context, original);
  if (!tip) throw gitError('RUN_BRANCH_MISSING', `the branch ${original} no longer exists`, { branch: original });
  if (tip === head) return { merged: head };
  const fastForward = await git.isDescendent({ ...context.iso, oid: head, ancestor: tip, depth: -1 });
  if (!fastForward) {
    throw gitError(
      'MERGE_NOT_FAST_FORWARD',
      `${original} has commits the run does not have; merging would not be a fast-forward`,
      {
        branch: original,
        branchTip: tip,
        runHead: head,
      },
    );
  }
  const touched = (await diffTrees(context, await treeOf(context, tip), await treeOf(context, head))).map(
    (change) => change.path,
  );
  if (workspace.mode === 'in-place') {
    const current = await readHeadOf(context, context.dirs.gitDir);
    if (current.branch !== workspace.branch) {
      throw gitError(
        'RUN_NOT_CHECKED_OUT',
        `the checkout is on ${current.branch ?? 'a detached HEAD'}, not on ${workspace.branch}`,
        { branch: workspace.branch },
      );
    }
    // Same commit, same files: moving the branch and switching HEAD to it changes nothing on disk.
    await git.writeRef({ ...context.iso, ref: `refs/heads/${original}`, value: head, force: true });
    await git.writeRef({ ...context.iso, ref: 'HEAD', value: `refs/heads/${original}`, symbolic: true, force: true });
    return { merged: head };
  }
  const holder = await worktreeHolding(context, workspace.repoRoot, original);
  if (holder === null) {
    await context.git(workspace.repoRoot, ['update-ref', `refs/heads/${original}`, head, tip]);
    return { merged: head };
  }
  const dirty = context.native
    ? await nativeDirtyPaths(context, holder, touched)
    : await isoDirtyPaths(context, holder, touched);
  if (dirty.length > 0) {
    throw gitError(
      'DIRTY_WORKTREE',
      `${dirty.length} file(s) the run changed have local edits in ${holder}; commit or stash them, then merge`,
      {
        paths: dirty.slice(0, 200),
        worktree: holder,
      },
    );
  }
  await context.git(holder, ['merge', '--ff-only', '--quiet', head]);
  return { merged: head };
}

export async function pushRunIn(
  context: RepoContext,
  workspace: RunWorkspace,
  remote: string,
): Promise<{ pushed: boolean; detail: string }> {
  if (!context.native) throw gitError('NATIVE_REQUIRED', 'pushing needs the git command line', { remote });
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(remote))
    throw gitError('REMOTE_NOT_FOUND', `no remote named ${remote.slice(0, 80)}`, { remote: remote.slice(0, 80) });
  const url = await context.git(workspace.repoRoot, ['remote', 'get-url', remote], { allowFailure: true });
  if (url.code !== 0) throw gitError('REMOTE_NOT_FOUND', `no remote named ${remote}`, { remote });
  await runHead(context, workspace);
  const ref = `refs/heads/${workspace.branch}`;
  const result = await context.git(
    workspace.repoRoot,
    [
      '-c',
      'core.sshCommand=ssh -o BatchMode=yes -o ConnectTimeout=10',
      'push',
      '--porcelain',
      '--receive-pack=git-receive-pack',
      remote,
      `${ref}:${ref}`,
    ],
    {
      allowFailure: true,
    },
  );
  if (result.code !== 0) {
    throw gitError(
      'PUSH_FAILED',
      `pushing ${workspace.branch} to ${remote} failed: ${result.stderr.trim().split('\n').at(-1) ?? ''}`,
      {
        remote,
        branch: workspace.branch,
        stderr: result.stderr.trim().slice(0, 1000),
      },
    );
  }
  return { pushed: true, detail: `${workspace.branch} pushed to ${remote}` };
}
