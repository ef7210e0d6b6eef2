import type { z } from 'zod';
import type { LineChangeSchema } from '../../../shared/schemas/runRequests';
import type { TestRecord } from '../../../shared/schemas/testInventory';

/**
 * The workspace layer's contract with the engine: everything Lathe does to a user's repository goes
 * through these facades. Failures are LatheError (code + plain data) with the codes named here.
 */

// ---------------------------------------------------------------- edit formats and guardrails

export const EDIT_FORMAT_NAMES = ['whole-file', 'unified-diff', 'search-replace'] as const;
export type EditFormatName = (typeof EDIT_FORMAT_NAMES)[number];

export interface EditPolicy {
  /** Artifacts-only (seed 000): when set, only these repo-relative paths may be written. */
  artifacts: string[] | null;
  /** Tests are read-only (seed 000): paths matching `testPatterns` may not be written. */
  testsReadOnly: boolean;
  /** Globs (repo-relative) that mark test files; defaults cover pytest, node --test, jest/vitest, go, cargo. */
  testPatterns: string[];
  /** Paths the run must never touch, such as the user's uncommitted files when working in place. */
  protectedPaths: string[];
  /** Largest content a single file may get, in bytes. */
  maxFileBytes: number;
  /**
   * Whether a whole-file answer may drop a large part of a file (`drops-code`): the engine allows it
   * when the task asks for a removal; otherwise such an answer is a model that skipped what it keeps.
   */
  allowLargeDeletions: boolean;
}

/** Rule names carried in `data.rule` of an EDIT_REJECTED error, with `data.path`. */
export const GUARDRAIL_RULES = [
  'absolute-path',
  'escapes-repo',
  'symlink-escape',
  'git-dir',
  'lathe-dir',
  'not-an-artifact',
  'tests-read-only',
  'protected-path',
  'too-large',
  'binary-content',
  'invalid-path',
  'patch-does-not-apply',
  'search-not-found',
  'duplicate-path',
  'elided-code',
  'drops-code',
  'duplicate-file',
  /** An answer, or an edit of it, that changes nothing. */
  'no-change',
  /** The step commit: a file git would store through a filter driver, which Lathe never runs. */
  'needs-filter',
] as const;
export type GuardrailRule = (typeof GUARDRAIL_RULES)[number];

/** One file's planned change: `before` null = create, `after` null = delete. */
export interface PlannedFileChange {
  path: string;
  before: string | null;
  after: string | null;
}

export interface PlannedEditSet {
  format: EditFormatName;
  /** Sorted by path (seed 000 determinism). */
  changes: PlannedFileChange[];
  /**
   * Edits of the answer that change nothing though the answer changes something (`edit 2 (a.py): its
   * replace is the same as its search`): a model that wrote one thought it changed what it did not.
   */
  unchanged?: string[];
}

export interface WorkspaceReader {
  /** Repo-relative read of the current file, or null when it does not exist. */
  read(path: string): Promise<string | null>;
  /**
   * The repository's files (repo-relative, gitignored ones left out), listed once per reader. Lets a
   * format name the file a wrong path meant and refuse a new file that copies one; without it those
   * checks are skipped.
   */
  listFiles?(): Promise<string[]>;
}

/**
 * A named, swappable strategy: the Coder's output schema for this format, the prompt fragment that
 * teaches it (prompts/edit-formats/<name>.md) and `plan`, which resolves the proposal against the
 * files on disk without writing anything. `plan` throws EDIT_REJECTED naming the rule and path.
 */
export interface EditFormat<TProposal = unknown> {
  name: EditFormatName;
  schema: z.ZodType<TProposal>;
  plan(proposal: TProposal, reader: WorkspaceReader, policy: EditPolicy): Promise<PlannedEditSet>;
}

export interface AppliedEditSet {
  changed: string[];
  created: string[];
  deleted: string[];
}

// ---------------------------------------------------------------- git

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

// ---------------------------------------------------------------- verifier (seed 004)

export type VerifyStatus = 'PASS' | 'FAIL' | 'INFRA_ERROR';
export type IsolationLevel = 'bwrap' | 'checkout' | 'none';

export interface VerifyRequest {
  /** Folder the tests run in (the run's work dir). */
  workDir: string;
  argv: string[];
  timeoutMs: number;
  /** Root for this project's verifier artifacts: ARTIFACT_DIR = <artifactRoot>/<verify_run_id>/. */
  artifactRoot: string;
  /** Commit under test (recorded in the manifest; checked out for the `checkout` fallback). */
  commit?: string;
  /** `auto` probes bubblewrap once and falls back to a temporary checkout. */
  isolation?: 'auto' | IsolationLevel;
  env?: Record<string, string>;
  /** Extra folders or files shown read-only in the sandbox (`policies.sandbox.read_paths`), absolute. */
  readPaths?: string[];
  /** Cap on captured output; the full log (up to a larger cap) goes to the artifact file. */
  outputCapBytes?: number;
  /** A command writing more than this is killed as a flood (default 64 MiB). */
  outputLimitBytes?: number;
  /** Most processes the test run may have at once (default 512; a fork bomb stops there). */
  maxProcesses?: number;
  /** Ask the runner for coverage of these repo-relative paths when it can measure it. */
  coverageFor?: string[];
  /** Seed 004's build step: run before the tests, in the same sandbox; its failure is a build failure. */
  buildArgv?: string[];
  /**
   * Whether the commands may write inside `workDir` (builds, caches, coverage); what they write is
   * undone after the run and reported. Default: yes for a linked git worktree (a run's own copy),
   * no for a main checkout (the user's own) or a folder that is not a git work tree.
   */
  writableWorkDir?: boolean;
  /**
   * The caller vouches that the work tree is this commit, as the last verify of it left it, with only
   * the caller's own committed step since (the engine knows it: decision 56). The writable work tree's
   * guard then need not ask git for its state before the commands (decision 67).
   */
  workTreeAt?: string;
  signal?: AbortSignal;
}

