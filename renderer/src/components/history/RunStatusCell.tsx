import type { RunSummary } from '../../../../shared/schemas/run';
import { formatDateTime } from '../../lib/format';
import { StatusBadge } from '../run/StatusBadge';

/** A history row's status: the run's own, then whether it was undone, merged, or lost its branch. */
export function RunStatusCell({ run, branchGone }: { run: RunSummary; branchGone: boolean }) {
  const isUndone = run.closed?.action === 'undone';
  const mergedInto = run.closed?.action === 'merged' ? (run.closed.into ?? 'its branch') : null;
  return (
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
      {!isUndone && branchGone && <span className="chip chip-warn">branch gone</span>}
    </td>
  );
}
