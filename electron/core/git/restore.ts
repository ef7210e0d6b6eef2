import fs from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import type { RunWorkspace } from './types';
import { refreshIndex } from './commitStep';
import { dirtyPathsOf } from './dirtyPaths';
import { gitError } from './gitErrors';
import { resolveBranch, type RepoContext } from './repoContext';
import { readRunMetadata, recordedWorktreeDir, removeRunMetadata } from './runMetadata';
import { diskPath } from './pathBytes';
import { blobAt, diffTrees, treeOf, type PathState } from './treeObjects';
import { removeRunWorktree } from './worktreeFolders';

/** `commit` must be the run's base or on the run branch's first-parent line since it. */
export async function assertInRun(
  context: RepoContext,
  workspace: RunWorkspace,
  commit: string,
  head: string,
): Promise<void> {
  let cursor: string | undefined = head;
  for (let steps = 0; cursor && steps < 10_000; steps++) {
    if (cursor === commit) return;
    if (cursor === workspace.baseCommit) break;
    cursor = (await git.readCommit({ ...context.iso, oid: cursor })).commit.parent[0];
  }
  throw gitError('NOT_IN_RUN', `${commit.slice(0, 12)} is not a commit of run ${workspace.runId}`, {
    commit,
    runId: workspace.runId,
  });
}

/**
 * Paths whose work-tree content differs from what the run committed, apart from the user's own
 * protected files: what commands changed.
 */
async function changedByCommands(context: RepoContext, workspace: RunWorkspace): Promise<string[]> {
  const dirty = await dirtyPathsOf(context, workspace.workDir, await resolveBranch(context, workspace.branch));
  const protectedSet = new Set(workspace.protectedPaths);
  return dirty.filter((file) => !protectedSet.has(file));
}

/** Writes `paths` as they are in `commit` (deleting those absent there), then refreshes their index entries. */
async function restorePaths(
  context: RepoContext,
  workspace: RunWorkspace,
  commit: string,
  paths: string[],
): Promise<void> {
  const restored = new Map<string, PathState>();
  for (const file of paths) {
    // Names and link targets as bytes (pathBytes.ts): a name that is not UTF-8 is restored under itself.
    const absolute = diskPath(workspace.workDir, file);
    const blob = await blobAt(context, commit, file);
    restored.set(file, blob ? { oid: blob.oid, mode: blob.mode as NonNullable<PathState>['mode'] } : null);
    if (!blob) {
      await fs.promises.rm(absolute, { force: true });
      await removeEmptyParents(workspace.workDir, path.posix.dirname(file));
      continue;
    }
    const { blob: bytes } = await git.readBlob({ ...context.iso, oid: blob.oid });
    await fs.promises.rm(absolute, { force: true, recursive: true });
    await fs.promises.mkdir(diskPath(workspace.workDir, path.posix.dirname(file)), { recursive: true });
    if (blob.mode === '120000') {
      await fs.promises.symlink(Buffer.from(bytes), absolute);
    } else {
      await fs.promises.writeFile(absolute, bytes, { mode: blob.mode === '100755' ? 0o755 : 0o644 });
    }
  }
  await refreshIndex(context, workspace, restored);
}

/** Removes `relative` (a folder of the work tree) and its parents while they are empty; never the root. */
async function removeEmptyParents(root: string, relative: string): Promise<void> {
  let current = relative;
  while (current !== '.' && current !== '' && current !== '/') {
    try {
      await fs.promises.rmdir(diskPath(root, current));
    } catch {
      // catch-ok: removing emptied folders stops at the first that is not empty or cannot go; the restore itself is done
      return;
    }
    current = path.posix.dirname(current);
  }
}

/** Moves the run branch back to `commit` and makes the work tree match it (the user's protected files aside). */
export async function resetRunTo(context: RepoContext, workspace: RunWorkspace, commit: string): Promise<void> {
  const head = await resolveBranch(context, workspace.branch);
  if (!head)
    throw gitError('RUN_BRANCH_MISSING', `the run branch ${workspace.branch} no longer exists`, {
      branch: workspace.branch,
    });
  await assertInRun(context, workspace, commit, head);
  if (workspace.mode === 'worktree') {
    await context.git(workspace.workDir, ['reset', '--quiet', '--hard', commit]);
    await context.git(workspace.workDir, ['clean', '-d', '--force', '--quiet']);
    return;
  }
  const committed = (await diffTrees(context, await treeOf(context, commit), await treeOf(context, head))).map(
    (change) => change.path,
  );
  const paths = [...new Set([...committed, ...(await changedByCommands(context, workspace))])].sort();
  // The ref moves first: then the index refresh below compares against the commit we restore to.
  await git.writeRef({ ...context.iso, ref: `refs/heads/${workspace.branch}`, value: commit, force: true });
  await restorePaths(context, workspace, commit, paths);
}

