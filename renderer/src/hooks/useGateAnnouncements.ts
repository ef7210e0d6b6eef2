import { useEffect } from 'react';
import { useGateAlertStore } from '../stores/gateAlertStore';
import { useRunViewStore } from '../stores/runViewStore';
import { pendingGate } from '../../../shared/runView/reduceGates';

/** The number of gates waiting for the user: from the core's status pushes and the run on screen. */
export function usePendingGateCount(): number {
  const waiting = useGateAlertStore((state) => state.waiting);
  const shown = useRunViewStore((state) => (pendingGate(state.view) && state.view.runId ? state.view.runId : null));
  const runs = new Set(Object.keys(waiting));
  if (shown) runs.add(shown);
  return runs.size;
}

/** The window title counts the gates waiting (the desktop app's OS notification comes from its main process). */
export function useGateAnnouncements(): void {
  const count = usePendingGateCount();

  useEffect(() => {
    document.title = count > 0 ? `(${count}) Gate waiting — Lathe` : 'Lathe';
  }, [count]);
}
