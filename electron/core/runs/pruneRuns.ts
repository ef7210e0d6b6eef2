import fs from 'node:fs';
import path from 'node:path';
import type { RunState } from '../../../shared/engine/runState';
import { LatheError } from '../../../shared/errors';
import { RunStore, runDir } from '../engine/runStore';
import { isInside, realPathOfNearest } from '../git/worktreeRoot';
import { folderBytes, isVerifyRunDirName } from '../verifier/artifacts';
import type { GitFacade } from '../git/types';
import { listRuns } from './listRuns';
import { matchesPrune, pruneStatusOf, type PruneFilter, type PruneStatus } from './pruneSelection';

/** Lathe's own branches: prune deletes no other, whatever a run's state names. */
export const LATHE_BRANCHES = 'lathe/';

export interface PruneItem {
  runId: string;
  status: PruneStatus;
  /** The run branch to delete, when it still exists. */
  branch: string | null;
  /** The run's own worktree folder to remove. */
  worktree: string | null;
  /** `.lathe/runs/<run_id>`: its log, state and reports. */
  runFolder: string;
  /** Its Verifier folders in the data folder's artifacts. */
  artifacts: string[];
  /** What the folders take on disk (a deleted branch's objects go only at git's next gc). */
  bytes: number;
}

export interface PruneKept {
  runId: string;
  status: PruneStatus;
  reason: string;
}

export interface PrunePlan {
  remove: PruneItem[];
  /** Runs the filters matched that prune leaves alone, and why. */
  kept: PruneKept[];
}

/** `lathe/…/<run_id>`: one of Lathe's branches, and this run's own. */
function isOwnBranch(branch: string, runId: string): boolean {
  return branch.startsWith(LATHE_BRANCHES) && branch.endsWith(`/${runId}`);
}

type PruneDeps = { git: Pick<GitFacade, 'runFootprint' | 'pruneRun'> };

/** Every `artifact_dir` the run's log and state name, lines that do not parse skipped. */
function namedArtifactDirs(repoRoot: string, state: RunState): string[] {
  const dirs = state.failure_history.map((failure) => failure.artifact_dir);
  if (state.last_test?.artifact_dir) dirs.push(state.last_test.artifact_dir);
  const log = path.join(runDir(repoRoot, state.run_id), 'log.jsonl');
  const text = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '';
  for (const line of text.split('\n')) {
    if (!line.includes('"artifact_dir"')) continue;
    try {
      const dir = (JSON.parse(line) as { data?: { artifact_dir?: unknown } }).data?.artifact_dir;
      if (typeof dir === 'string') dirs.push(dir);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      continue;
    }
  }
  return dirs;
}

/** The run's Verifier folders: only folders named as the Verifier names them, directly in the artifact root, that exist. */
function artifactDirsOf(repoRoot: string, state: RunState, artifactRoot: string): string[] {
  const root = realPathOfNearest(artifactRoot);
  const found = new Set<string>();
  for (const dir of namedArtifactDirs(repoRoot, state)) {
    if (!dir) continue;
    const real = realPathOfNearest(dir);
    if (path.dirname(real) !== root || !isVerifyRunDirName(path.basename(real)) || !isInside(real, root)) continue;
    if (fs.lstatSync(real, { throwIfNoEntry: false })?.isDirectory()) found.add(real);
  }
  return [...found].sort();
}

async function planOne(
  deps: PruneDeps,
  repoRoot: string,
  artifactRoot: string,
  runId: string,
  status: PruneStatus,
): Promise<PruneItem | PruneKept> {
  const state = RunStore.readState(repoRoot, runId);
  const runFolder = runDir(repoRoot, runId);
  if (!fs.lstatSync(runFolder).isDirectory()) return { runId, status, reason: `${runFolder} is not a folder` };
  let branch: string | null = null;
  let worktree: string | null = null;
  if (state.workspace) {
    const footprint = await deps.git.runFootprint(state.workspace);
    if (footprint.checkedOutIn !== null)
      return {
        runId,
        status,
        reason: `its branch ${state.workspace.branch} is checked out in ${footprint.checkedOutIn}`,
      };
    if (footprint.branch !== null && !isOwnBranch(footprint.branch, runId))
      return {
        runId,
        status,
        reason: `its branch ${footprint.branch} is not one of Lathe's (${LATHE_BRANCHES}*) for this run; delete it by hand if you no longer need it`,
      };
    branch = footprint.branch;
    worktree = footprint.worktree;
  }
  const artifacts = artifactDirsOf(repoRoot, state, artifactRoot);
  let bytes = await folderBytes(runFolder);
  for (const dir of [...(worktree ? [worktree] : []), ...artifacts]) bytes += await folderBytes(dir);
  return { runId, status, branch, worktree, runFolder, artifacts, bytes };
}

/** What `lathe prune` would remove for these filters, and what it keeps although they match. Reads only. */
export async function planPrune(
  deps: PruneDeps,
  repoRoot: string,
  artifactRoot: string,
  filter: PruneFilter,
): Promise<PrunePlan> {
  const plan: PrunePlan = { remove: [], kept: [] };
  for (const run of await listRuns(repoRoot)) {
    if (!matchesPrune(run, filter)) continue;
    const planned = await planOne(deps, repoRoot, artifactRoot, run.runId, pruneStatusOf(run));
    if ('reason' in planned) plan.kept.push(planned);
    else plan.remove.push(planned);
  }
  return plan;
}

export interface PruneOutcome {
  removed: PruneItem[];
  failed: { item: PruneItem; error: LatheError }[];
}

/**
 * Removes each planned run: branch and worktree first (refused again if the branch got checked out
 * meanwhile), then its artifacts, then its folder last, so a run that could not be removed stays listed.
 */
export async function applyPrune(deps: PruneDeps, repoRoot: string, plan: PrunePlan): Promise<PruneOutcome> {
  const outcome: PruneOutcome = { removed: [], failed: [] };
  for (const item of plan.remove) {
    try {
      const state = RunStore.readState(repoRoot, item.runId);
      if (state.workspace && (item.branch !== null || item.worktree !== null)) await deps.git.pruneRun(state.workspace);
      for (const dir of item.artifacts) await fs.promises.rm(dir, { recursive: true, force: true });
      await fs.promises.rm(item.runFolder, { recursive: true, force: true });
      outcome.removed.push(item);
    } catch (error) {
      outcome.failed.push({ item, error: LatheError.from(error) });
    }
  }
  return outcome;
}
