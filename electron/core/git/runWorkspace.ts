import fs from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import type { RepoPreflight, RunWorkspace, StartRunOptions, WorkspaceMode } from './types';
import { DEPENDENCY_FOLDERS, linkDependencyFolders } from './dependencyLinks';
import { ensureExcluded } from './excludes';
import { gitError } from './gitErrors';
import { isomorphicUnsafeReason, readIndexFormat } from './indexFormat';
import { readHeadOf, resolveBranch, type RepoContext } from './repoContext';
import {
  readRunMetadata,
  recordedWorktreeDir,
  removeRunMetadata,
  writeRunMetadata,
  type RunMetadata,
} from './runMetadata';
import { ensureWorktreeRoot, removeRunWorktree, sweepOrphanWorktrees } from './worktreeFolders';
import { chooseWorktreeRoot, repoFolderName } from './worktreeRoot';

const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const PREFIX = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** A run id Lathe could have made: usable in a branch name and as one folder name (never `..`, never a path). */
export function isRunId(runId: string): boolean {
  return RUN_ID.test(runId) && !runId.endsWith('.lock') && !runId.includes('..');
}

export function runBranchName(prefix: string, runId: string): string {
  if (!isRunId(runId)) {
    throw gitError('INVALID_RUN_ID', `run id ${JSON.stringify(runId.slice(0, 80))} is not usable in a branch name`, {
      runId: runId.slice(0, 80),
    });
  }
  if (!PREFIX.test(prefix) || prefix.includes('..') || prefix.endsWith('.lock') || prefix.length > 100) {
    throw gitError(
      'INVALID_BRANCH_PREFIX',
      `branch prefix ${JSON.stringify(prefix.slice(0, 80))} is not a valid ref name`,
      { prefix: prefix.slice(0, 100) },
    );
  }
  return `${prefix}/${runId}`;
}

/** The repository refuses a run: no commit yet, uncommitted files (unless allowed), the branch taken, sha256. */
async function refuseUnstartable(
  context: RepoContext,
  pre: RepoPreflight,
  options: StartRunOptions,
  branch: string,
): Promise<string> {
  if (!pre.head)
    throw gitError('NO_COMMITS', 'the repository has no commits yet; commit something first', {
      repoRoot: pre.repoRoot,
    });
  if (pre.dirtyPaths.length > 0 && !options.allowDirty) {
    throw gitError(
      'DIRTY_WORKTREE',
      `${pre.dirtyPaths.length} uncommitted file(s); commit or stash them, or carry on and Lathe will not touch them`,
      {
        paths: pre.dirtyPaths.slice(0, 200),
        count: pre.dirtyPaths.length,
      },
    );
  }
  if (await resolveBranch(context, branch))
    throw gitError('BRANCH_EXISTS', `branch ${branch} already exists`, { branch });
  if (context.dirs.objectFormat !== 'sha1') {
    throw gitError(
      'ISOMORPHIC_UNSAFE',
      'sha256 repositories are not supported (isomorphic-git writes sha1 objects only)',
      { reason: 'sha256' },
    );
  }
  return pre.head;
}

/** Worktree or in place, and the commit the run starts at: each mode refuses what it cannot do safely. */
function chooseMode(
  context: RepoContext,
  pre: RepoPreflight,
  options: StartRunOptions,
  head: string,
): { mode: WorkspaceMode; base: string } {
  const mode = options.mode ?? (context.native ? 'worktree' : 'in-place');
  if (mode === 'worktree' && !context.native)
    throw gitError('NATIVE_REQUIRED', 'worktree mode needs the git command line; use in-place mode', { mode });
  if (mode === 'in-place' && pre.isomorphicUnsafeReason && !context.native) {
    throw gitError('ISOMORPHIC_UNSAFE', `${pre.isomorphicUnsafeReason}; install git to run Lathe on this repository`, {
      reason: pre.isomorphicUnsafeReason,
    });
  }
  if (context.dirs.gitDir !== context.dirs.commonDir && mode === 'in-place') {
    throw gitError(
      'NATIVE_REQUIRED',
      'in-place runs inside a linked worktree are not supported; open the main checkout',
      { repoRoot: pre.repoRoot },
    );
  }
  const base = options.startCommit ?? head;
  if (mode === 'in-place' && base !== head) {
    // In place the checkout is the run's: starting elsewhere would rewrite the user's files under them.
    throw gitError(
      'NATIVE_REQUIRED',
      `an in-place follow-up starts where the checkout is: check out ${base.slice(0, 12)} (the earlier run's branch) first, or install git for a worktree run`,
      {
        mode,
        startCommit: base,
      },
    );
  }
  return { mode, base };
}

