import type { RunState, TestSummary } from '../../../shared/engine/runState';
import { LatheError } from '../../../shared/errors';
import { quoteGitPath } from '../../../shared/gitPath';
import type { VerificationTool } from '../../../shared/engine/runConfig';
import { diskFull, isDiskFull } from '../fsErrors';
import { checkShellCommand } from '../tools/shell';
import type { VerifyRequest, VerifyResult } from '../verifier/types';
import type { EngineDeps } from './engineDeps';
import type { VerifyPurpose } from '../../../shared/engine/actions';
import { checkInventory, failWeakened, writeBaseline } from './testInventory';

/**
 * What the commands did to the work tree, said where every reader of the result looks (the report):
 * a suite that rewrites sources is a finding for the Tester and the Supervisor, even when it passed.
 */
export function workDirNote(result: Pick<VerifyResult, 'workDirWrites'>): string {
  const writes = result.workDirWrites;
  if (!writes) return '';
  const lines: string[] = [];
  const list = (paths: string[]) =>
    `${paths.slice(0, 10).map(quoteGitPath).join(', ')}${paths.length > 10 ? `, and ${paths.length - 10} more` : ''}`;
  if (writes.restored.length > 0) {
    lines.push(
      `Note: the test command changed ${writes.restored.length} tracked file(s) in the work tree: ${list(writes.restored)}. Lathe put the committed content back after the run, so the change is in no commit; a suite that rewrites sources needs a look.`,
    );
  }
  if (writes.failed.length > 0)
    lines.push(`Warning: what the test command wrote could not all be undone: ${list(writes.failed)}.`);
  return lines.join('\n');
}

function reportOf(result: VerifyResult): string {
  const build =
    result.failedPhase === 'build' && result.build
      ? `The build command (${result.build.argv.join(' ')}) failed; the tests did not run.\n\n`
      : '';
  const note = workDirNote(result);
  return `${build}${result.report}${note ? `\n\n${note}` : ''}`;
}

/** The excerpt's result line already says a build failed; the work-tree note is added as to the report. */
function excerptOf(result: VerifyResult): string {
  const note = workDirNote(result);
  return `${result.excerpt}${note ? `\n\n${note}` : ''}`;
}

/** The state keeps seed 004's tail for the Editor; a few very long lines must not bloat it. */
const TAIL_CHARS = 24_000;

function summarize(result: VerifyResult): Omit<TestSummary, 'tools'> {
  return {
    status: result.status,
    passed: result.status === 'PASS',
    exit_code: result.exitCode,
    counts: result.counts,
    first_failure: result.firstFailure
      ? {
          test_id: result.firstFailure.testId,
          message: result.firstFailure.message,
          location: result.firstFailure.location,
        }
      : null,
    results_from: result.resultsFrom,
    report: reportOf(result),
    excerpt: excerptOf(result),
    tail: result.tail.length > TAIL_CHARS ? result.tail.slice(-TAIL_CHARS) : result.tail,
    reason: result.reason,
    isolation: `${result.isolation.level}: ${result.isolation.detail}`,
    duration_ms: result.durationMs,
    verify_run_id: result.verifyRunId,
    artifact_dir: result.artifactDir,
    coverage_percent: result.coverage?.percent ?? null,
    failed_phase: result.failedPhase,
    work_dir_writes: result.workDirWrites,
    inventory: null,
  };
}

const CODE_FILE = /\.(c|m)?[jt]sx?$|\.py$/;

/** Coverage only of code a runner can load, and only when the Tester weighs it (seed 002). */
function coverageTargets(state: RunState, wanted: boolean): string[] | undefined {
  if (!wanted) return undefined;
  const files = state.proposal_files.filter((file) => CODE_FILE.test(file));
  return files.length > 0 ? files : undefined;
}

function infraSummary(reason: string): TestSummary {
  return {
    status: 'INFRA_ERROR',
    passed: false,
    exit_code: null,
    counts: null,
    first_failure: null,
    results_from: null,
    report: reason,
    excerpt: reason,
    tail: reason,
    reason,
    isolation: 'none',
    duration_ms: 0,
    verify_run_id: '',
    artifact_dir: '',
    coverage_percent: null,
    failed_phase: null,
    work_dir_writes: null,
    inventory: null,
    tools: [],
  };
}

/** Seed 003's registry lists the build (seed 004, when configured) and the test command first, as required tools. */
export const BUILD_TOOL = 'build';
export const TEST_TOOL = 'tests';
/** How much of a failing tool's output the writer sees. */
const TOOL_OUTPUT_CHARS = 1500;

function cutToolOutput(text: string): string {
  if (text.length <= TOOL_OUTPUT_CHARS) return text;
  const head = text.slice(0, 1000);
  const tail = text.slice(-(TOOL_OUTPUT_CHARS - 1000));
  return `${head}\n... (${text.length - head.length - tail.length} characters cut) ...\n${tail}`;
}

interface ToolOutcome {
  status: TestSummary['status'];
  reason: string | null;
  output: string;
}

/** One registered tool: refused by the allowlist where it applies, else run with its own timeout; never throws but on abort. */
async function runTool(
  deps: EngineDeps,
  base: Omit<VerifyRequest, 'argv'>,
  tool: VerificationTool,
  options: VerificationOptions,
): Promise<ToolOutcome> {
  if (options.allowlist) {
    const check = checkShellCommand(tool.argv, options.allowlist);
    if (!check.allowed)
      return {
        status: 'INFRA_ERROR',
        reason: `rejected by the allowlist: ${check.reason}`,
        output: `${check.command}: not run (${check.reason})`,
      };
  }
  const own = tool.timeout_ms ?? base.timeoutMs;
  try {
    const result = await deps.verify({ ...base, argv: tool.argv, timeoutMs: options.timeoutFor?.(own) ?? own });
    return {
      status: result.status,
      reason: result.reason ?? (result.status === 'PASS' ? null : `exit code ${result.exitCode ?? 'none'}`),
      output: result.report,
    };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    if (isDiskFull(error)) throw diskFull(error, options.artifactRoot);
    const message = LatheError.from(error).message;
    return { status: 'INFRA_ERROR', reason: message, output: message };
  }
}

