import { useEffect, useState } from 'react';
import { goalLine } from '../../../../shared/headline';
import { mergeRefusal } from '../../../../shared/mergeRefusal';
import type { RunSummary } from '../../../../shared/schemas/run';
import { errorMessage } from '../../api/client';
import { formatDateTime, formatDuration } from '../../lib/format';
import { useHistoryStore } from '../../stores/historyStore';
import { useRepoStore } from '../../stores/repoStore';
import { useUiStore } from '../../stores/uiStore';
import { Modal } from '../layout/Modal';
import { StatusBadge } from '../run/StatusBadge';
import { ExportStatus } from './ExportStatus';
import { FollowUpOf, followUpBlockedBecause } from './RunChain';

type Confirm = { kind: 'undo' | 'merge'; run: RunSummary } | null;

const ACTIVE = new Set(['running', 'waiting_for_gate']);

/** Why Merge is off for a run, or null when it can be merged (the same rules as `lathe merge`). */
function mergeBlockedBecause(run: RunSummary, branchGone: boolean): string | null {
  return mergeRefusal(run, branchGone)?.message ?? null;
}

/** Past runs of the open repository: open (replay the log), report, merge, export patch, undo. */
export default function HistoryScreen() {
  const repo = useRepoStore((state) => state.status);
  const { runs, loading, error, busy, branchGone, exported } = useHistoryStore();
  const navigate = useUiStore((state) => state.navigate);
  const notify = useUiStore((state) => state.notify);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const runCount = runs.length;
  // Undo and merge are recorded in each run (`closed`); a branch removed by hand is found only by looking.
  useEffect(() => {
    if (runCount > 0) void useHistoryStore.getState().checkBranches();
  }, [runCount]);

  if (!repo) return <p className="muted pad">Open a repository to see its runs.</p>;

  const perform = async (action: () => Promise<string>) => {
    setConfirm(null);
    try {
      notify('ok', await action());
    } catch (failure) {
      notify('error', errorMessage(failure));
    }
  };
  const history = useHistoryStore.getState();
  const open = (run: RunSummary, tab: 'activity' | 'report' = 'activity') =>
    navigate({ view: 'run', repo: repo.path, run: run.runId, tab });

  return (
    <section className="panel history" aria-labelledby="history-heading" data-testid="history">
      <div className="panel-title-row">
        <h2 id="history-heading">Runs of {repo.name}</h2>
        <button type="button" className="small-button" onClick={() => void history.load(repo.path)}>
          Refresh
        </button>
      </div>
      {error && <p className="error-text">{error}</p>}
      {/* A browser window cannot open the core's file, so it is offered the patch itself. */}
      {exported && (
        <ExportStatus exported={exported} offerDownload={!window.lathe} onDismiss={() => history.dismissExport()} />
      )}
      {loading && runs.length === 0 ? (
        <p className="muted">Reading runs…</p>
      ) : runs.length === 0 ? (
        <p className="muted" data-testid="runs-empty">
          No runs in this repository yet.
        </p>
      ) : (
        <table className="history-table" data-testid="runs-list">
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Goal</th>
              <th scope="col">Workflow</th>
              <th scope="col">Status</th>
              <th scope="col" className="num">
                Duration
              </th>
              <th scope="col" className="num">
                Commits
              </th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => {
              const isUndone = run.closed?.action === 'undone';
              const mergedInto = run.closed?.action === 'merged' ? (run.closed.into ?? 'its branch') : null;
              const gone = isUndone || Boolean(branchGone[run.runId]);
              const running = ACTIVE.has(run.status);
              const working = busy[run.runId];
              const mergeBlocked = mergeBlockedBecause(run, gone);
              const followUpBlocked = followUpBlockedBecause(run, Boolean(branchGone[run.runId]));
              return (
                <tr key={run.runId} data-run-id={run.runId}>
                  <td className="nowrap">
                    <span title={run.runId}>{formatDateTime(run.startedAt)}</span>
                  </td>
                  <td className="goal-cell">
                    <span className="goal-line" title={run.goal}>
                      {goalLine(run.goal)}
                    </span>
                    {run.branch && <code className="history-branch muted">{run.branch}</code>}
                    {run.followUpOf && (
                      <FollowUpOf
                        parent={run.followUpOf}
                        onOpen={(parent) => navigate({ view: 'run', repo: repo.path, run: parent, tab: 'activity' })}
                      />
                    )}
                  </td>
                  <td>{run.workflow}</td>
                  <td>
                    <StatusBadge status={run.status} resumable={run.resumable} />
                    {isUndone && (
                      <span
                        className="chip chip-muted"
                        data-testid="run-closed"
                        title={`undone ${formatDateTime(run.closed?.at ?? '')}`}
                      >
                        undone
                      </span>
                    )}
                    {mergedInto && (
                      <span
                        className="chip chip-ok"
                        data-testid="run-closed"
                        title={`merged ${formatDateTime(run.closed?.at ?? '')} (${run.closed?.commit?.slice(0, 10) ?? '?'})`}
                      >
                        merged into {mergedInto}
                      </span>
                    )}
                    {!isUndone && branchGone[run.runId] && <span className="chip chip-warn">branch gone</span>}
                  </td>
                  <td className="num">{formatDuration(run.durationMs)}</td>
                  <td className="num">{isUndone ? 0 : run.commits}</td>
                  <td>
                    <div className="row-actions">
                      <button
                        type="button"
                        className="small-button"
                        onClick={() => open(run)}
                        aria-label={`Open run ${run.runId}`}
                      >
                        Open
                      </button>
                      <button
                        type="button"
                        className="small-button"
                        onClick={() => open(run, 'report')}
                        aria-label={`Report of run ${run.runId}`}
                      >
                        Report
                      </button>
                      <button
                        type="button"
                        className="small-button"
                        disabled={mergeBlocked !== null || Boolean(working)}
                        onClick={() => setConfirm({ kind: 'merge', run })}
                        title={
                          mergeBlocked ??
                          'Merge the run branch into the branch it started from (after approval: complete runs only)'
                        }
                      >
                        Merge
                      </button>
                      <button
                        type="button"
                        className="small-button"
                        disabled={followUpBlocked !== null}
                        onClick={() => navigate({ view: 'start', repo: repo.path, followUp: run.runId })}
                        title={
                          followUpBlocked ??
                          'Start a new run from this run’s head, its agents told what it did (“also handle X”, or a failed run with a hint)'
                        }
                        aria-label={`Follow up on run ${run.runId}`}
                      >
                        Follow up
                      </button>
                      <button
                        type="button"
                        className="small-button"
                        disabled={gone || Boolean(working) || run.commits === 0}
                        onClick={() => void perform(() => history.exportPatch(run.runId))}
                      >
                        Export patch
                      </button>
                      <button
                        type="button"
                        className="small-button danger"
                        disabled={isUndone || running || Boolean(working)}
                        onClick={() => setConfirm({ kind: 'undo', run })}
                      >
                        {working === 'undo' ? 'Undoing…' : 'Undo'}
                      </button>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {confirm && (
        <Modal
          title={confirm.kind === 'undo' ? 'Undo this run?' : 'Merge this run?'}
          onClose={() => setConfirm(null)}
          actions={
            <>
              <button
                type="button"
                className={confirm.kind === 'undo' ? 'danger' : 'primary'}
                // The safe choice has the focus when the action cannot be taken back by itself.
                data-autofocus={confirm.kind === 'merge' ? true : undefined}
                onClick={() =>
                  void perform(() =>
                    confirm.kind === 'undo' ? history.undo(confirm.run.runId) : history.merge(confirm.run.runId),
                  )
                }
              >
                {confirm.kind === 'undo' ? 'Undo the run' : 'Merge'}
              </button>
              <button
                type="button"
                onClick={() => setConfirm(null)}
                data-autofocus={confirm.kind === 'undo' ? true : undefined}
              >
                Cancel
              </button>
            </>
          }
        >
          {confirm.kind === 'undo' ? (
            <>
              <p>
                The branch <code>{confirm.run.branch ?? '?'}</code> with its {confirm.run.commits} commit(s) and the
                run’s workspace are removed, and the repository is as it was before the run. The run log stays.
              </p>
              {confirm.run.closed?.action === 'merged' && (
                <p className="warning-text" role="alert" data-testid="undo-merged-warning">
                  This run was merged into <code>{confirm.run.closed.into ?? 'its branch'}</code>: undo moves{' '}
                  <code>{confirm.run.closed.into ?? 'that branch'}</code> back to where it was before the run, so the
                  run’s commits leave it too (refused if it has moved on since the merge).
                </p>
              )}
            </>
          ) : (
            <p>
              The branch <code>{confirm.run.branch ?? '?'}</code> is merged into the branch the run started from.
            </p>
          )}
        </Modal>
      )}
    </section>
  );
}
