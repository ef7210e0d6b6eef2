import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IsolationLevel, VerifyRequest, VerifyResult } from '../workspace/types';
import { runNativeGit } from '../git/nativeGit';
import { createArtifactDir, newVerifyRunId, pruneArtifacts, writeManifest, type VerifyManifest } from './artifacts';
import { makeTemporaryCheckout, type TemporaryCheckout } from './checkout';
import { classify } from './classify';
import { findExecutable } from './commandLookup';
import { coverageFromLcov } from './coverage';
import { parseJUnit, type TestOutcome } from './junit';
import { createProcessCap } from './processCap';
import { runProcess, type RunProcessResult } from './processTree';
import { lastLines, truncateReport } from './report';
import { prepareCommand } from './runnerFlags';
import { bwrapArgv, probeSandbox, readOnlyRootsFor } from './sandbox';
import { parseSummaryLines } from './summaryLines';

export const VERIFY_DEFAULTS = { outputCapBytes: 1024 * 1024, logCapBytes: 32 * 1024 * 1024, outputLimitBytes: 64 * 1024 * 1024, tailLines: 200 } as const;

interface Plan {
  level: IsolationLevel;
  detail: string;
  runDir: string;
  checkout: TemporaryCheckout | null;
}

async function headCommit(workDir: string): Promise<string | null> {
  const result = await runNativeGit(workDir, ['rev-parse', '--verify', '-q', 'HEAD']).catch(() => null);
  return result?.code === 0 ? result.stdout.trim() : null;
}

async function planIsolation(request: VerifyRequest, commit: string | null): Promise<Plan | { error: string; level: IsolationLevel }> {
  const wanted = request.isolation ?? 'auto';
  if (wanted === 'none') return { level: 'none', detail: 'no isolation (requested): ran directly in the work folder', runDir: request.workDir, checkout: null };
  let why = 'checkout isolation was requested';
  if (wanted === 'bwrap' || wanted === 'auto') {
    const probe = await probeSandbox();
    if (probe.available) {
      return { level: 'bwrap', detail: 'bubblewrap: repository read-only, network cut, private /tmp and PID namespace; only ARTIFACT_DIR is writable', runDir: request.workDir, checkout: null };
    }
    if (wanted === 'bwrap') return { error: `the sandbox is not available: ${probe.detail}`, level: 'bwrap' };
    why = probe.detail;
  }
  try {
    const checkout = await makeTemporaryCheckout(request.workDir, request.commit ?? null);
    const detail = `reduced isolation (${why}): ran in ${checkout.description}, so the repository cannot be written; the network and the rest of the file system are NOT cut off`;
    return { level: 'checkout', detail, runDir: checkout.dir, checkout };
  } catch (error) {
    return { error: `could not make a temporary checkout${commit ? ` of ${commit.slice(0, 12)}` : ''}: ${(error as Error).message}`, level: 'checkout' };
  }
}

function cleanEnv(request: VerifyRequest, artifactDir: string, level: IsolationLevel, extra: Record<string, string>): Record<string, string> {
  const home = level === 'bwrap' ? '/tmp/home' : path.join(artifactDir, 'tmp', 'home');
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    TMPDIR: level === 'bwrap' ? '/tmp' : path.join(artifactDir, 'tmp'),
    LANG: 'C.UTF-8',
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONUNBUFFERED: '1',
    CI: 'true',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    XDG_CACHE_HOME: path.join(artifactDir, 'cache'),
    npm_config_cache: path.join(artifactDir, 'cache', 'npm'),
    npm_config_update_notifier: 'false',
    ARTIFACT_DIR: artifactDir,
    ...extra,
    ...request.env,
  };
}

function notRun(reason: string, durationMs = 0): RunProcessResult {
  return { exitCode: null, signal: null, timedOut: false, cancelled: false, durationMs, output: '', outputBytes: 0, spawnError: reason, flooded: false };
}

