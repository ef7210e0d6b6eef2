import type { RunSummary } from '../../../../shared/schemas/run';

/** A follow-up's link to the run it continues, in its History row. */
export function FollowUpOf({ parent, onOpen }: { parent: string; onOpen: (runId: string) => void }) {
  return (
    <button
      type="button"
      className="link-button follow-up-of"
      data-testid="follow-up-of"
      onClick={() => onOpen(parent)}
      title={`This run follows up on run ${parent}: its branch starts at that run's head`}
    >
      ↳ follows up on {parent}
    </button>
  );
}

/** Above the New run form when it was opened with Follow up: which run the new one continues, and a way out. */
export function FollowUpNotice({ runId, onClear }: { runId: string; onClear: () => void }) {
  return (
    <p className="hint follow-up-notice" data-testid="follow-up-notice">
      Follows up on run <code>{runId}</code>: the new run’s branch starts at that run’s head, and its agents are told
      its goal, how it ended and its diff.{' '}
      <button type="button" className="link-button" onClick={onClear}>
        Start a fresh run instead
      </button>
    </p>
  );
}

/**
 * Why Follow up is off for a run, or null when it can be followed up on (the same rules as
 * `lathe run --follow-up`): it must have ended and still have a head to start from.
 */
export function followUpBlockedBecause(run: RunSummary, branchGone: boolean): string | null {
  if (run.status === 'running' || run.status === 'waiting_for_gate') return 'The run is still going on';
  if (run.closed?.action === 'undone') return 'The run was undone: its branch is gone';
  // A merged run's head is the commit it was merged at, even once its branch is pruned.
  if (run.closed?.action === 'merged') return null;
  if (!run.branch) return 'The run never made a branch';
  if (branchGone) return 'The run’s branch is gone';
  return null;
}
