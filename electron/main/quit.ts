import { app } from 'electron';
import type { RunManager } from '../core/runs/runManager';

/** How long quitting waits for runs to save a clean stop; a run that takes longer resumes from its last saved sub-step. */
export const QUIT_GRACE_MS = 10_000;

/**
 * Quitting with runs going on: the quit waits until each has stopped and saved a resumable state
 * (and its Verifier's test processes are gone), then goes on. Electron ends the process right after
 * 'quit', so a stop that only started by then would be cut off halfway.
 */
export function stopRunsBeforeQuit(runs: Pick<RunManager, 'activeCount' | 'stopAll'>): void {
  let stopping: Promise<void> | null = null;
  let stopped = false;
  app.on('before-quit', (event) => {
    if (stopped || (stopping === null && runs.activeCount() === 0)) return;
    event.preventDefault();
    stopping ??= Promise.race([
      runs.stopAll(),
      new Promise<void>((resolve) => setTimeout(resolve, QUIT_GRACE_MS).unref()),
    ]).then(() => {
      stopped = true;
      app.quit();
    });
  });
}