export interface VerificationOptions {
  artifactRoot: string;
  timeoutMs: number;
  signal?: AbortSignal;
  coverage: boolean;
  /** A tool's own timeout, cut to the run's budgets. */
  timeoutFor?: (ownMs: number) => number;
  /** Seed 001's ShellTool allowlist, where the workflow applies it to verification commands. */
  allowlist?: readonly (readonly string[])[];
  /** The run worktree is known to equal the head (this process committed it, nothing wrote since). */
  workTreeKnownClean?: boolean;
  /** The run's folder, where the starting suite is kept; without it no inventory is recorded or compared. */
  runDir?: string;
  /** Which run this is: the start records the inventory, every later one is compared with it. */
  purpose?: VerifyPurpose;
}

/**
 * The test command, then seed 003's registered verification tools (lint, typecheck, …) in
 * registration order; each tool's failure, even an exception, is its own result.
 */
export async function runVerification(
  deps: EngineDeps,
  state: RunState,
  options: VerificationOptions,
): Promise<TestSummary> {
  const workspace = state.workspace;
  if (!workspace) return infraSummary('the run has no workspace');
  if (!state.test_command)
    return infraSummary('no test command: set test_command in lathe.config.yaml or pass --test-command');
  const base = {
    workDir: workspace.workDir,
    timeoutMs: options.timeoutMs,
    artifactRoot: options.artifactRoot,
    commit: state.head ?? undefined,
    isolation: 'auto' as const,
    readPaths: state.config.sandbox.read_paths,
    signal: options.signal,
    ...(options.workTreeKnownClean && workspace.mode === 'worktree' && state.head ? { workTreeAt: state.head } : {}),
  };
  let main: VerifyResult;
  try {
    const request = {
      ...base,
      argv: state.test_command,
      buildArgv: state.config.build_command ?? undefined,
      coverageFor: coverageTargets(state, options.coverage),
    };
    main = await deps.verify(request);
    // A suite cut off by its timeout says nothing of the code, only of the machine's load at that moment:
    // run once more before the verdict counts, else a right answer is judged failed and the next one
    // is told it "changed nothing" (a suite that hangs times out twice and fails as before).
    if (main.timedOut && !options.signal?.aborted) main = await deps.verify(request);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    if (isDiskFull(error)) throw diskFull(error, options.artifactRoot);
    return infraSummary(`the Verifier failed: ${LatheError.from(error).message}`);
  }
  // The commands filled a disk (their writes are undone by now): no verdict on the code, the run stops.
  if (main.diskFull) {
    throw new LatheError(
      'DISK_FULL',
      `the disk holding ${main.diskFull} filled up while the test command ran; what it wrote in the run's folder was undone — free some space there`,
      {
        folder: main.diskFull,
        log: main.logPath,
      },
    );
  }
  // Seed 004's build step runs first in the same sandbox; when it failed the tests did not run.
  const build: TestSummary['tools'] = main.build
    ? [{ name: BUILD_TOOL, status: main.build.status, required: true, reason: main.build.reason }]
    : [];
  const tests: TestSummary['tools'] =
    main.failedPhase === 'build' ? [] : [{ name: TEST_TOOL, status: main.status, required: true, reason: main.reason }];
  const tools: TestSummary['tools'] = [...build, ...tests];
  const failures: string[] = [];
  // The baseline is only a record of the suite: the registered tools judge changes, and there is none yet.
  const registered = options.purpose === 'baseline' ? [] : state.config.extra_verification;
  for (const tool of registered) {
    const outcome = await runTool(deps, base, tool, options);
    tools.push({ name: tool.name, status: outcome.status, required: tool.required, reason: outcome.reason });
    if (tool.required && outcome.status !== 'PASS')
      failures.push(`${tool.name} failed (${outcome.reason ?? outcome.status}):\n${cutToolOutput(outcome.output)}`);
  }
  const inventory = await recordOrCompare(deps, state, main, options);
  const summarized = { ...summarize(main), tools };
  const summary = inventory?.weakened ? failWeakened(summarized, inventory) : { ...summarized, inventory };
  // What a failing required tool printed reaches the Coder (its feedback is made of these texts), cut to a share.
  const note = failures.length > 0 ? `\n\nVerification tools:\n${failures.join('\n\n')}` : '';
  const withTools = {
    ...summary,
    report: `${summary.report}${note}`,
    excerpt: `${summary.excerpt}${note}`,
    tail: `${summary.tail}${note}`,
  };
  if (summary.passed && failures.length > 0) {
    return { ...withTools, status: 'FAIL', passed: false };
  }
  return withTools;
}

/** The start records the inventory; a later run is compared with it (never on a run that could not start). */
async function recordOrCompare(
  deps: EngineDeps,
  state: RunState,
  main: VerifyResult,
  options: VerificationOptions,
): Promise<TestSummary['inventory']> {
  const { runDir, purpose } = options;
  if (!runDir || !purpose || main.status === 'INFRA_ERROR') return null;
  if (purpose === 'preflight' || purpose === 'baseline') {
    writeBaseline(runDir, main);
    return null;
  }
  return checkInventory(deps, state, runDir, main);
}
