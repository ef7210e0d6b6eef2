import { create } from 'zustand';

export interface WaitingRun {
  runId: string;
  repo: string;
}

interface GateAlertState {
  /** Runs of this window's core that wait for a human gate decision. */
  waiting: Record<string, WaitingRun>;
  setWaiting(runId: string, repo: string, waiting: boolean): void;
  reset(): void;
}

export const initialGateAlertState = { waiting: {} };

/** Pending gates across runs, for the badge, the window title and the OS notification. */
export const useGateAlertStore = create<GateAlertState>()((set, get) => ({
  ...initialGateAlertState,
  setWaiting: (runId, repo, waiting) => {
    const current = get().waiting;
    if (waiting === Boolean(current[runId])) return;
    if (waiting) set({ waiting: { ...current, [runId]: { runId, repo } } });
    else {
      const { [runId]: _gone, ...rest } = current;
      set({ waiting: rest });
    }
  },
  reset: () => set(initialGateAlertState),
}));
