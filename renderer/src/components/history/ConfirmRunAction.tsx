import type { RunSummary } from '../../../../shared/schemas/run';
import { Modal } from '../layout/Modal';

export type Confirm = { kind: 'undo' | 'merge'; run: RunSummary } | null;

interface ConfirmRunActionProps {
  confirm: NonNullable<Confirm>;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before an undo or a merge, saying what each will change. */
export function ConfirmRunAction({ confirm, onConfirm, onCancel }: ConfirmRunActionProps) {
  return (
    <Modal
      title={confirm.kind === 'undo' ? 'Undo this run?' : 'Merge this run?'}
      onClose={onCancel}
      actions={
        <>
          <button
            type="button"
            className={confirm.kind === 'undo' ? 'danger' : 'primary'}
            // The safe choice has the focus when the action cannot be taken back by itself.
            data-autofocus={confirm.kind === 'merge' ? true : undefined}
            onClick={onConfirm}
          >
            {confirm.kind === 'undo' ? 'Undo the run' : 'Merge'}
          </button>
          <button type="button" onClick={onCancel} data-autofocus={confirm.kind === 'undo' ? true : undefined}>
            Cancel
          </button>
        </>
      }
    >
      {confirm.kind === 'undo' ? <UndoWarning run={confirm.run} /> : <MergeNote run={confirm.run} />}
    </Modal>
  );
}

function UndoWarning({ run }: { run: RunSummary }) {
  return (
    <>
      <p>
        The branch <code>{run.branch ?? '?'}</code> with its {run.commits} commit(s) and the run’s workspace are
        removed, and the repository is as it was before the run. The run log stays.
      </p>
      {run.closed?.action === 'merged' && (
        <p className="warning-text" role="alert" data-testid="undo-merged-warning">
          This run was merged into <code>{run.closed.into ?? 'its branch'}</code>: undo moves{' '}
          <code>{run.closed.into ?? 'that branch'}</code> back to where it was before the run, so the run’s commits
          leave it too (refused if it has moved on since the merge).
        </p>
      )}
    </>
  );
}

function MergeNote({ run }: { run: RunSummary }) {
  return (
    <p>
      The branch <code>{run.branch ?? '?'}</code> is merged into the branch the run started from.
    </p>
  );
}
