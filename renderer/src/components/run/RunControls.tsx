import { Modal } from '../layout/Modal';

interface RunControlsProps {
  pause: () => void;
  resume: () => void;
  askToStop: () => void;
  canPause: boolean;
  pausing: boolean;
  canResume: boolean;
  canStop: boolean;
}

export function RunControls({ pause, resume, askToStop, canPause, pausing, canResume, canStop }: RunControlsProps) {
  return (
    <div className="run-controls" role="group" aria-label="Run controls">
      <button
        type="button"
        onClick={pause}
        disabled={!canPause}
        title="Finish the current step (model call, edit or test run), then stop; resumable. A wait at a gate ends at once."
      >
        {pausing ? 'Pausing…' : 'Pause'}
      </button>
      <button type="button" onClick={resume} disabled={!canResume} title="Continue from where the run stopped">
        Resume
      </button>
      <button
        type="button"
        className="danger"
        onClick={askToStop}
        disabled={!canStop}
        title="Interrupt the run now and end it for good"
      >
        Stop
      </button>
    </div>
  );
}

/** Stop ends a run for good, so it asks first; Pause is the way to stop it resumably. */
export function StopRunDialog({ stop, keep }: { stop: () => void; keep: () => void }) {
  return (
    <Modal
      title="Stop this run for good?"
      onClose={keep}
      actions={
        <>
          <button type="button" className="danger" onClick={stop}>
            Stop the run
          </button>
          <button type="button" onClick={keep} data-autofocus>
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
  );
}
