import { create } from 'zustand';
import type { RunSummary } from '../../../shared/schemas/run';
import { client, errorMessage, unwrap } from '../api/client';

interface RunsState {
  runs: RunSummary[];
  loadedFor: string | null;
  error: string | null;
  load(repoPath: string): Promise<void>;
  reset(): void;
}

const initialState = { runs: [], loadedFor: null, error: null };

export const useRunsStore = create<RunsState>()((set) => ({
  ...initialState,
  load: async (repoPath) => {
    try {
      const { runs } = unwrap(await client().request('runs/list', { repo: repoPath }));
      set({ runs, loadedFor: repoPath, error: null });
    } catch (error) {
      set({ error: errorMessage(error) });
    }
  },
  reset: () => set(initialState),
}));
