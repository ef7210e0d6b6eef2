import fs from 'node:fs';
import path from 'node:path';
import type { WorkflowName } from '../shared/schemas/workflowName';
import type { RunLogEvent } from '../shared/schemas/run';
import { readLog } from '../electron/core/engine/runStore';
import { finished, lockFiles, onlyRun, runArgs, type Finished } from './crash';
import { makeExampleRepo } from './exampleRepo';
import { runLathe } from './runCli';

export interface Baseline {
  finished: Finished;
  log: RunLogEvent[];
}

export interface InterruptOutcome {
  /** The run ended before the signal was handled (a signal after its last step): complete, nothing to resume. */
  completedFirst: boolean;
  exitCode: number | null;
  resumedCode: number | null;
  finished: Finished | null;
  problems: string[];
}

/** The uninterrupted run of a workflow's demo transcript, with its log: where to interrupt, and what every resumed run must equal. */
export async function baselineWithLog(workflow: WorkflowName, home: string): Promise<Baseline> {
  const repo = makeExampleRepo('js-stats');
  try {
    const result = await runLathe(runArgs(workflow, repo), { env: { LATHE_HOME: home } });
    if (result.code !== 0) throw new Error(`baseline ${workflow} exited ${result.code}: ${result.stderr}`);
    const runId = onlyRun(repo);
    return { finished: finished(repo, runId), log: readLog(path.join(repo.dir, '.lathe', 'runs', runId, 'log.jsonl')) };
  } finally {
    repo.remove();
  }
}

/** The seq of the `nth` event (1-based) of `type` (and, when given, the role) in a log; null when there is none. */
export function seqOf(
  log: readonly RunLogEvent[],
  type: string,
  options: { nth?: number; role?: string; data?: (data: Record<string, unknown>) => boolean } = {},
): number | null {
  const matches = log.filter(
    (event) =>
      event.type === type &&
      (options.role === undefined || event.role === options.role) &&
      (options.data?.(event.data) ?? true),
  );
  return matches[(options.nth ?? 1) - 1]?.seq ?? null;
}

/**
 * Sends the process `signal` right after its point-th log line (what Ctrl-C does while the next
 * operation runs), then `--resume`; lists everything that differs from a sound, resumable stop and a
 * resumed run equal to the baseline.
 */
export async function interruptAndResume(
  workflow: WorkflowName,
  point: number,
  signal: 'SIGINT' | 'SIGTERM',
  home: string,
): Promise<InterruptOutcome> {
  const repo = makeExampleRepo('js-stats');
  const problems: string[] = [];
  try {
    const stopped = await runLathe(runArgs(workflow, repo), {
      env: { LATHE_HOME: home, LATHE_TEST_SIGNAL_AT_EVENT: `${point}:${signal}` },
    });
    const runId = onlyRun(repo);
    if (stopped.code === 0 && runId && finished(repo, runId).status === 'complete') {
      if (repo.git('status', '--porcelain') !== '') problems.push("the user's work tree changed");
      return { completedFirst: true, exitCode: 0, resumedCode: null, finished: finished(repo, runId), problems };
    }
    if (stopped.code !== 1)
      problems.push(`interrupted run exited ${stopped.code ?? stopped.signal}, not 1: ${stopped.stderr.slice(-400)}`);
    if (!stopped.stderr.includes(`stopping (${signal})`)) problems.push('no stop message on stderr');
    if (!runId)
      return {
        completedFirst: false,
        exitCode: stopped.code,
        resumedCode: null,
        finished: null,
        problems: [...problems, 'no run folder'],
      };
    const listed = await runLathe(['runs', '--repo', repo.dir, '--json'], { env: { LATHE_HOME: home } });
    const run = (JSON.parse(listed.stdout) as { runId: string; status: string; resumable: boolean }[]).find(
      (entry) => entry.runId === runId,
    );
    if (run?.status !== 'aborted' || !run.resumable)
      problems.push(`listed as ${run?.status ?? 'nothing'}, resumable ${run?.resumable ?? false}`);
    const stopEvent = readLog(path.join(repo.dir, '.lathe', 'runs', runId, 'log.jsonl')).findLast(
      (event) => event.type === 'run_stopped',
    );
    if (stopEvent?.data.resumable !== true) problems.push('no resumable run_stopped event');
    const resumed = await runLathe(['run', '--repo', repo.dir, '--resume', runId, '--json', '--yes'], {
      env: { LATHE_HOME: home, LATHE_TEST_SIGNAL_AT_EVENT: '' },
    });
    if (resumed.code !== 0) problems.push(`resume exited ${resumed.code}: ${resumed.stderr.slice(0, 300)}`);
    const runDir = path.join(repo.dir, '.lathe', 'runs', runId);
    readLog(path.join(runDir, 'log.jsonl')).forEach(
      (event, index) => event.seq !== index + 1 && problems.push(`seq ${event.seq} at line ${index + 1}`),
    );
    const temps = fs.readdirSync(runDir).filter((name) => name.endsWith('.tmp'));
    if (temps.length > 0) problems.push(`temp files left: ${temps.join(', ')}`);
    const locks = lockFiles(path.join(repo.dir, '.git'));
    if (locks.length > 0) problems.push(`lock files left: ${locks.join(', ')}`);
    if (repo.git('status', '--porcelain') !== '') problems.push("the user's work tree changed");
    return {
      completedFirst: false,
      exitCode: stopped.code,
      resumedCode: resumed.code,
      finished: finished(repo, runId),
      problems,
    };
  } finally {
    repo.remove();
  }
}
