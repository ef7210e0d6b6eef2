import { useRunsStore } from '../stores/runsStore';

export function RunsList() {
  const runs = useRunsStore((state) => state.runs);
  const error = useRunsStore((state) => state.error);
  return (
    <section className="panel" aria-labelledby="runs-heading">
      <h2 id="runs-heading">Runs</h2>
      {error && <p className="error-text">{error}</p>}
      {runs.length === 0 ? (
        <p className="muted" data-testid="runs-empty">
          No runs in this repository yet.
        </p>
      ) : (
        <ul className="runs" data-testid="runs-list">
          {runs.map((run) => (
            <li key={run.runId}>
              <span className="mono">{run.runId}</span> <span className={`status status-${run.status}`}>{run.status}</span>{' '}
              {run.goal}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