/**
 * Undoes a whole run: the user's branch back where it was (also after a merge, if nothing was built
 * on top), the run branch and worktree gone, files changed by the run or its commands restored, and
 * the user's dirty files untouched.
 */
export async function undoRunIn(context: RepoContext, workspace: RunWorkspace): Promise<void> {
  const head = await resolveBranch(context, workspace.branch);
  if (workspace.originalBranch) await unmergeIfMerged(context, workspace, head);
  if (workspace.mode === 'worktree') {
    const dir = recordedWorktreeDir(
      context.dirs.commonDir,
      workspace.runId,
      await readRunMetadata(context.dirs.commonDir, workspace.runId),
    );
    await removeRunWorktree(context, workspace.repoRoot, dir);
    if (head) await context.git(workspace.repoRoot, ['branch', '--quiet', '-D', workspace.branch]);
  } else {
    if (head) await resetRunTo(context, workspace, workspace.baseCommit);
    if (workspace.originalBranch) {
      await git.writeRef({
        ...context.iso,
        ref: 'HEAD',
        value: `refs/heads/${workspace.originalBranch}`,
        symbolic: true,
        force: true,
      });
    } else {
      await git.writeRef({ ...context.iso, ref: 'HEAD', value: workspace.baseCommit, force: true });
    }
    if (head) await git.deleteRef({ ...context.iso, ref: `refs/heads/${workspace.branch}` });
  }
  await removeRunMetadata(context.dirs.commonDir, workspace.runId);
}

/** After a merge the original branch sits on the run's head: put it back on the base, files included. */
async function unmergeIfMerged(context: RepoContext, workspace: RunWorkspace, runHead: string | null): Promise<void> {
  const original = workspace.originalBranch as string;
  const tip = await resolveBranch(context, original);
  if (!tip || tip === workspace.baseCommit) return;
  // A follow-up's base is its parent's head: the user's branch may still be behind it, at the parent's
  // own start. Holding none of the run's commits, it has nothing to undo.
  if (
    tip !== runHead &&
    (await git.isDescendent({ ...context.iso, oid: workspace.baseCommit, ancestor: tip, depth: -1 }))
  )
    return;
  if (tip !== runHead) {
    throw gitError(
      'UNDO_NOT_POSSIBLE',
      `${original} has moved on since the run (it is neither the run's base nor its result); undo it by hand`,
      {
        branch: original,
        tip,
        baseCommit: workspace.baseCommit,
      },
    );
  }
  if (workspace.mode === 'in-place') {
    // In place, the user's checkout is the run's; resetRunTo restores the files once the refs are back.
    await git.writeRef({ ...context.iso, ref: `refs/heads/${original}`, value: workspace.baseCommit, force: true });
    return;
  }
  const checkedOutIn = await worktreeHolding(context, workspace.repoRoot, original);
  if (checkedOutIn === null) {
    await context.git(workspace.repoRoot, ['update-ref', `refs/heads/${original}`, workspace.baseCommit, tip]);
  } else {
    // `reset --keep` refuses when a file it must change has local edits, so nothing of the user's is lost.
    const result = await context.git(checkedOutIn, ['reset', '--quiet', '--keep', workspace.baseCommit], {
      allowFailure: true,
    });
    if (result.code !== 0) {
      throw gitError(
        'DIRTY_WORKTREE',
        `cannot undo the merge in ${checkedOutIn}: files the run changed have local edits`,
        {
          paths: [],
          stderr: result.stderr.trim().slice(0, 1000),
        },
      );
    }
  }
}

/** The work tree that has `branch` checked out, or null. */
export async function worktreeHolding(context: RepoContext, repoRoot: string, branch: string): Promise<string | null> {
  const listing = (await context.git(repoRoot, ['worktree', 'list', '--porcelain'])).stdout.split('\n\n');
  for (const block of listing) {
    const lines = block.split('\n');
    const dir = lines.find((line) => line.startsWith('worktree '))?.slice('worktree '.length);
    if (dir && lines.includes(`branch refs/heads/${branch}`)) return dir;
  }
  return null;
}
