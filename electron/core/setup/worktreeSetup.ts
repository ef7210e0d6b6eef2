import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { WorkspaceSetupRequest, WorkspaceSetupResult } from '../git/types';
import { truncateReport } from '../basics/outputText';
import { findExecutable } from '../basics/commandLookup';
import { runProcess } from '../basics/processTree';
import { resolveGitDirs } from '../git/gitDirs';
import { isAutoSetup, planInstall } from './installCommand';
import { describeRestored, restoreTracked, setupChanges } from './setupGuard';

const MARKER = 'lathe-setup.json';

/**
 * The marker sits in the worktree's own admin folder (`.git/worktrees/<name>/`), which git deletes
 * with the worktree: a worktree recreated on resume has none, so its setup runs again.
 */
async function markerFile(workDir: string): Promise<string> {
  return path.join((await resolveGitDirs(workDir)).gitDir, MARKER);
}

function notRun(
  request: WorkspaceSetupRequest,
  status: 'skipped' | 'failed',
  reason: string,
  note: string | null = null,
): WorkspaceSetupResult {
  return {
    status,
    reason,
    argv: request.argv,
    cwd: request.workspace.workDir,
    exitCode: null,
    timedOut: false,
    durationMs: 0,
    output: status === 'failed' ? reason : '',
    logFile: null,
    restored: [],
    note,
  };
}

const skipped = (request: WorkspaceSetupRequest, reason: string, note: string | null = null) =>
  notRun(request, 'skipped', reason, note);

/**
 * `auto`: the install the repository's lockfile asks for, unless its dependencies are already there
 * (linked from the user's checkout). Returns the request to run, or the result that stands for it.
 */
type SetupRun = WorkspaceSetupRequest & { autoNote?: string };

function resolveAuto(request: WorkspaceSetupRequest): SetupRun | WorkspaceSetupResult {
  const { workDir } = request.workspace;
  const plan = planInstall(workDir);
  if (!plan.argv) return plan.manager ? notRun(request, 'failed', plan.reason) : skipped(request, plan.reason);
  if (fs.existsSync(path.join(workDir, 'node_modules')))
    return skipped(
      request,
      'node_modules is already there (linked from your checkout): nothing to install',
      plan.reason,
    );
  return { ...request, argv: plan.argv, autoNote: plan.reason };
}

/**
 * Runs the configured setup command in a worktree run's folder, once per worktree: what cannot be
 * shared with the user's checkout (a build, generated files, a private install). Not sandboxed — it
 * must write — but never run in place, where the folder is the user's own checkout.
 */
export async function runWorkspaceSetup(asked: WorkspaceSetupRequest): Promise<WorkspaceSetupResult> {
  const { workspace } = asked;
  if (workspace.mode !== 'worktree')
    return skipped(asked, "an in-place run works in the user's own checkout, which is already set up");
  const marker = await markerFile(workspace.workDir);
  if (fs.existsSync(marker)) return skipped(asked, 'already run in this worktree');
  const resolved: SetupRun | WorkspaceSetupResult = isAutoSetup(asked.argv) ? resolveAuto(asked) : asked;
  if ('status' in resolved) return resolved;
  const request: SetupRun = resolved;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  Object.assign(env, {
    GIT_TERMINAL_PROMPT: '0',
    CI: 'true',
    NO_COLOR: '1',
    LATHE_RUN_ID: workspace.runId,
    LATHE_CHECKOUT: workspace.repoRoot,
  });
  const executable = await findExecutable(request.argv[0] ?? '', workspace.workDir, env.PATH ?? '');
  if (!executable) {
    const reason = `command not found: ${request.argv[0] ?? '(empty)'}`;
    return { ...notRun(request, 'failed', reason), note: request.autoNote ?? null };
  }
  if (request.logFile) await fs.promises.mkdir(path.dirname(request.logFile), { recursive: true });
  const result = await runProcess({
    argv: request.argv,
    cwd: workspace.workDir,
    env,
    timeoutMs: request.timeoutMs,
    capBytes: 256 * 1024,
    logFile: request.logFile ?? null,
    logCapBytes: 8 * 1024 * 1024,
    marker: `setup-${crypto.randomBytes(6).toString('hex')}`,
    signal: request.signal,
  });
  const failure = result.spawnError
    ? `could not start ${request.argv[0]}: ${result.spawnError}`
    : result.cancelled
      ? 'cancelled'
      : result.timedOut
        ? `timed out after ${request.timeoutMs} ms`
        : result.exitCode !== 0
          ? `exited with ${result.exitCode ?? `signal ${result.signal ?? 'unknown'}`}`
          : null;
  // A setup never leaves tracked files changed: the run starts from its base, and no step commits them.
  const restored = failure ? [] : (await setupChanges(workspace.workDir)).tracked;
  await restoreTracked(workspace.workDir, restored);
  const note = [request.autoNote, describeRestored(restored)].filter(Boolean).join('; ') || null;
  const outcome: WorkspaceSetupResult = {
    status: failure ? 'failed' : 'passed',
    reason: failure,
    argv: request.argv,
    cwd: workspace.workDir,
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
    output: truncateReport(result.output),
    logFile: request.logFile ?? null,
    restored,
    note,
  };
  if (!failure)
    await fs.promises.writeFile(
      marker,
      `${JSON.stringify({ argv: request.argv, exit_code: result.exitCode, at: new Date().toISOString() })}\n`,
    );
  return outcome;
}
