import { goalLine } from '../../../../shared/headline';
import { mergeRefusal } from '../../../../shared/mergeRefusal';
import type { RunSummary } from '../../../../shared/schemas/run';
import type { RunOperation } from '../../stores/historyStore';
import { formatDateTime } from '../../lib/format';
import { formatDuration } from '../../../../shared/format';
import { RunActions, type RunRowHandlers } from './RunActions';
import { FollowUpOf, followUpBlockedBecause } from './RunChain';
import { RunStatusCell } from './RunStatusCell';

const ACTIVE = new Set(['running', 'waiting_for_gate']);

/** Why Merge is off for a run, or null when it can be merged (the same rules as `lathe merge`). */
function mergeBlockedBecause(run: RunSummary, branchGone: boolean): string | null {
  return mergeRefusal(run, branchGone)?.message ?? null;
}

interface RunRowProps {
  run: RunSummary;
  branchGone: boolean;
  working: RunOperation | undefined;
  on: RunRowHandlers;
}

/** One past run in the history table. */
export function RunRow({ run, branchGone, working, on }: RunRowProps) {
  const isUndone = run.closed?.action === 'undone';
  const gone = isUndone || branchGone;
  const state = {
    isUndone,
    gone,
    running: ACTIVE.has(run.status),
    working,
    mergeBlocked: mergeBlockedBecause(run, gone),
    followUpBlocked: followUpBlockedBecause(run, branchGone),
  };
  return (
    <tr data-run-id={run.runId}>
      <td className="nowrap">
        <span title={run.runId}>{formatDateTime(run.startedAt)}</span>
      </td>
      <td className="goal-cell">
        <span className="goal-line" title={run.goal}>
          {goalLine(run.goal)}
        </span>
        {run.branch && <code className="history-branch muted">{run.branch}</code>}
        {run.followUpOf && <FollowUpOf parent={run.followUpOf} onOpen={on.openParent} />}
      </td>
      <td>{run.workflow}</td>
      <RunStatusCell run={run} branchGone={branchGone} />
      <td className="num">{formatDuration(run.durationMs)}</td>
      <td className="num">{isUndone ? 0 : run.commits}</td>
      <td>
        <RunActions run={run} state={state} on={on} />
      </td>
    </tr>
  );
}
