import { Notification, type BrowserWindow } from 'electron';
import type { EventOf } from '../../shared/contract/channels';
import type { EventBus } from '../core/runs/eventBus';

/**
 * An OS notification when a run starts waiting at a gate while the window is not in front (or is
 * closed, on macOS); a click on it brings the window back. The main process shows it, so the page
 * needs no notification permission (every permission is refused, window.ts).
 */
export function notifyGates(
  events: EventBus,
  getWindow: () => BrowserWindow | null,
  bringToFront: () => void,
): () => void {
  // Electron drops a notification's click handler once the object is garbage collected: keep it while it is up.
  const shown = new Set<Notification>();
  return events.subscribe((name, payload) => {
    if (name !== 'run/status' || (payload as EventOf<'run/status'>).status !== 'waiting_for_gate') return;
    const window = getWindow();
    if ((window && window.isFocused()) || !Notification.isSupported()) return;
    const notification = new Notification({
      title: 'Lathe: a gate waits for you',
      body: 'Approve or reject it in the run view.',
    });
    const forget = () => shown.delete(notification);
    notification.on('click', () => {
      forget();
      bringToFront();
    });
    notification.on('close', forget);
    shown.add(notification);
    notification.show();
  });
}
