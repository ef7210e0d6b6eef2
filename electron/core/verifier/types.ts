import type { TestRecord } from '../../../shared/schemas/testInventory';

// The Verifier's contract (seed 004): what a test run is asked and what it reports.

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
  runner:
    | 'npm'
    | 'node-test'
    | 'vitest'
    | 'jest'
    | 'mocha'
    | 'ava'
    | 'jasmine'
    | 'tape'
    | 'uvu'
    | 'pytest'
    | 'unittest'
    | 'nose2'
    | 'go'
    | 'cargo'
    | 'make';
  /** Why this command was chosen, shown to the user as `detected: <runner> (<reason>)` (`detectionLabel`). */
  reason: string;
}