/** Where the run works: the checkout in place, or its own folder under the worktree root (made ready). */
async function prepareWorkDir(
  context: RepoContext,
  pre: RepoPreflight,
  options: StartRunOptions,
  mode: WorkspaceMode,
): Promise<string> {
  // Chosen before anything is written: a refused root leaves the repository exactly as it was.
  const root =
    mode === 'worktree'
      ? chooseWorktreeRoot(pre.repoRoot, context.dirs.commonDir, { configured: options.worktreeRoot }).root
      : null;
  await ensureExcluded(context.dirs.commonDir, ['/.lathe/']);
  if (!root) return pre.repoRoot;
  await ensureWorktreeRoot(root);
  await sweepOrphanWorktrees(root);
  return path.join(root, repoFolderName(pre.repoRoot, context.dirs.commonDir), options.runId);
}

function startMetadata(workspace: RunWorkspace, options: StartRunOptions): RunMetadata {
  return {
    run_id: options.runId,
    mode: workspace.mode,
    started_at_ms: Date.now(),
    base_commit: workspace.baseCommit,
    original_branch: workspace.originalBranch,
    linked_dependencies: [],
    protected_paths: workspace.protectedPaths,
    branch: workspace.branch,
    ...(workspace.mode === 'worktree' ? { work_dir: workspace.workDir } : {}),
    ...(options.dependencyFolders ? { dependency_folders: [...options.dependencyFolders] } : {}),
  };
}

/** Makes the run's branch (and its worktree, with the dependency folders linked); returns the folders linked. */
async function createRunBranch(
  context: RepoContext,
  workspace: RunWorkspace,
  metadata: RunMetadata,
  head: string,
): Promise<string[]> {
  const { branch } = workspace;
  if (workspace.mode === 'worktree') {
    if (fs.existsSync(workspace.workDir))
      throw gitError('WORKTREE_EXISTS', `a run folder for ${workspace.runId} already exists`, {
        workDir: workspace.workDir,
      });
    await fs.promises.mkdir(path.dirname(workspace.workDir), { recursive: true });
    await context.git(workspace.repoRoot, [
      'worktree',
      'add',
      '--quiet',
      '-b',
      branch,
      workspace.workDir,
      workspace.baseCommit,
    ]);
    return linkDependencyFolders(context, workspace, metadata.dependency_folders ?? DEPENDENCY_FOLDERS);
  }
  // The branch starts at HEAD, so switching to it changes no file and no index entry.
  await git.writeRef({ ...context.iso, ref: `refs/heads/${branch}`, value: head });
  await git.writeRef({ ...context.iso, ref: 'HEAD', value: `refs/heads/${branch}`, symbolic: true, force: true });
  return [];
}

export async function startRunIn(
  context: RepoContext,
  pre: RepoPreflight,
  options: StartRunOptions,
): Promise<RunWorkspace> {
  const branch = runBranchName(options.branchPrefix, options.runId);
  const head = await refuseUnstartable(context, pre, options, branch);
  const { mode, base } = chooseMode(context, pre, options, head);
  const workDir = await prepareWorkDir(context, pre, options, mode);
  const workspace: RunWorkspace = {
    runId: options.runId,
    repoRoot: pre.repoRoot,
    workDir,
    mode,
    branch,
    baseCommit: base,
    originalBranch: pre.branch,
    protectedPaths: mode === 'in-place' ? [...pre.dirtyPaths] : [],
  };
  // Written before the branch exists, so a run killed half-way can be adopted on resume (adoptRunIn).
  const metadata = startMetadata(workspace, options);
  await writeRunMetadata(context.dirs.commonDir, metadata);
  const linked = await createRunBranch(context, workspace, metadata, head);
  await writeRunMetadata(context.dirs.commonDir, { ...metadata, linked_dependencies: linked });
  return workspace;
}

/**
 * A run killed between creating its branch and saving its state: find what startRun made (its
 * metadata is written first) and reopen it, so preparing again does not fail on its own branch.
 */
export async function adoptRunIn(
  context: RepoContext,
  repoRoot: string,
  options: StartRunOptions,
): Promise<RunWorkspace | null> {
  const metadata = await readRunMetadata(context.dirs.commonDir, options.runId);
  if (!metadata) return null;
  const branch = runBranchName(options.branchPrefix, options.runId);
  const tip = await resolveBranch(context, branch);
  if (!tip) {
    await removeRunMetadata(context.dirs.commonDir, options.runId);
    if (metadata.mode === 'worktree') await context.git(repoRoot, ['worktree', 'prune'], { allowFailure: true });
    return null;
  }
  const workspace: RunWorkspace = {
    runId: options.runId,
    repoRoot,
    workDir:
      metadata.mode === 'worktree' ? recordedWorktreeDir(context.dirs.commonDir, options.runId, metadata) : repoRoot,
    mode: metadata.mode,
    branch,
    baseCommit: metadata.base_commit,
    originalBranch: metadata.original_branch,
    protectedPaths: metadata.protected_paths,
  };
  if (metadata.mode === 'in-place') {
    const current = await readHeadOf(context, context.dirs.gitDir);
    // Killed after making the branch but before switching to it: the switch changes no file.
    if (current.branch === metadata.original_branch && tip === metadata.base_commit) {
      await git.writeRef({ ...context.iso, ref: 'HEAD', value: `refs/heads/${branch}`, symbolic: true, force: true });
    }
  }
  return reopenRunIn(context, workspace);
}

