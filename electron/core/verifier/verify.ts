import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BuildResult, IsolationLevel, VerifyRequest, VerifyResult, WorkDirWrites } from './types';
import { runNativeGit } from '../git/nativeGit';
import {
  createArtifactDir,
  newVerifyRunId,
  pruneArtifactsOccasionally,
  writeManifest,
  type VerifyManifest,
} from './artifacts';
import { classify, type Classification } from './classify';
import { findExecutableSync } from '../basics/commandLookup';
import { coverageFromLcov } from './coverage';
import { failureExcerpt, failureViews } from './excerpt';
import { cleanEnv, commandLine, planIsolation, type IsolationPlan } from './isolation';
import { createProcessCap, type ProcessCap } from './processCap';
import { runProcess, type RunProcessResult } from '../basics/processTree';
import { readOutcome } from './readOutcome';
import { writeTestInventory } from './testInventory';
import { lastLines, truncateReport } from '../basics/outputText';
import { prepareCommand, type RunnerKind } from './runnerFlags';
import type { TestOutcome } from './parsers/outcome';
import { undoWorkDirWrites } from './workDirGuard';
import { fullDiskAmong } from './diskSpace';
import { readHeadCommit } from './workTreeStatus';

export const VERIFY_DEFAULTS = {
  outputCapBytes: 1024 * 1024,
  logCapBytes: 32 * 1024 * 1024,
  outputLimitBytes: 64 * 1024 * 1024,
  tailLines: 200,
} as const;

function realpathOr(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    // catch-ok: a work dir that cannot be resolved is used as given
    return path.resolve(dir);
  }
}

async function headCommit(workDir: string): Promise<string | null> {
  const fromFiles = readHeadCommit(workDir);
  if (fromFiles) return fromFiles;
  // catch-ok: no git to ask is no HEAD to record: the verdict stands on the tests
  const result = await runNativeGit(workDir, ['rev-parse', '--verify', '-q', 'HEAD']).catch(() => null);
  return result?.code === 0 ? result.stdout.trim() : null;
}

function notRun(reason: string, durationMs = 0): RunProcessResult {
  return {
    exitCode: null,
    signal: null,
    timedOut: false,
    cancelled: false,
    durationMs,
    output: '',
    outputBytes: 0,
    spawnError: reason,
    flooded: false,
  };
}

interface PhaseContext {
  request: VerifyRequest;
  plan: IsolationPlan;
  artifactDir: string;
  cap: ProcessCap;
  marker: string;
}

/** One command (the build or the tests) under the plan; a missing program is reported before anything starts. */
async function runPhase(
  context: PhaseContext,
  argv: string[],
  env: Record<string, string>,
  logPath: string,
): Promise<RunProcessResult> {
  const { request, plan } = context;
  if (!findExecutableSync(argv[0] as string, plan.runDir, env.PATH as string)) {
    await fs.promises.writeFile(logPath, `command not found: ${argv[0]}\n`);
    return notRun(`command not found: ${argv[0]}`);
  }
  return runProcess({
    argv: commandLine(plan, argv, context.artifactDir, env, context.cap),
    cwd: plan.runDir,
    env,
    timeoutMs: request.timeoutMs,
    capBytes: request.outputCapBytes ?? VERIFY_DEFAULTS.outputCapBytes,
    logFile: logPath,
    logCapBytes: VERIFY_DEFAULTS.logCapBytes,
    outputLimitBytes: request.outputLimitBytes ?? VERIFY_DEFAULTS.outputLimitBytes,
    marker: context.marker,
    signal: request.signal,
    // bubblewrap's PID namespace dies with the command, and a cgroup's release kills what is left in
    // it: either way there is nothing to look for in /proc.
    sweepAfterExit: plan.level !== 'bwrap' && !context.cap.contains,
  });
}

const READ_ONLY = /EROFS|Read-only file system/;

function buildResult(argv: string[], run: RunProcessResult, verdict: Classification, logPath: string): BuildResult {
  const output = run.spawnError && !run.output ? run.spawnError : run.output;
  return {
    argv,
    status: verdict.status,
    exitCode: run.exitCode,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    reason: verdict.reason,
    report: truncateReport(output),
    tail: lastLines(output, VERIFY_DEFAULTS.tailLines),
    logPath,
  };
}

/** The manifest as a run starts: what was asked and where, nothing measured yet. */
function startingManifest(
  request: VerifyRequest,
  at: { verifyRunId: string; startedAt: Date; commit: string | null; workDir: string; logPath: string },
  argv: string[],
  buildArgv: string[] | null,
): VerifyManifest {
  return {
    run_id: at.verifyRunId,
    status: 'RUNNING',
    started_at: at.startedAt.toISOString(),
    finished_at: null,
    commit: at.commit,
    argv,
    requested_argv: request.argv,
    build_argv: buildArgv,
    cwd: at.workDir,
    exit_code: null,
    signal: null,
    timed_out: false,
    duration_ms: null,
    reason: null,
    isolation: { level: request.isolation ?? 'auto', detail: 'not decided yet' },
    platform: { os: process.platform, release: os.release(), arch: process.arch, node: process.version },
    counts: null,
    output_bytes: null,
    log: at.logPath,
    build: null,
    work_dir_writes: null,
  };
}

