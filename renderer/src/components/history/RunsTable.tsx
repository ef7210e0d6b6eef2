import type { RunSummary } from '../../../../shared/schemas/run';
import type { RunOperation } from '../../stores/historyStore';
import type { RunRowHandlers } from './RunActions';
import { RunRow } from './RunRow';

interface RunsTableProps {
  runs: RunSummary[];
  branchGone: Record<string, true>;
  busy: Record<string, RunOperation>;
  on: RunRowHandlers;
}

/** The table of past runs, in the store's order. */
export function RunsTable({ runs, branchGone, busy, on }: RunsTableProps) {
  return (
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
        {runs.map((run) => (
          <RunRow
            key={run.runId}
            run={run}
            branchGone={Boolean(branchGone[run.runId])}
            working={busy[run.runId]}
            on={on}
          />
        ))}
      </tbody>
    </table>
  );
}
