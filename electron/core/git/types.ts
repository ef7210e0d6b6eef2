import type { z } from 'zod';
import type { LineChangeSchema } from '../../../shared/diff/lineDiff';

// The git layer's contract: preflight, a run's workspace, its commits and diffs, workspace setup.

export interface RepoPreflight {
  repoRoot: string;
  branch: string | null;
  head: string | null;
  detached: boolean;
  /** Uncommitted paths (modified, staged, untracked; ignored files excluded). */
  dirtyPaths: string[];
  nativeGit: string | null;
  /** Index format facts; isomorphic-git misreads split indexes and v4. */
  index: { version: number | null; split: boolean };
  /** null when isomorphic-git can be used; otherwise why native git is required. */
  isomorphicUnsafeReason: string | null;
  hasSubmodules: boolean;
}

export type WorkspaceMode = 'worktree' | 'in-place';

export interface ApplyOptions {
  /**
   * Flush each new file before it replaces the old one. A run's own worktree is rebuilt from its
   * commits, whose objects are not flushed either (decision 57), so only edits in the user's
   * checkout (in-place runs) pay for it.
   */
  durable: boolean;
}

/** Where a run's edits happen; persisted in state.json so a resumed run reopens the same place. */
export interface RunWorkspace {
  runId: string;
  repoRoot: string;
  /** The folder edits are written to and tests run in. */
  workDir: string;
  mode: WorkspaceMode;
  /** `<prefix>/<run_id>` */
  branch: string;
  baseCommit: string;
  /** The branch the user had checked out, or null on a detached HEAD. */
  originalBranch: string | null;
  /** Paths that were dirty at start; never written by the run (in-place mode). */
  protectedPaths: string[];
}

export interface StartRunOptions {
  runId: string;
  branchPrefix: string;
  /** Carry on although the tree is dirty; those files are then protected. */
  allowDirty: boolean;
  /** Default: worktree when native git is installed, else in-place. */
  mode?: WorkspaceMode;
  /** Where worktree runs live (`workspace.worktree_root`); default: LATHE_WORKTREE_ROOT, else a per-platform folder. */
  worktreeRoot?: string | null;
  /** Ignored folder names linked from the checkout into a worktree run; default: the built-in list. */
  dependencyFolders?: readonly string[];
  /** The commit the run branch starts from (a follow-up: its parent's head); default: HEAD. It becomes the run's base. */
  startCommit?: string | null;
}

/** The configured setup command for a worktree run (`workspace.setup`), run where the run's tests run. */
export interface WorkspaceSetupRequest {
  workspace: RunWorkspace;
  argv: string[];
  timeoutMs: number;
  /** Full output goes here (the result keeps an excerpt). */
  logFile?: string;
  signal?: AbortSignal;
}

export interface WorkspaceSetupResult {
  /** skipped: in-place run, or already done in this worktree. */
  status: 'passed' | 'failed' | 'skipped';
  /** Why it failed or was skipped; null when it passed. */
  reason: string | null;
  argv: string[];
  cwd: string;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** Seed 000's excerpt of the output (first and last lines). */
  output: string;
  logFile: string | null;
  /** Tracked files the setup changed, put back as the base has them (a lockfile the installer rewrote). */
  restored: string[];
  /** What the user should know: the install `auto` chose and why, a stand-in package manager, what was restored. */
  note: string | null;
}

export interface StepCommit {
  runId: string;
  taskId: string;
  title: string;
  role: string;
  attempt?: number;
  /** Extra lines for the body (e.g. test counts). */
  body?: string;
}

export interface RunCommitInfo {
  sha: string;
  subject: string;
  taskId: string | null;
  files: { path: string; added: number; removed: number }[];
}

export interface RunDiffFile {
  path: string;
  before: string | null;
  after: string | null;
  added: number;
  removed: number;
  /** The changed blocks, 1-based (`LineChangeSchema`). */
  changes: z.infer<typeof LineChangeSchema>[];
}

export interface GitFacade {
  preflight(repoRoot: string): Promise<RepoPreflight>;
  /** Creates the run branch and workspace; refuses a dirty tree (DIRTY_WORKTREE) unless allowed. */
  startRun(repoRoot: string, options: StartRunOptions): Promise<RunWorkspace>;
  /** The workspace `startRun` made for this run id before a crash kept it from being recorded, or null. */
  adoptRun(repoRoot: string, options: StartRunOptions): Promise<RunWorkspace | null>;
  /** Takes back what a `startRun` that failed half-way made (worktree, branch still at the base, metadata), without reopening it. */
  discardStartedRun(repoRoot: string, options: StartRunOptions): Promise<void>;
  /** Reopens a persisted workspace for resume; recreates a missing worktree from the branch. */
  reopenRun(workspace: RunWorkspace): Promise<RunWorkspace>;
  /** Commits exactly `paths` (never `add -A`); returns the new commit, or null when nothing changed. */
  commitStep(workspace: RunWorkspace, paths: string[], commit: StepCommit): Promise<string | null>;
  /** The run branch's current commit. */
  headOf(workspace: RunWorkspace): Promise<string>;
  /** Rolls the run branch and its work tree back to `commit` (a failed step, or resume cleanup). */
  resetTo(workspace: RunWorkspace, commit: string): Promise<void>;
  listRunCommits(workspace: RunWorkspace): Promise<RunCommitInfo[]>;
  diffRun(workspace: RunWorkspace, fromCommit?: string, toCommit?: string): Promise<RunDiffFile[]>;
  /** Fast-forwards the original branch to the run branch; only on the user's approval. */
  mergeRun(workspace: RunWorkspace): Promise<{ merged: string }>;
  /** Removes the run branch and worktree and restores the user's checkout exactly as it was. */
  undoRun(workspace: RunWorkspace): Promise<void>;
  /** The run's change from its base to its head (or `toCommit`) as one unified diff (git's own text when installed). */
  runPatch(workspace: RunWorkspace, toCommit?: string): Promise<string>;
  exportPatch(workspace: RunWorkspace, file: string): Promise<{ file: string; commits: number }>;
  /** Pushes the run branch when the remote is reachable; a typed error otherwise. */
  pushRun(workspace: RunWorkspace, remote: string): Promise<{ pushed: boolean; detail: string }>;
  /** Removes a worktree run's folder, wherever it lives, and keeps its branch (after a merge); in place: nothing. */
  closeRun(workspace: RunWorkspace): Promise<void>;
  /** What of the run is still in the repository (`lathe prune` shows it before removing it). */
  runFootprint(workspace: RunWorkspace): Promise<RunFootprint>;
  /** Removes the run's own worktree, its branch and metadata; refused while the branch is checked out elsewhere. */
  pruneRun(workspace: RunWorkspace): Promise<void>;
}

export interface RunFootprint {
  /** The run branch when it still exists. */
  branch: string | null;
  /** The run's own worktree folder, when git still lists it (never the main checkout). */
  worktree: string | null;
  /** A checkout other than the run's own worktree with the run branch checked out, or null. */
  checkedOutIn: string | null;
}
