import { client, errorMessage, unwrap } from '../../api/client';
import { useRunViewStore } from '../../stores/runViewStore';
import type { useUiStore } from '../../stores/uiStore';
import { statusLabel } from './StatusBadge';

interface RunActionsInput {
  repo: string;
  runId: string;
  /** The goal the run was started with, resumed as is. */
  goal: string | undefined;
  notify: ReturnType<typeof useUiStore.getState>['notify'];
  setBusy: (action: string | null) => void;
  setConfirmStop: (confirm: boolean) => void;
}

/** Pause, Resume and Stop of the run shown: each says what it did, then reads the run again. */
export function runActions({ repo, runId, goal, notify, setBusy, setConfirmStop }: RunActionsInput) {
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
      unwrap(await client().request('run/resume', { repo, runId, ...(goal ? { goal } : {}) }));
      return `Run ${runId} resumed.`;
    });
  const stop = () =>
    act('stop', async () => {
      setConfirmStop(false);
      const { status } = unwrap(await client().request('run/cancel', { repo, runId }));
      return `Run ${runId} ended (${statusLabel(status)}).`;
    });
  return { pause, resume, stop };
}
