import type { RunSummary } from '../../../../shared/schemas/run';
import type { RunOperation } from '../../stores/historyStore';

/** What the history screen does when a row's buttons are pressed. */
export interface RunRowHandlers {
  open: (run: RunSummary, tab?: 'activity' | 'report') => void;
  openParent: (parent: string) => void;
  followUp: (run: RunSummary) => void;
  exportPatch: (run: RunSummary) => void;
  confirm: (kind: 'undo' | 'merge', run: RunSummary) => void;
}

export interface RunActionsState {
  isUndone: boolean;
  gone: boolean;
  running: boolean;
  working: RunOperation | undefined;
  mergeBlocked: string | null;
  followUpBlocked: string | null;
}

/** The buttons of one history row: open, report, merge, follow up, export patch, undo. */
export function RunActions({ run, state, on }: { run: RunSummary; state: RunActionsState; on: RunRowHandlers }) {
  const { isUndone, gone, running, working, mergeBlocked, followUpBlocked } = state;
  return (
    <div className="row-actions">
      <button type="button" className="small-button" onClick={() => on.open(run)} aria-label={`Open run ${run.runId}`}>
        Open
      </button>
      <button
        type="button"
        className="small-button"
        onClick={() => on.open(run, 'report')}
        aria-label={`Report of run ${run.runId}`}
      >
        Report
      </button>
      <button
        type="button"
        className="small-button"
        disabled={mergeBlocked !== null || Boolean(working)}
        onClick={() => on.confirm('merge', run)}
        title={
          mergeBlocked ?? 'Merge the run branch into the branch it started from (after approval: complete runs only)'
        }
      >
        Merge
      </button>
      <button
        type="button"
        className="small-button"
        disabled={followUpBlocked !== null}
        onClick={() => on.followUp(run)}
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
        onClick={() => on.exportPatch(run)}
      >
        Export patch
      </button>
      <button
        type="button"
        className="small-button danger"
        disabled={isUndone || running || Boolean(working)}
        onClick={() => on.confirm('undo', run)}
      >
        {working === 'undo' ? 'Undoing…' : 'Undo'}
      </button>
    </div>
  );
}
