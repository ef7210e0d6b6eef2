import { useEffect, useRef } from 'react';
import { quoteGitPath } from '../../../../shared/gitPath';
import { editableGate } from '../../runView/editableGate';
import { useDiffStore } from '../../stores/diffStore';
import { editedText, useGateEditStore } from '../../stores/gateEditStore';
import { useRunViewStore } from '../../stores/runViewStore';
import { useUiStore } from '../../stores/uiStore';
import { DiffView } from './DiffView';

/** Diff review: a range (all changes, or one commit = one edit set), its files with line counts, the diff. */
export default function ChangesTab({ repo, runId }: { repo: string; runId: string }) {
  const range = useUiStore((state) => state.route.range);
  const file = useUiStore((state) => state.route.file);
  const navigate = useUiStore((state) => state.navigate);
  const diff = useDiffStore();
  const commitCount = useRunViewStore((state) => state.view.commits.length);
  // null while the log is being read: the count only means "new commits" once the log is known.
  const liveCommits = useRunViewStore((state) => (state.loading ? null : state.view.commits.length));
  const undone = useRunViewStore((state) => state.view.undone);
  // A string, not an object: a selector's new object each time would render again without end.
  const editGateId = useRunViewStore((state) =>
    state.loading ? null : (editableGate(state.view, range)?.gateId ?? null),
  );
  const editedCount = useGateEditStore((state) => (state.gateId === editGateId ? Object.keys(state.files).length : 0));

  useEffect(() => {
    void useDiffStore.getState().load(repo, runId, range);
  }, [repo, runId, range]);
  // A live run commits more edit sets: read the range again when the count moves on.
  const seenCommits = useRef(liveCommits);
  useEffect(() => {
    const previous = seenCommits.current;
    seenCommits.current = liveCommits;
    if (previous === null || liveCommits === null || previous === liveCommits) return;
    void useDiffStore.getState().load(repo, runId, useUiStore.getState().route.range, { force: true });
  }, [repo, runId, liveCommits]);

  // Names are shown, and named in the address, in git's quoting: one that is not UTF-8 is no text (shared/gitPath.ts).
  const selected = diff.files.find((entry) => quoteGitPath(entry.path) === file) ?? diff.files[0];
  const commit = diff.commits.find((entry) => entry.sha === diff.range);
  // A deleted file, or a name that is not plain UTF-8, has no text to edit here.
  const editing =
    editGateId && selected && selected.after !== null && quoteGitPath(selected.path) === selected.path
      ? { gateId: editGateId, path: selected.path, original: selected.after }
      : null;

  if (diff.error) {
    return (
      <p className="error-text pad">{undone ? 'This run was undone: its branch and commits are gone.' : diff.error}</p>
    );
  }
  return (
    <div className="changes-tab" data-testid="changes">
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
      {commit && <p className="muted small commit-subject">{commit.subject}</p>}
      {editGateId && (
        <p className="small gate-edit-note" data-testid="gate-edit-note">
          This change waits at your gate: edit its right side, then choose “Approve with my edits” on the gate card.
          {editedCount > 0 ? ` ${editedCount} file${editedCount === 1 ? '' : 's'} edited.` : ''}
        </p>
      )}
      {diff.files.length === 0 && diff.loading && file ? (
        // The link names the file: its box is laid out while its texts are read.
        <div className="changes-body">
          <p className="muted small">Reading the changes…</p>
          <DiffView key={`${range}:${file}`} path={file} file={null} sideBySide={diff.sideBySide} />
        </div>
      ) : diff.files.length === 0 && !diff.loading ? (
        <p className="muted pad">
          {commitCount === 0
            ? 'No commits yet: the diff appears after the first edit set is committed.'
            : 'No file changes in this range.'}
        </p>
      ) : (
        <div className="changes-body">
          <ul className="file-list" aria-label="Changed files" data-testid="file-list">
            {diff.files.map((entry) => (
              <li key={entry.path}>
                <button
                  type="button"
                  className={`file-entry${entry === selected ? ' selected' : ''}`}
                  aria-current={entry === selected ? 'true' : undefined}
                  onClick={() => navigate({ file: quoteGitPath(entry.path) }, { replace: true })}
                  title={quoteGitPath(entry.path)}
                >
                  <span className="file-path mono">
                    {entry.before === null ? (
                      <span className="chip chip-ok">new</span>
                    ) : entry.after === null ? (
                      <span className="chip chip-fail">deleted</span>
                    ) : null}{' '}
                    {quoteGitPath(entry.path)}
                  </span>
                  <span className="line-counts mono">
                    <span className="added" aria-label={`${entry.added} lines added`}>
                      +{entry.added}
                    </span>{' '}
                    <span className="removed" aria-label={`${entry.removed} lines removed`}>
                      −{entry.removed}
                    </span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {selected && (
            <DiffView
              key={`${range}:${quoteGitPath(selected.path)}:${editing ? 'edit' : 'view'}`}
              path={quoteGitPath(selected.path)}
              file={selected}
              sideBySide={diff.sideBySide}
              {...(editing
                ? {
                    editing: {
                      text: editedText(useGateEditStore.getState(), editing.gateId, editing.path),
                      onEdit: (text: string) =>
                        useGateEditStore.getState().edit(editing.gateId, editing.path, editing.original, text),
                    },
                  }
                : {})}
            />
          )}
        </div>
      )}
    </div>
  );
}
