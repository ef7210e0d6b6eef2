import { useState } from 'react';
import { client, errorMessage, unwrap } from '../../api/client';
import { useRunViewStore } from '../../stores/runViewStore';
import { useUiStore } from '../../stores/uiStore';
import { Modal } from '../layout/Modal';
import { StatusBadge } from './StatusBadge';

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
  const resumable = !active && (!finished || (state?.status ?? view.status) === 'stuck');

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
      const { stopping } = unwrap(await client().request('run/stop', { repo, runId }));
      return stopping ? 'Pausing: the run stops after its current operation and stays resumable.' : 'The run was not running in this window’s core.';
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
      return `Run ${runId} ended (${status}).`;
    });

  return (
    <header className="run-header" aria-labelledby="run-goal">
      <div className="run-title-row">
        <StatusBadge status={view.status ?? state?.status ?? null} testId="run-status" />
        <h2 id="run-goal" className="run-goal" title={view.goal || state?.goal}>
          {firstLine(view.goal || state?.goal || '')}
        </h2>
        <div className="run-controls" role="group" aria-label="Run controls">
          <button type="button" onClick={() => void pause()} disabled={!active || busy !== null} title="Stop after the current step; resumable">
            Pause
          </button>
          <button type="button" onClick={() => void resume()} disabled={!resumable || busy !== null}>
            Resume
          </button>
          <button type="button" className="danger" onClick={() => setConfirmStop(true)} disabled={finished || busy !== null} title="End the run for good">
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
        {!active && !finished && <> · not running in this window — Resume continues it</>}
        {(view.outcome ?? view.stopped) && <> · {shorten((view.outcome ?? view.stopped)?.reason ?? '', 140)}</>}
        {view.undone && <> · undone</>}
        {view.mergedInto && <> · merged into {view.mergedInto}</>}
      </p>
      {confirmStop && (
        <Modal
          title="Stop this run for good?"
          onClose={() => setConfirmStop(false)}
          actions={
            <>
              <button type="button" className="danger" onClick={() => void stop()} data-autofocus>
                Stop the run
              </button>
              <button type="button" onClick={() => setConfirmStop(false)}>
                Keep it
              </button>
            </>
          }
        >
          <p>The run ends with status “aborted” and cannot be resumed. Its branch and commits stay until you undo it. Use Pause to stop it resumably.</p>
        </Modal>
      )}
    </header>
  );
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? '';
}