interface CommandsRun {
  run: RunProcessResult;
  isolation: { level: IsolationLevel; detail: string };
  /** Where the commands ran: the work dir, or the temporary checkout of the fallback. */
  runDir: string;
  build: BuildResult | null;
  writes: WorkDirWrites | null;
  diskFull: string | null;
}

/**
 * The build (when asked) and the tests under the isolation plan, in a process cap; by the time this
 * returns, what they wrote in the work dir is undone and a temporary checkout removed.
 */
async function runCommands(
  request: VerifyRequest,
  plan: IsolationPlan | { error: string; level: IsolationLevel },
  at: { workDir: string; artifactDir: string; logPath: string; buildLogPath: string; verifyRunId: string },
  prepared: { argv: string[]; env: Record<string, string> },
  buildArgv: string[] | null,
): Promise<CommandsRun> {
  const { artifactDir, logPath, buildLogPath, verifyRunId } = at;
  let run: RunProcessResult;
  let isolation: { level: IsolationLevel; detail: string };
  let runDir = at.workDir;
  let build: BuildResult | null = null;
  let writes: WorkDirWrites | null = null;
  let diskFull: string | null = null;
  if ('error' in plan) {
    isolation = { level: plan.level, detail: plan.error };
    run = notRun(plan.error);
    await fs.promises.writeFile(logPath, `${plan.error}\n`);
  } else {
    isolation = { level: plan.level, detail: plan.detail };
    runDir = plan.runDir;
    const cap = await createProcessCap(verifyRunId, request.maxProcesses, { sandboxed: plan.level === 'bwrap' });
    isolation = { level: isolation.level, detail: `${isolation.detail}; ${cap.detail}` };
    const context: PhaseContext = { request, plan, artifactDir, cap, marker: verifyRunId };
    try {
      if (buildArgv) {
        const buildRun = await runPhase(
          context,
          buildArgv,
          cleanEnv(request, artifactDir, plan.level, {}),
          buildLogPath,
        );
        build = buildResult(
          buildArgv,
          buildRun,
          classify(buildRun, 'other', null, request.timeoutMs, plan.level === 'bwrap'),
          buildLogPath,
        );
      }
      if (build && build.status !== 'PASS') {
        run = notRun('the build failed; the tests did not run');
        await fs.promises.writeFile(logPath, 'the build failed; the tests did not run\n');
      } else {
        run = await runPhase(context, prepared.argv, cleanEnv(request, artifactDir, plan.level, prepared.env), logPath);
      }
    } finally {
      await cap.release();
      // Asked before the writes are undone, which frees what the commands took.
      diskFull = fullDiskAmong([plan.runDir, artifactDir]);
      if (plan.guard) writes = await undoWorkDirWrites(plan.guard);
      if (plan.checkout) await plan.checkout.remove();
    }
  }

  return { run, isolation, runDir, build, writes, diskFull };
}

/** This verification's id, its artifact folder (made), the work dir resolved, and where its logs and manifest go. */
function verifyPlaces(request: VerifyRequest) {
  const verifyRunId = newVerifyRunId();
  const artifactDir = createArtifactDir(request.artifactRoot, verifyRunId);
  return {
    verifyRunId,
    artifactDir,
    workDir: realpathOr(request.workDir),
    logPath: path.join(artifactDir, 'logs', 'test.log'),
    buildLogPath: path.join(artifactDir, 'logs', 'build.log'),
    manifestPath: path.join(artifactDir, 'manifest.json'),
  };
}

/** The verdict on what ran: a failed build decides it, else the tests' run and results (a read-only sandbox named). */
function commandsVerdict(
  request: VerifyRequest,
  runner: RunnerKind,
  outcome: TestOutcome | null,
  { run, isolation, build, writes }: Pick<CommandsRun, 'run' | 'isolation' | 'build' | 'writes'>,
): Classification {
  const sandboxed = isolation.level === 'bwrap';
  const verdict: Classification =
    build && build.status !== 'PASS'
      ? buildVerdict(build)
      : classify(run, runner, outcome, request.timeoutMs, sandboxed);
  if (verdict.status === 'FAIL' && verdict.reason === null && sandboxed && !writes && READ_ONLY.test(run.output)) {
    verdict.reason = `the command hit a read-only file system: ${isolation.detail.split('; ')[1] ?? 'the work folder is read-only'}`;
  }
  return verdict;
}

/** The starting manifest with what was measured. */
function finishedManifest(
  manifest: VerifyManifest,
  verdict: Classification,
  outcome: TestOutcome | null,
  testsFile: string | null,
  { run, isolation, build, writes }: Pick<CommandsRun, 'run' | 'isolation' | 'build' | 'writes'>,
): VerifyManifest {
  return {
    ...manifest,
    status: verdict.status,
    finished_at: new Date().toISOString(),
    exit_code: run.exitCode,
    signal: run.signal,
    timed_out: run.timedOut,
    duration_ms: run.durationMs,
    reason: verdict.reason,
    isolation,
    counts: outcome?.counts ?? null,
    results_from: outcome ? `${outcome.runner} (${outcome.source})` : null,
    tests_file: testsFile,
    output_bytes: run.outputBytes,
    build: build && manifestBuild(build),
    work_dir_writes: writes,
  };
}