export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
  total: number;
}

/** What the build and test commands wrote inside the work folder, and how it was undone. */
export interface WorkDirWrites {
  /** Tracked files the commands changed or deleted; put back to the candidate's content. */
  restored: string[];
  /** Untracked or ignored entries the commands created (build output, caches); removed. */
  removed: string[];
  /** Symlinks (linked dependency folders) the commands replaced or deleted; made again. */
  relinked: string[];
  /** What could not be put back, with why; the work folder then differs from the candidate. */
  failed: string[];
}

export interface BuildResult {
  argv: string[];
  status: VerifyStatus;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  reason: string | null;
  /** Seed 000 truncation of the build output. */
  report: string;
  /** The last 200 lines of the build output. */
  tail: string;
  logPath: string;
}

export interface VerifyResult {
  verifyRunId: string;
  status: VerifyStatus;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  /** Why INFRA_ERROR (or FAIL by timeout), plainly. */
  reason: string | null;
  isolation: { level: IsolationLevel; detail: string };
  counts: TestCounts | null;
  /**
   * Every test the runner reported, in its order, ids as failures are named (the test inventory,
   * also in `<artifactDir>/tests.json`); null when its output named only failures or counts.
   */
  tests: TestRecord[] | null;
  /** The runner's first failing test: its id, the error's first lines, and its place in the repository when known. */
  firstFailure: { testId: string; message: string; location: string | null } | null;
  /** Where counts and failures were read from (`mocha (spec output)`, `pytest (JUnit XML)`); null when nothing could be read. */
  resultsFrom: string | null;
  /** Seed 000 truncation: over 4000 chars, first 2500 + "\n...\n" + last 1000. */
  report: string;
  /** What a model is shown of the run elsewhere: result, summary, each failure's name, message and repository frames, then the tail, within FAILURE_EXCERPT_CHARS. */
  excerpt: string;
  /** Seed 004: the last 200 lines. */
  tail: string;
  /** Line coverage of `coverageFor` paths, when measured. */
  coverage: { percent: number; files: Record<string, number> } | null;
  /** The build step's result when `buildArgv` was given; a failed build means the tests did not run. */
  build: BuildResult | null;
  /** Which command decided a non-PASS status: the build, or the tests. */
  failedPhase: 'build' | 'test' | null;
  /** Whether the commands could write in the work folder; null when they could not (read-only or not checked). */
  workDirWrites: WorkDirWrites | null;
  artifactDir: string;
  logPath: string;
  manifestPath: string;
  /** A folder whose disk was full when the commands ended (they filled it): the result says nothing of the code. */
  diskFull?: string | null;
}

export interface DetectedTestCommand {
  argv: string[];
  runner: 'npm' | 'node-test' | 'vitest' | 'jest' | 'mocha' | 'ava' | 'jasmine' | 'tape' | 'uvu' | 'pytest' | 'unittest' | 'nose2' | 'go' | 'cargo' | 'make';
  /** Why this command was chosen, shown to the user as `detected: <runner> (<reason>)` (`detectionLabel`). */
  reason: string;
}

// ---------------------------------------------------------------- read-only tools and the shell

export interface RepoSummaryOptions {
  maxEntries?: number;
  maxBytes?: number;
}

export interface SearchHit {
  path: string;
  line: number;
  text: string;
}

export interface ReadOnlyTools {
  /** `unreadable`: folders that exist but could not be listed, skipped as `git status` skips them. */
  listFiles(options?: { under?: string; limit?: number }): Promise<{ files: string[]; truncated: boolean; unreadable: string[] }>;
  readFile(path: string, options?: { maxBytes?: number }): Promise<{ content: string; truncated: boolean }>;
  searchText(query: string, options?: { regex?: boolean; maxResults?: number; under?: string }): Promise<{ hits: SearchHit[]; truncated: boolean }>;
  /** Seed 000: relative paths with a brief note each, bounded, ranked for large repos. */
  repoSummary(options?: RepoSummaryOptions): Promise<string>;
}

export interface ShellResult {
  argv: string[];
  exitCode: number | null;
  output: string;
  timedOut: boolean;
  durationMs: number;
}
