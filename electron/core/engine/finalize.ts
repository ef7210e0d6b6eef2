import type { PendingEvent } from '../../../shared/engine/runEvents';
import type { RunState } from '../../../shared/engine/runState';
import { LatheError } from '../../../shared/errors';
import { EXIT_INFRA, finishRun } from '../../../shared/engine/finish';
import type { RunCommitInfo, RunDiffFile, RunWorkspace } from '../git/types';
import { changedCodeFiles, definitionOfDone, testsImporting } from './doneChecks';
import type { EngineDeps } from './engineDeps';
import { renderPrDescription, renderReport } from './report';
import { readLog, type RunStore } from './runStore';
import { releaseRunArtifacts, renderStuckReport, stuckArtifacts } from './stuckReport';
import path from 'node:path';

/**
 * A run that ends right after a rollback (a step out of attempts keeps its best state) has no action
 * left to move its branch: the branch and work tree follow the state's head here, so no undone
 * attempt stays on the branch a user merges.
 */
export async function branchToStateHead(
  deps: EngineDeps,
  state: RunState,
  log: (event: PendingEvent) => void,
): Promise<void> {
  const workspace = state.workspace;
  if (!workspace || !state.head) return;
  try {
    if ((await deps.git.headOf(workspace)) !== state.head) await deps.git.resetTo(workspace, state.head);
  } catch (error) {
    log({
      role: 'git',
      type: 'warning',
      data: {
        message: `could not move the run branch back to ${state.head.slice(0, 12)}: ${LatheError.from(error).message}`,
      },
    });
  }
}

/**
 * End of a session: `report.md` (also after a stop, seed 002's graceful shutdown), and after an
 * approved run the PR description and, when a remote is configured and reachable, the push (seed 001).
 */
export async function finalizeSession(
  deps: EngineDeps,
  store: RunStore,
  finished: RunState,
  log: (event: PendingEvent) => void,
): Promise<RunState> {
  await branchToStateHead(deps, finished, log);
  const complete = finished.status === 'complete' && finished.commits.length > 0;
  // The push comes first: when it fails the run ends with exit 2, and the report says so.
  const state =
    complete && finished.workspace && finished.config.push.enabled
      ? await pushApproved(deps, finished, finished.workspace, log)
      : finished;
  let commits: RunCommitInfo[] = [];
  let diff: RunDiffFile[] = [];
  let testedBy: Record<string, string[]> = {};
  if (state.workspace) {
    try {
      commits = await deps.git.listRunCommits(state.workspace);
      diff = commits.length > 0 ? await deps.git.diffRun(state.workspace) : [];
      testedBy = await testsImporting(deps.createTools(state.workspace.workDir), changedCodeFiles(diff));
    } catch (error) {
      log({
        role: 'git',
        type: 'warning',
        data: { message: `could not list the run's commits: ${LatheError.from(error).message}` },
      });
    }
  }
  // Seed 004's definition of done, checked from the net diff rather than ticked.
  const done = definitionOfDone(state, commits, diff, testedBy);
  log({ role: 'engine', type: 'definition_of_done', data: { checks: done } });
  store.writeFile('report.md', renderReport(state, commits, done));
  if (state.status === 'stuck') {
    store.writeFile('stuck-report.md', renderStuckReport(state, readLog(path.join(store.dir, 'log.jsonl'))));
    for (const dir of stuckArtifacts(state))
      // catch-ok: retaining artifacts is best-effort: the stuck report stands without them
      await deps.retainArtifacts(dir, `stuck report of run ${state.run_id}`).catch(() => undefined);
  }
  // Resumed to green: the stuck report is resolved, its artifacts fall under normal retention again.
  if (state.status === 'complete') await releaseRunArtifacts(deps, state, log);
  if (complete && state.config.push.write_pr_description)
    store.writeFile('pr-description.md', renderPrDescription(state, commits));
  log({
    role: 'engine',
    type: 'report_written',
    data: {
      report: 'report.md',
      pr_description: complete && state.config.push.write_pr_description ? 'pr-description.md' : null,
      stuck_report: state.status === 'stuck' ? 'stuck-report.md' : null,
    },
  });
  return state;
}

/**
 * Seed 001: "Approved → push & PR"; "unrecoverable Git error → abort, exit 2". The remote is the one
 * configured, else `origin` when the repository has one (a repository without it has nothing to push to).
 */
async function pushApproved(
  deps: EngineDeps,
  state: RunState,
  workspace: RunWorkspace,
  log: (event: PendingEvent) => void,
): Promise<RunState> {
  const remote = state.config.push.remote ?? 'origin';
  try {
    const pushed = await deps.git.pushRun(workspace, remote);
    log({ role: 'git', type: 'push', data: { remote, pushed: pushed.pushed, detail: pushed.detail } });
    return state;
  } catch (error) {
    const failure = LatheError.from(error);
    if (state.config.push.remote === null && failure.code === 'GIT_REMOTE_NOT_FOUND') {
      log({
        role: 'git',
        type: 'push',
        data: { remote, pushed: false, detail: 'the repository has no remote named origin: nothing to push to' },
      });
      return state;
    }
    log({ role: 'git', type: 'push', data: { remote, pushed: false, detail: failure.message, code: failure.code } });
    const ended = finishRun(
      state,
      'failed',
      EXIT_INFRA,
      `the approved run could not be pushed to ${remote}: ${failure.message}`,
    );
    for (const event of ended.events) log(event);
    return ended.state;
  }
}