/**
 * Takes back what a `startRun` that failed half-way (a full disk) made, without reopening it: the
 * worktree and its folder, the switch to the branch in place, the branch while it still points at the
 * base (nothing of the run's is on it), the metadata. Nothing made is nothing done.
 */
export async function discardStartedRunIn(
  context: RepoContext,
  repoRoot: string,
  options: StartRunOptions,
): Promise<void> {
  const metadata = await readRunMetadata(context.dirs.commonDir, options.runId);
  if (!metadata) return;
  const branch = runBranchName(options.branchPrefix, options.runId);
  if (metadata.mode === 'worktree') {
    if (context.native)
      await removeRunWorktree(context, repoRoot, recordedWorktreeDir(context.dirs.commonDir, options.runId, metadata));
  } else if ((await readHeadOf(context, context.dirs.gitDir)).branch === branch) {
    const back = metadata.original_branch
      ? { value: `refs/heads/${metadata.original_branch}`, symbolic: true }
      : { value: metadata.base_commit, symbolic: false };
    await git.writeRef({ ...context.iso, ref: 'HEAD', ...back, force: true });
  }
  if ((await resolveBranch(context, branch)) === metadata.base_commit)
    await git.deleteRef({ ...context.iso, ref: `refs/heads/${branch}` });
  await removeRunMetadata(context.dirs.commonDir, options.runId);
}

export async function reopenRunIn(context: RepoContext, workspace: RunWorkspace): Promise<RunWorkspace> {
  const head = await resolveBranch(context, workspace.branch);
  if (!head)
    throw gitError('RUN_BRANCH_MISSING', `the run branch ${workspace.branch} no longer exists`, {
      branch: workspace.branch,
    });
  if (workspace.mode === 'in-place') {
    if (!context.native) {
      const unsafe = isomorphicUnsafeReason(
        await readIndexFormat(context.dirs.gitDir, context.dirs.objectFormat),
        context.dirs.objectFormat,
      );
      if (unsafe) throw gitError('ISOMORPHIC_UNSAFE', `${unsafe}; install git to resume this run`, { reason: unsafe });
    }
    const current = await readHeadOf(context, context.dirs.gitDir);
    if (current.branch !== workspace.branch) {
      throw gitError(
        'RUN_NOT_CHECKED_OUT',
        `the checkout is on ${current.branch ?? 'a detached HEAD'}, not on the run branch ${workspace.branch}`,
        {
          branch: workspace.branch,
          current: current.branch,
        },
      );
    }
    return workspace;
  }
  if (!context.native)
    throw gitError('NATIVE_REQUIRED', 'reopening a worktree run needs the git command line', { mode: workspace.mode });
  const metadata = await readRunMetadata(context.dirs.commonDir, workspace.runId);
  // The folder comes from the run's metadata (or the pre-move place): a state file cannot point Lathe at another folder to recreate.
  const expected = recordedWorktreeDir(context.dirs.commonDir, workspace.runId, metadata);
  if (path.resolve(workspace.workDir) !== expected) {
    throw gitError('INVALID_WORKSPACE', 'the workspace folder is not where Lathe keeps run worktrees', {
      workDir: workspace.workDir,
      expected,
    });
  }
  const registered = (await context.git(workspace.repoRoot, ['worktree', 'list', '--porcelain'])).stdout
    .split('\n')
    .some((line) => line === `worktree ${expected}`);
  if (!registered || !fs.existsSync(path.join(expected, '.git'))) {
    await fs.promises.rm(expected, { recursive: true, force: true });
    await context.git(workspace.repoRoot, ['worktree', 'prune']);
    await fs.promises.mkdir(path.dirname(expected), { recursive: true });
    await context.git(workspace.repoRoot, ['worktree', 'add', '--quiet', expected, workspace.branch]);
  }
  const linked = await linkDependencyFolders(context, workspace, metadata?.dependency_folders ?? DEPENDENCY_FOLDERS);
  if (metadata && linked.some((folder) => !metadata.linked_dependencies.includes(folder))) {
    await writeRunMetadata(context.dirs.commonDir, {
      ...metadata,
      linked_dependencies: [...new Set([...metadata.linked_dependencies, ...linked])],
    });
  }
  return workspace;
}
