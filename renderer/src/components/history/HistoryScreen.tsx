import { useState } from 'react';
import type { RunSummary } from '../../../../shared/schemas/run';
import { errorMessage } from '../../api/client';
import { useHistoryStore } from '../../stores/historyStore';
import { useRepoStore } from '../../stores/repoStore';
import { useUiStore } from '../../stores/uiStore';
import { ConfirmRunAction, type Confirm } from './ConfirmRunAction';
import { ExportStatus } from './ExportStatus';
import type { RunRowHandlers } from './RunActions';
import { RunsTable } from './RunsTable';
import { useHistoryRuns } from './useHistoryRuns';

/** Past runs of the open repository: open (replay the log), report, merge, export patch, undo. */
export default function HistoryScreen() {
  const repo = useRepoStore((state) => state.status);
  const { runs, loading, error, busy, branchGone, exported } = useHistoryRuns();
  const navigate = useUiStore((state) => state.navigate);
  const notify = useUiStore((state) => state.notify);
  const [confirm, setConfirm] = useState<Confirm>(null);

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
  const openRun = (runId: string, tab: 'activity' | 'report' = 'activity') =>
    navigate({ view: 'run', repo: repo.path, run: runId, tab });
  const on: RunRowHandlers = {
    open: (run: RunSummary, tab) => openRun(run.runId, tab),
    openParent: (parent) => openRun(parent),
    followUp: (run) => navigate({ view: 'start', repo: repo.path, followUp: run.runId }),
    exportPatch: (run) => void perform(() => history.exportPatch(run.runId)),
    confirm: (kind, run) => setConfirm({ kind, run }),
  };

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
        <RunsTable runs={runs} branchGone={branchGone} busy={busy} on={on} />
      )}
      {confirm && (
        <ConfirmRunAction
          confirm={confirm}
          onCancel={() => setConfirm(null)}
          onConfirm={() =>
            void perform(() =>
              confirm.kind === 'undo' ? history.undo(confirm.run.runId) : history.merge(confirm.run.runId),
            )
          }
        />
      )}
    </section>
  );
}
