import { useEffect, useRef } from 'react';
import { quoteGitPath } from '../../../../shared/gitPath';
import { editableGate } from '../../runView/editableGate';
import { useDiffStore, type DiffFile } from '../../stores/diffStore';
import { editedText, useGateEditStore } from '../../stores/gateEditStore';
import { useRunViewStore } from '../../stores/runViewStore';
import { useUiStore } from '../../stores/uiStore';
import { ChangedFileList } from './ChangedFileList';
import { ChangesBar } from './ChangesBar';
import { DiffView } from './DiffView';

/** The file of a pending gate's change that the person may edit: its text as the gate proposed it. */
interface EditedFile {
  gateId: string;
  path: string;
  original: string;
}

/** Diff review: a range (all changes, or one commit = one edit set), its files with line counts, the diff. */
export default function ChangesTab({ repo, runId }: { repo: string; runId: string }) {
  const range = useUiStore((state) => state.route.range);
  const file = useUiStore((state) => state.route.file);
  const diff = useDiffStore();
  const commitCount = useRunViewStore((state) => state.view.commits.length);
  const undone = useRunViewStore((state) => state.view.undone);
  // A string, not an object: a selector's new object each time would render again without end.
  const editGateId = useRunViewStore((state) =>
    state.loading ? null : (editableGate(state.view, range)?.gateId ?? null),
  );
  useRangeReads(repo, runId, range);

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
      <ChangesBar range={range} />
      {commit && <p className="muted small commit-subject">{commit.subject}</p>}
      {editGateId && <GateEditNote gateId={editGateId} />}
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
          <ChangedFileList files={diff.files} selected={selected} />
          {selected && (
            <SelectedDiff range={range} selected={selected} sideBySide={diff.sideBySide} editing={editing} />
          )}
        </div>
      )}
    </div>
  );
}

/** Reads the range shown, and reads it again when a live run commits another edit set. */
function useRangeReads(repo: string, runId: string, range: string) {
  // null while the log is being read: the count only means "new commits" once the log is known.
  const liveCommits = useRunViewStore((state) => (state.loading ? null : state.view.commits.length));
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
}

function GateEditNote({ gateId }: { gateId: string }) {
  const editedCount = useGateEditStore((state) => (state.gateId === gateId ? Object.keys(state.files).length : 0));
  return (
    <p className="small gate-edit-note" data-testid="gate-edit-note">
      This change waits at your gate: edit its right side, then choose “Approve with my edits” on the gate card.
      {editedCount > 0 ? ` ${editedCount} file${editedCount === 1 ? '' : 's'} edited.` : ''}
    </p>
  );
}

interface SelectedDiffProps {
  range: string;
  selected: DiffFile;
  sideBySide: boolean;
  editing: EditedFile | null;
}

/** The chosen file's diff; editable on its right side when it belongs to a change waiting at the person's gate. */
function SelectedDiff({ range, selected, sideBySide, editing }: SelectedDiffProps) {
  return (
    <DiffView
      key={`${range}:${quoteGitPath(selected.path)}:${editing ? 'edit' : 'view'}`}
      path={quoteGitPath(selected.path)}
      file={selected}
      sideBySide={sideBySide}
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
  );
}
