import { useState } from 'react';
import type { RunState } from '../../../../shared/engine/runState';
import type { RunView } from '../../../../shared/runView/types';
import { goalLine } from '../../../../shared/headline';
import { useRunViewStore } from '../../stores/runViewStore';
import { useUiStore } from '../../stores/uiStore';
import { runActions } from './runActions';
import { RunControls, StopRunDialog } from './RunControls';
import { StatusBadge, statusLabel } from './StatusBadge';

const TERMINAL = new Set(['complete', 'failed', 'stuck']);

export function RunHeader({ repo }: { repo: string }) {
  const view = useRunViewStore((state) => state.view);
  const state = useRunViewStore((state) => state.state);
  const active = useRunViewStore((state) => state.active);
  const runId = useRunViewStore((state) => state.runId);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirmStop, setConfirmStop] = useState(false);
  const notify = useUiStore((s) => s.notify);

  if (!runId) return null;
  const finished = state?.phase === 'finished' || view.phase === 'finished' || TERMINAL.has(view.status ?? '');
  // A stuck run waits for a person's fix; resuming verifies again (seed 004).
  const resumable = !active && (!finished || (state?.status ?? view.status) === 'stuck') && !view.undone;

  const { pause, resume, stop } = runActions({ repo, runId, goal: state?.goal, notify, setBusy, setConfirmStop });

  return (
    <header className="run-header" aria-labelledby="run-goal">
      <div className="run-title-row">
        <StatusBadge status={view.status ?? state?.status ?? null} testId="run-status" resumable={!finished} />
        {view.undone && (
          <span className="chip chip-muted" data-testid="run-closed">
            undone
          </span>
        )}
        {!view.undone && view.mergedInto && (
          <span className="chip chip-ok" data-testid="run-closed">
            merged into {view.mergedInto}
          </span>
        )}
        {/* tabIndex -1: the focus lands here after Start and when the gate card it was on goes away. */}
        <h2 id="run-goal" className="run-goal" title={view.goal || state?.goal} tabIndex={-1}>
          {goalLine(view.goal || state?.goal || '')}
        </h2>
        <RunControls
          pause={() => void pause()}
          resume={() => void resume()}
          askToStop={() => setConfirmStop(true)}
          canPause={active && !view.pausing && busy === null}
          pausing={view.pausing && active}
          canResume={resumable && busy === null}
          canStop={!finished && busy === null}
        />
      </div>
      <RunMetaLine view={view} state={state} runId={runId} active={active} finished={finished} />
      <RunOutcomeLine view={view} />
      {confirmStop && <StopRunDialog stop={() => void stop()} keep={() => setConfirmStop(false)} />}
    </header>
  );
}

interface RunMetaLineProps {
  view: RunView;
  state: RunState | null;
  runId: string;
  active: boolean;
  finished: boolean;
}

/** The run's id, workflow, branch and phase; and, when no session runs it here, that Resume continues it. */
function RunMetaLine({ view, state, runId, active, finished }: RunMetaLineProps) {
  return (
    <p className="run-meta muted">
      <span className="mono">{runId}</span> · {view.workflow ?? state?.workflow ?? '?'}
      {view.seed ? ` (seed ${view.seed})` : ''}
      {view.branch && (
        <>
          {' '}
          · branch <code>{view.branch}</code>
        </>
      )}
      {view.phase && view.phase !== 'finished' && <> · phase {view.phase}</>}
      {!active && !finished && !view.undone && <> · not running in this window — Resume continues it</>}
    </p>
  );
}

/** How the run ended or stopped, with the error code that ended it: the cause, not only the fact. */
function RunOutcomeLine({ view }: { view: RunView }) {
  const outcome = view.outcome ?? view.stopped;
  if (!outcome) return null;
  const stopped = outcome === view.stopped;
  const label = statusLabel(outcome.status, stopped);
  const reason =
    outcome.code && outcome.reason.startsWith(`${outcome.code}:`)
      ? outcome.reason.slice(outcome.code.length + 1).trim()
      : outcome.reason;
  return (
    <p className={`run-outcome outcome-${outcome.status}`} data-testid="run-outcome" role="status">
      <strong>{capitalize(label)}</strong>
      {outcome.code && (
        <>
          {' '}
          <code className="outcome-code">{outcome.code}</code>
        </>
      )}
      {reason && <>: {reason}</>}
      {stopped && <span className="muted"> Resume continues from where it stopped.</span>}
    </p>
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