/** Seed 004's Verifier: runs the test command isolated, and returns PASS | FAIL | INFRA_ERROR with its evidence. */
export async function verify(request: VerifyRequest): Promise<VerifyResult> {
  const verifyRunId = newVerifyRunId();
  await fs.promises.mkdir(request.artifactRoot, { recursive: true });
  await pruneArtifacts(request.artifactRoot).catch(() => []);
  const artifactDir = await createArtifactDir(request.artifactRoot, verifyRunId);
  const logPath = path.join(artifactDir, 'logs', 'test.log');
  const manifestPath = path.join(artifactDir, 'manifest.json');
  const startedAt = new Date();
  const workDir = await fs.promises.realpath(request.workDir).catch(() => path.resolve(request.workDir));
  const commit = request.commit ?? (await headCommit(workDir));
  const prepared = prepareCommand(request.argv, artifactDir, request.coverageFor);
  const manifest: VerifyManifest = {
    run_id: verifyRunId,
    status: 'RUNNING',
    started_at: startedAt.toISOString(),
    finished_at: null,
    commit,
    argv: prepared.argv,
    requested_argv: request.argv,
    cwd: workDir,
    exit_code: null,
    signal: null,
    timed_out: false,
    duration_ms: null,
    reason: null,
    isolation: { level: request.isolation ?? 'auto', detail: 'not decided yet' },
    platform: { os: process.platform, release: os.release(), arch: process.arch, node: process.version },
    counts: null,
    output_bytes: null,
    log: logPath,
  };
  await writeManifest(manifestPath, manifest);

  const plan = request.argv.length === 0 ? { error: 'no test command given', level: 'none' as IsolationLevel } : await planIsolation({ ...request, workDir }, commit);
  let run: RunProcessResult;
  let isolation: { level: IsolationLevel; detail: string };
  let runDir = workDir;
  if ('error' in plan) {
    isolation = { level: plan.level, detail: plan.error };
    run = notRun(plan.error);
    await fs.promises.writeFile(logPath, `${plan.error}\n`);
  } else {
    isolation = { level: plan.level, detail: plan.detail };
    runDir = plan.runDir;
    const env = cleanEnv(request, artifactDir, plan.level, prepared.env);
    try {
      const executable = await findExecutable(prepared.argv[0] as string, runDir, env.PATH as string);
      if (!executable) {
        run = notRun(`command not found: ${prepared.argv[0]}`);
        await fs.promises.writeFile(logPath, `command not found: ${prepared.argv[0]}\n`);
      } else {
        const argv =
          plan.level === 'bwrap'
            ? bwrapArgv({ readOnly: await readOnlyRootsFor(runDir), writable: artifactDir, cwd: runDir, argv: prepared.argv })
            : prepared.argv;
        const cap = await createProcessCap(verifyRunId, request.maxProcesses);
        isolation = { level: isolation.level, detail: `${isolation.detail}; ${cap.detail}` };
        try {
          run = await runProcess({
            argv: cap.wrap(argv),
            cwd: runDir,
            env,
            timeoutMs: request.timeoutMs,
            capBytes: request.outputCapBytes ?? VERIFY_DEFAULTS.outputCapBytes,
            logFile: logPath,
            logCapBytes: VERIFY_DEFAULTS.logCapBytes,
            outputLimitBytes: request.outputLimitBytes ?? VERIFY_DEFAULTS.outputLimitBytes,
            marker: verifyRunId,
            signal: request.signal,
          });
        } finally {
          await cap.release();
        }
      }
    } finally {
      if (plan.checkout) await plan.checkout.remove();
    }
  }

  const outcome = await readOutcome(prepared.junitFile, run.output);
  const verdict = classify(run, prepared.runner, outcome, request.timeoutMs, isolation.level === 'bwrap');
  const coverage = prepared.coverage && request.coverageFor?.length ? await coverageFromLcov(prepared.coverage.file, runDir, request.coverageFor) : null;
  const output = run.spawnError && !run.output ? run.spawnError : run.output;
  const finishedAt = new Date();
  await writeManifest(manifestPath, {
    ...manifest,
    status: verdict.status,
    finished_at: finishedAt.toISOString(),
    exit_code: run.exitCode,
    signal: run.signal,
    timed_out: run.timedOut,
    duration_ms: run.durationMs,
    reason: verdict.reason,
    isolation,
    counts: outcome?.counts ?? null,
    output_bytes: run.outputBytes,
  });
  return {
    verifyRunId,
    status: verdict.status,
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    reason: verdict.reason,
    isolation,
    counts: outcome?.counts ?? null,
    firstFailure: outcome?.firstFailure ?? null,
    report: truncateReport(output),
    tail: lastLines(output, VERIFY_DEFAULTS.tailLines),
    coverage,
    artifactDir,
    logPath,
    manifestPath,
  };
}

/** JUnit when the runner wrote it, else the runner's summary lines. */
async function readOutcome(junitFile: string | null, output: string): Promise<TestOutcome | null> {
  if (junitFile) {
    const xml = await fs.promises.readFile(junitFile, 'utf8').catch(() => null);
    const parsed = xml ? parseJUnit(xml) : null;
    if (parsed && parsed.counts.total > 0) return parsed;
  }
  return parseSummaryLines(output);
}