/** Seed 004's Verifier: builds (when asked) and runs the tests isolated, and returns PASS | FAIL | INFRA_ERROR with its evidence. */
export async function verify(request: VerifyRequest): Promise<VerifyResult> {
  const places = verifyPlaces(request);
  const { verifyRunId, artifactDir, workDir, logPath, manifestPath } = places;
  const startedAt = new Date();
  const prepared = prepareCommand(request.argv, artifactDir, request.coverageFor);
  const buildArgv = request.buildArgv?.length ? request.buildArgv : null;
  const plan =
    request.argv.length === 0
      ? { error: 'no test command given', level: 'none' as IsolationLevel }
      : await planIsolation(request, workDir, artifactDir);
  const commit = request.commit ?? ('error' in plan ? null : plan.guard?.before.head) ?? (await headCommit(workDir));
  const manifest = startingManifest(
    request,
    { verifyRunId, startedAt, commit, workDir, logPath },
    prepared.argv,
    buildArgv,
  );
  writeManifest(manifestPath, manifest);

  const { run, isolation, runDir, build, writes, diskFull } = await runCommands(
    request,
    plan,
    places,
    prepared,
    buildArgv,
  );

  const buildFailed = build !== null && build.status !== 'PASS';
  const outcome = buildFailed ? null : await readOutcome(prepared, run.output, runDir);
  const firstFailure = failureViews(outcome, runDir)[0] ?? null;
  const verdict = commandsVerdict(request, prepared.runner, outcome, { run, isolation, build, writes });
  const testsFile = outcome?.tests
    ? await writeTestInventory(artifactDir, { runner: outcome.runner, source: outcome.source, tests: outcome.tests })
    : null;
  const coverage =
    !buildFailed && prepared.coverage && request.coverageFor?.length
      ? await coverageFromLcov(prepared.coverage.file, runDir, request.coverageFor)
      : null;
  const output = run.spawnError && !run.output ? run.spawnError : run.output;
  writeManifest(
    manifestPath,
    finishedManifest(manifest, verdict, outcome, testsFile, { run, isolation, build, writes }),
  );
  // catch-ok: pruning is housekeeping: a failure costs only space, and the verdict is what this call returns
  await pruneArtifactsOccasionally(request.artifactRoot).catch(() => []);
  return {
    verifyRunId,
    status: verdict.status,
    exitCode: buildFailed ? (build?.exitCode ?? null) : run.exitCode,
    signal: run.signal,
    timedOut: buildFailed ? (build?.timedOut ?? false) : run.timedOut,
    durationMs: (build?.durationMs ?? 0) + run.durationMs,
    reason: verdict.reason,
    isolation,
    counts: outcome?.counts ?? null,
    tests: outcome?.tests ?? null,
    firstFailure: firstFailure && {
      testId: firstFailure.testId,
      message: firstFailure.message,
      location: firstFailure.location,
    },
    resultsFrom: outcome ? `${outcome.runner} (${outcome.source})` : null,
    report: buildFailed && build ? build.report : truncateReport(output),
    excerpt: failureExcerpt({
      status: verdict.status,
      exitCode: buildFailed ? (build?.exitCode ?? null) : run.exitCode,
      reason: verdict.reason,
      outcome,
      output: buildFailed && build ? build.tail : output,
      repoDir: runDir,
      noResults: buildFailed ? 'the build failed, so no tests ran' : undefined,
    }),
    tail: buildFailed && build ? build.tail : lastLines(output, VERIFY_DEFAULTS.tailLines),
    coverage,
    build,
    failedPhase: verdict.status === 'PASS' ? null : buildFailed ? 'build' : 'test',
    workDirWrites: writes,
    artifactDir,
    logPath: buildFailed && build ? build.logPath : logPath,
    manifestPath,
    diskFull,
  };
}

function manifestBuild(build: BuildResult): NonNullable<VerifyManifest['build']> {
  return {
    argv: build.argv,
    status: build.status,
    exit_code: build.exitCode,
    timed_out: build.timedOut,
    duration_ms: build.durationMs,
    reason: build.reason,
    log: build.logPath,
  };
}

/** A failed build decides the verdict: the tests never ran, so this is not a test failure. */
function buildVerdict(build: BuildResult): Classification {
  const cause = build.reason ?? (build.exitCode !== null ? `exit ${build.exitCode}` : 'it did not finish');
  if (build.status === 'INFRA_ERROR')
    return { status: 'INFRA_ERROR', reason: `the build command could not run: ${cause}; the tests did not run` };
  return { status: 'FAIL', reason: `the build failed (${cause}); the tests did not run` };
}
