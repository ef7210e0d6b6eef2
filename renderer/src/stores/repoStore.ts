import { create } from 'zustand';
import type { RepoStatus } from '../../../shared/schemas/repo';
import { client, errorMessage, unwrap } from '../api/client';

interface RepoState {
  status: RepoStatus | null;
  loading: boolean;
  error: string | null;
  open(path: string): Promise<void>;
  refresh(): Promise<void>;
  setStatus(status: RepoStatus): void;
  reset(): void;
}

const initialState = { status: null, loading: false, error: null };

export const useRepoStore = create<RepoState>()((set, get) => ({
  ...initialState,
  open: async (path) => {
    set({ loading: true, error: null });
    try {
      set({ status: unwrap(await client().request('repo/open', { path })), loading: false });
    } catch (error) {
      set({ loading: false, error: errorMessage(error) });
    }
  },
  refresh: async () => {
    const current = get().status;
    if (!current) return;
    try {
      set({ status: unwrap(await client().request('repo/status', { path: current.path })), error: null });
    } catch (error) {
      set({ error: errorMessage(error) });
    }
  },
  setStatus: (status) => set({ status, error: null }),
  reset: () => set(initialState),
}));
