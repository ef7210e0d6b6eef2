import type { PendingEvent } from '../../../shared/engine/actions';
import type { RunState } from '../../../shared/engine/runState';
import { LatheError } from '../../../shared/errors';
import type { RunCommitInfo, RunDiffFile } from '../workspace/types';
import { changedCodeFiles, definitionOfDone, testsImporting } from './doneChecks';
import type { EngineDeps } from './engineDeps';
import { renderPrDescription, renderReport } from './report';
import { readLog, type RunStore } from './runStore';
import { releaseRunArtifacts, renderStuckReport, stuckArtifacts } from './stuckReport';
import path from 'node:path';

/**
 * End of a session: `report.md` (also after a stop, seed 002's graceful shutdown), and after an
 * approved run the PR description and, when a remote is configured and reachable, the push (seed 001).
 */
export async function finalizeSession(deps: EngineDeps, store: RunStore, state: RunState, log: (event: PendingEvent) => void): Promise<RunState> {
  let commits: RunCommitInfo[] = [];
  let diff: RunDiffFile[] = [];
  let testedBy: Record<string, string[]> = {};
  if (state.workspace) {
    try {
      commits = await deps.git.listRunCommits(state.workspace);
      diff = commits.length > 0 ? await deps.git.diffRun(state.workspace) : [];
      testedBy = await testsImporting(deps.createTools(state.workspace.workDir), changedCodeFiles(diff));
    } catch (error) {
      log({ role: 'git', type: 'warning', data: { message: `could not list the run's commits: ${LatheError.from(error).message}` } });
    }
  }
  // Seed 004's definition of done, checked from the net diff rather than ticked.
  const done = definitionOfDone(state, commits, diff, testedBy);
  log({ role: 'engine', type: 'definition_of_done', data: { checks: done } });
  store.writeFile('report.md', renderReport(state, commits, done));
  if (state.status === 'stuck') {
    store.writeFile('stuck-report.md', renderStuckReport(state, readLog(path.join(store.dir, 'log.jsonl'))));
    for (const dir of stuckArtifacts(state)) await deps.retainArtifacts(dir, `stuck report of run ${state.run_id}`).catch(() => undefined);
  }
  // Resumed to green: the stuck report is resolved, its artifacts fall under normal retention again.
  if (state.status === 'complete') await releaseRunArtifacts(deps, state, log);
  const complete = state.status === 'complete' && state.commits.length > 0;
  if (complete && state.config.push.write_pr_description) store.writeFile('pr-description.md', renderPrDescription(state, commits));
  if (complete && state.workspace && state.config.push.remote) {
    try {
      const pushed = await deps.git.pushRun(state.workspace, state.config.push.remote);
      log({ role: 'git', type: 'push', data: { remote: state.config.push.remote, pushed: pushed.pushed, detail: pushed.detail } });
    } catch (error) {
      log({ role: 'git', type: 'push', data: { remote: state.config.push.remote, pushed: false, detail: LatheError.from(error).message } });
    }
  }
  log({ role: 'engine', type: 'report_written', data: { report: 'report.md', pr_description: complete && state.config.push.write_pr_description ? 'pr-description.md' : null, stuck_report: state.status === 'stuck' ? 'stuck-report.md' : null } });
  return state;
}
