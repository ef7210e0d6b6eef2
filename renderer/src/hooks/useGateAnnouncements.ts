import { useEffect, useRef } from 'react';
import { useAppStore } from '../stores/appStore';
import { useGateAlertStore } from '../stores/gateAlertStore';
import { useRunViewStore } from '../stores/runViewStore';
import { pendingGate } from '../runView/reduceGates';

/** The number of gates waiting for the user: from the core's status pushes and the run on screen. */
export function usePendingGateCount(): number {
  const waiting = useGateAlertStore((state) => state.waiting);
  const shown = useRunViewStore((state) => (pendingGate(state.view) && state.view.runId ? state.view.runId : null));
  const runs = new Set(Object.keys(waiting));
  if (shown) runs.add(shown);
  return runs.size;
}

/** Window title and, in the desktop app, an OS notification when a gate starts waiting. */
export function useGateAnnouncements(): void {
  const count = usePendingGateCount();
  const mode = useAppStore((state) => state.info?.mode);
  const previous = useRef(0);

  useEffect(() => {
    document.title = count > 0 ? `(${count}) Gate waiting — Lathe` : 'Lathe';
    if (count > previous.current && mode === 'electron' && 'Notification' in window && Notification.permission !== 'denied') {
      const notify = () => new Notification('Lathe: a gate waits for you', { body: 'Approve or reject it in the run view.', silent: false });
      if (Notification.permission === 'granted') notify();
      else void Notification.requestPermission().then((permission) => permission === 'granted' && notify());
    }
    previous.current = count;
  }, [count, mode]);
}
