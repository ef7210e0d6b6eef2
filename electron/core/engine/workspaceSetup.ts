import path from 'node:path';
import type { PendingEvent } from '../../../shared/engine/runEvents';
import type { RunState } from '../../../shared/engine/runState';
import { LatheError } from '../../../shared/errors';
import type { RunWorkspace } from '../git/types';
import type { EngineDeps } from './engineDeps';

/**
 * Runs the configured `workspace.setup` command in the run's worktree and logs it as a
 * `workspace_setup` event (output excerpt, exit code, what it restored). Returns the error that must
 * stop the run (null when there is no setup, it passed, or it was skipped) and the note for the report.
 */
export async function setUpWorkspace(
  deps: Pick<EngineDeps, 'setupWorkspace'>,
  state: RunState,
  workspace: RunWorkspace,
  io: { log(event: PendingEvent): void; runDir: string; signal?: AbortSignal },
): Promise<{ failure: LatheError | null; note: string | null }> {
  const argv = state.config.workspace.setup_command;
  if (!argv) return { failure: null, note: null };
  const result = await deps.setupWorkspace({
    workspace,
    argv,
    timeoutMs: state.config.workspace.setup_timeout_ms,
    logFile: path.join(io.runDir, 'setup.log'),
    signal: io.signal,
  });
  io.log({
    role: 'engine',
    type: 'workspace_setup',
    data: {
      status: result.status,
      reason: result.reason,
      argv: result.argv,
      cwd: result.cwd,
      exit_code: result.exitCode,
      timed_out: result.timedOut,
      duration_ms: result.durationMs,
      output: result.output,
      log_file: result.logFile,
      restored: result.restored,
      note: result.note,
    },
  });
  const note =
    result.status === 'passed'
      ? `\`${result.argv.join(' ')}\` passed${result.note ? `; ${result.note}` : ''}`
      : result.status === 'skipped'
        ? `skipped: ${result.reason ?? ''}${result.note ? ` (${result.note})` : ''}`
        : null;
  if (result.status !== 'failed') return { failure: null, note };
  const tail = result.output.trim().split('\n').slice(-15).join('\n');
  const failure = new LatheError(
    'WORKSPACE_SETUP_FAILED',
    `the setup command \`${result.argv.join(' ')}\` ${result.reason ?? 'failed'} in ${result.cwd}${tail ? `; last lines:\n${tail}` : ''}`,
    {
      argv: result.argv,
      exit_code: result.exitCode,
      log_file: result.logFile,
    },
  );
  return { failure, note: null };
}
