import type { GitFacade, RunWorkspace } from './types';
import { commitStepIn } from './commitStep';
import { gitError } from './gitErrors';
import { diffRunIn, exportPatchIn, listRunCommitsIn, runHead, runPatchIn } from './history';
import { mergeRunIn, pushRunIn } from './mergeRun';
import { preflightRepo } from './preflight';
import { pruneRunIn, runFootprintIn } from './pruneRun';
import { openRepo, type RepoContext } from './repoContext';
import { resetRunTo, undoRunIn } from './restore';
import { readRunMetadata, recordedWorktreeDir } from './runMetadata';
import { adoptRunIn, discardStartedRunIn, reopenRunIn, startRunIn } from './runWorkspace';
import { removeRunWorktree } from './worktreeFolders';

export interface GitFacadeOptions {
  /** false behaves as if the git command line were not installed (isomorphic-git only). */
  useNativeGit?: boolean;
}

/** The facade as the workspace layer implements it. */
export type LatheGitFacade = GitFacade;

/** One operation at a time per repository: refs are compared-and-set, but the work tree is shared. */
const queues = new Map<string, Promise<unknown>>();
function serialize<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  // catch-ok: the queue only orders tasks: the previous one's failure reached its own caller
  const next = previous.catch(() => undefined).then(task);
  queues.set(key, next);
  const forget = () => {
    if (queues.get(key) === next) queues.delete(key);
  };
  next.then(forget, forget);
  return next;
}

export function createGitFacade(options: GitFacadeOptions = {}): LatheGitFacade {
  const useNative = options.useNativeGit ?? true;
  const withRepo = <T>(repoRoot: string, task: (context: RepoContext) => Promise<T>): Promise<T> =>
    serialize(repoRoot, async () => task(await openRepo(repoRoot, { useNative })));
  const checkMode = (context: RepoContext, workspace: RunWorkspace) => {
    if (workspace.mode === 'worktree' && !context.native) {
      throw gitError('NATIVE_REQUIRED', 'this run uses a git worktree, which needs the git command line', {
        runId: workspace.runId,
      });
    }
  };

  return {
    async preflight(repoRoot) {
      return (await preflightRepo(repoRoot, { useNative })).preflight;
    },
    async startRun(repoRoot, startOptions) {
      const { preflight, context } = await preflightRepo(repoRoot, { useNative });
      return serialize(preflight.repoRoot, () => startRunIn(context, preflight, startOptions));
    },
    adoptRun: (repoRoot, adoptOptions) => withRepo(repoRoot, (context) => adoptRunIn(context, repoRoot, adoptOptions)),
    discardStartedRun: (repoRoot, discardOptions) =>
      withRepo(repoRoot, (context) => discardStartedRunIn(context, repoRoot, discardOptions)),
    reopenRun: (workspace) => withRepo(workspace.repoRoot, (context) => reopenRunIn(context, workspace)),
    commitStep: (workspace, paths, commit) =>
      withRepo(workspace.repoRoot, (context) => {
        checkMode(context, workspace);
        return commitStepIn(context, workspace, paths, commit);
      }),
    headOf: (workspace) => withRepo(workspace.repoRoot, (context) => runHead(context, workspace)),
    resetTo: (workspace, commit) =>
      withRepo(workspace.repoRoot, (context) => {
        checkMode(context, workspace);
        return resetRunTo(context, workspace, commit);
      }),
    listRunCommits: (workspace) => withRepo(workspace.repoRoot, (context) => listRunCommitsIn(context, workspace)),
    diffRun: (workspace, fromCommit, toCommit) =>
      withRepo(workspace.repoRoot, (context) => diffRunIn(context, workspace, fromCommit, toCommit)),
    mergeRun: (workspace) =>
      withRepo(workspace.repoRoot, (context) => {
        checkMode(context, workspace);
        return mergeRunIn(context, workspace);
      }),
    undoRun: (workspace) =>
      withRepo(workspace.repoRoot, (context) => {
        checkMode(context, workspace);
        return undoRunIn(context, workspace);
      }),
    runPatch: (workspace, toCommit) =>
      withRepo(workspace.repoRoot, (context) => runPatchIn(context, workspace, toCommit)),
    exportPatch: (workspace, file) =>
      withRepo(workspace.repoRoot, (context) => exportPatchIn(context, workspace, file)),
    pushRun: (workspace, remote) => withRepo(workspace.repoRoot, (context) => pushRunIn(context, workspace, remote)),
    runFootprint: (workspace) => withRepo(workspace.repoRoot, (context) => runFootprintIn(context, workspace)),
    pruneRun: (workspace) => withRepo(workspace.repoRoot, (context) => pruneRunIn(context, workspace)),
    closeRun: (workspace) =>
      withRepo(workspace.repoRoot, async (context) => {
        if (workspace.mode !== 'worktree') return;
        checkMode(context, workspace);
        const dir = recordedWorktreeDir(
          context.dirs.commonDir,
          workspace.runId,
          await readRunMetadata(context.dirs.commonDir, workspace.runId),
        );
        await removeRunWorktree(context, workspace.repoRoot, dir);
      }),
  };
}
