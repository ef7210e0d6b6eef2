import { useState } from 'react';
import { client, errorMessage, unwrap } from '../../api/client';
import type { RunView } from '../../../../shared/runView/types';
import { goalLine } from '../../../../shared/headline';
import { useRunViewStore } from '../../stores/runViewStore';
import { useUiStore } from '../../stores/uiStore';
import { Modal } from '../layout/Modal';
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

  const act = async (name: string, perform: () => Promise<string>) => {
    setBusy(name);
    try {
      notify('info', await perform());
      await useRunViewStore.getState().refreshState();
    } catch (error) {
      notify('error', errorMessage(error));
    } finally {
      setBusy(null);
    }
  };
  const pause = () =>
    act('pause', async () => {
      const { pausing } = unwrap(await client().request('run/pause', { repo, runId }));
      return pausing
        ? 'Pausing: the run stops once its current step (model call, edit or test run) is done, and stays resumable.'
        : 'The run was not running in this window’s core.';
    });
  const resume = () =>
    act('resume', async () => {
      // The goal shown is the goal resumed: a run whose saved goal differs is refused (seed 003's spec_hash).
      unwrap(await client().request('run/resume', { repo, runId, ...(state?.goal ? { goal: state.goal } : {}) }));
      return `Run ${runId} resumed.`;
    });
  const stop = () =>
    act('stop', async () => {
      setConfirmStop(false);
      const { status } = unwrap(await client().request('run/cancel', { repo, runId }));
      return `Run ${runId} ended (${statusLabel(status)}).`;
    });

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
        <div className="run-controls" role="group" aria-label="Run controls">
          <button
            type="button"
            onClick={() => void pause()}
            disabled={!active || view.pausing || busy !== null}
            title="Finish the current step (model call, edit or test run), then stop; resumable. A wait at a gate ends at once."
          >
            {view.pausing && active ? 'Pausing…' : 'Pause'}
          </button>
          <button
            type="button"
            onClick={() => void resume()}
            disabled={!resumable || busy !== null}
            title="Continue from where the run stopped"
          >
            Resume
          </button>
          <button
            type="button"
            className="danger"
            onClick={() => setConfirmStop(true)}
            disabled={finished || busy !== null}
            title="Interrupt the run now and end it for good"
          >
            Stop
          </button>
        </div>
      </div>
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
      <RunOutcomeLine view={view} />
      {confirmStop && (
        <Modal
          title="Stop this run for good?"
          onClose={() => setConfirmStop(false)}
          actions={
            <>
              <button type="button" className="danger" onClick={() => void stop()}>
                Stop the run
              </button>
              <button type="button" onClick={() => setConfirmStop(false)} data-autofocus>
                Keep it
              </button>
            </>
          }
        >
          <p>
            The current step is interrupted and the run ends with status “stopped”; it cannot be resumed. Its branch and
            commits stay until you undo it. Use Pause to stop it after the current step and resume it later.
          </p>
        </Modal>
      )}
    </header>
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
