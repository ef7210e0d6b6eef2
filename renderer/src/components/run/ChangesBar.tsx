import { useDiffStore } from '../../stores/diffStore';
import { useUiStore } from '../../stores/uiStore';

/** Which edit set the diff shows (all changes, or one commit), and its layout. */
export function ChangesBar({ range }: { range: string }) {
  const navigate = useUiStore((state) => state.navigate);
  const diff = useDiffStore();
  return (
    <div className="changes-bar">
      <label htmlFor="diff-range">Edit set</label>
      <select
        id="diff-range"
        value={range}
        onChange={(event) => navigate({ range: event.target.value, file: null }, { replace: true })}
      >
        <option value="all">All changes (base {diff.base ? diff.base.slice(0, 7) : '…'} → head)</option>
        {diff.commits.map((entry, index) => (
          <option key={entry.sha} value={entry.sha}>
            {index + 1}. {entry.sha.slice(0, 7)} {entry.taskId ? `[${entry.taskId}] ` : ''}
            {entry.subject}
          </option>
        ))}
      </select>
      <div className="segmented" role="group" aria-label="Diff layout">
        <button type="button" aria-pressed={diff.sideBySide} onClick={() => diff.setSideBySide(true)}>
          Side by side
        </button>
        <button type="button" aria-pressed={!diff.sideBySide} onClick={() => diff.setSideBySide(false)}>
          Inline
        </button>
      </div>
      {diff.loading && <span className="muted small">loading…</span>}
    </div>
  );
}
