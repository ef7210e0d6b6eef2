import { formatDateTime } from '../../lib/format';
import { useHistoryStore } from '../../stores/historyStore';
import { useUiStore } from '../../stores/uiStore';
import { StatusBadge } from '../run/StatusBadge';

const SHOWN = 5;

/** The repository's latest runs, one click from their run view. */
export function RepoRuns({ repo }: { repo: string }) {
  const runs = useHistoryStore((state) => (state.repo === repo ? state.runs : []));
  const error = useHistoryStore((state) => state.error);
  const navigate = useUiStore((state) => state.navigate);
  return (
    <section className="panel" aria-labelledby="runs-heading">
      <div className="panel-title-row">
        <h2 id="runs-heading">Runs</h2>
        {runs.length > 0 && (
          <button type="button" className="link-button" onClick={() => navigate({ view: 'history' })}>
            All {runs.length} in History
          </button>
        )}
      </div>
      {error && <p className="error-text">{error}</p>}
      {runs.length === 0 ? (
        <p className="muted" data-testid="runs-empty">
          No runs in this repository yet.
        </p>
      ) : (
        <ul className="repo-runs" data-testid="repo-runs">
          {runs.slice(0, SHOWN).map((run) => (
            <li key={run.runId}>
              <button
                type="button"
                className="link-button repo-run"
                onClick={() => navigate({ view: 'run', repo, run: run.runId, tab: 'activity' })}
              >
                <StatusBadge status={run.status} resumable={run.resumable} />
                {run.closed && <span className="chip chip-muted">{run.closed.action}</span>}{' '}
                <span className="repo-run-goal">{run.goal.split('\n', 1)[0]}</span>
              </button>
              <span className="muted small">{formatDateTime(run.startedAt)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
