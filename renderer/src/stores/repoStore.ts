import { create } from 'zustand';
import type { RepoStatus } from '../../../shared/schemas/repo';
import type { z } from 'zod';
import type { RecentRepoSchema } from '../../../shared/schemas/settings';
import { client, errorMessage, unwrap } from '../api/client';

export type RecentRepo = z.infer<typeof RecentRepoSchema>;

interface RepoState {
  status: RepoStatus | null;
  recent: RecentRepo[];
  loading: boolean;
  error: string | null;
  open(path: string): Promise<RepoStatus | null>;
  refresh(): Promise<void>;
  loadRecent(): Promise<void>;
  setStatus(status: RepoStatus): void;
  close(): void;
  reset(): void;
}

export const initialRepoState = { status: null, recent: [], loading: false, error: null };

export const useRepoStore = create<RepoState>()((set, get) => ({
  ...initialRepoState,
  open: async (path) => {
    set({ loading: true, error: null });
    try {
      const status = unwrap(await client().request('repo/open', { path }));
      set({ status, loading: false });
      void get().loadRecent();
      return status;
    } catch (error) {
      set({ loading: false, error: errorMessage(error) });
      return null;
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
  loadRecent: async () => {
    try {
      set({ recent: unwrap(await client().request('repo/recent', {})).repos });
    } catch {
      // catch-ok: The list is a convenience; the path field still works.
    }
  },
  setStatus: (status) => set({ status, error: null }),
  close: () => set({ status: null, error: null }),
  reset: () => set(initialRepoState),
}));
