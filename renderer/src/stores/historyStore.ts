import { create } from 'zustand';
import type { RunSummary } from '../../../shared/schemas/run';
import { LatheError } from '../../../shared/errors';
import { client, errorMessage, unwrap } from '../api/client';

/** Runs whose branch is checked per History load: enough for a screenful. */
const BRANCH_CHECKS = 25;

export type RunOperation = 'undo' | 'merge' | 'exportPatch';

/** The last patch exported: shown until dismissed (see ExportStatus). */
export interface ExportedPatch {
  runId: string;
  file: string;
  commits: number;
  /** The text, when the core sent it (not over 2 MB). */
  patch: string | null;
}

interface HistoryState {
  repo: string | null;
  runs: RunSummary[];
  loading: boolean;
  error: string | null;
  /** runId → the operation in progress. */
  busy: Record<string, RunOperation>;
  /**
   * Runs with no recorded undo whose branch was found missing (removed by hand). What the user did
   * with a run (undone, merged) comes from the run itself: `RunSummary.closed`.
   */
  branchGone: Record<string, true>;
  exported: ExportedPatch | null;
  dismissExport(): void;
  load(repo: string): Promise<void>;
  undo(runId: string): Promise<string>;
  merge(runId: string): Promise<string>;
  exportPatch(runId: string): Promise<string>;
  /** Finds runs whose branch is gone although no undo was recorded (removed by hand). */
  checkBranches(): Promise<void>;
  reset(): void;
}

export const initialHistoryState = {
  repo: null,
  runs: [],
  loading: false,
  error: null,
  busy: {},
  branchGone: {},
  exported: null,
};

/** Past runs of the open repository and what can be done with them. */
export const useHistoryStore = create<HistoryState>()((set, get) => {
  async function operate(
    runId: string,
    operation: RunOperation,
    perform: (repo: string) => Promise<string>,
  ): Promise<string> {
    const repo = get().repo;
    if (!repo) throw new Error('no repository is open');
    set({ busy: { ...get().busy, [runId]: operation } });
    try {
      return await perform(repo);
    } finally {
      const { [runId]: _done, ...rest } = get().busy;
      set({ busy: rest });
      void get().load(repo);
    }
  }
  return {
    ...initialHistoryState,
    load: async (repo) => {
      set({
        loading: get().repo !== repo || get().runs.length === 0,
        error: null,
        ...(get().repo !== repo ? { runs: [], branchGone: {}, exported: null, repo } : {}),
      });
      try {
        const { runs } = unwrap(await client().request('runs/list', { repo }));
        if (get().repo === repo) set({ runs, loading: false });
      } catch (error) {
        set({ loading: false, error: errorMessage(error) });
      }
    },
    undo: (runId) =>
      operate(runId, 'undo', async (repo) => {
        unwrap(await client().request('run/undo', { repo, runId }));
        // The reload that follows every operation brings the run's `closed` (undone), written to its log and state.
        return `Run ${runId} undone: its branch and workspace were removed.`;
      }),
    merge: (runId) =>
      operate(runId, 'merge', async (repo) => {
        const { merged } = unwrap(await client().request('run/merge', { repo, runId }));
        return `Run ${runId} merged (${merged.slice(0, 10)}).`;
      }),
    exportPatch: (runId) =>
      operate(runId, 'exportPatch', async (repo) => {
        const { file, commits, patch } = unwrap(await client().request('run/exportPatch', { repo, runId }));
        set({ exported: { runId, file, commits, patch } });
        return `Patch of ${commits} commit(s) written to ${file}`;
      }),
    dismissExport: () => set({ exported: null }),
    checkBranches: async () => {
      const { repo, runs, branchGone } = get();
      if (!repo) return;
      const candidates = runs
        .filter(
          (run) =>
            run.commits > 0 && run.status !== 'running' && run.closed?.action !== 'undone' && !branchGone[run.runId],
        )
        .slice(0, BRANCH_CHECKS);
      for (const run of candidates) {
        try {
          unwrap(await client().request('run/commits', { repo, runId: run.runId }));
        } catch (error) {
          if (get().repo !== repo) return;
          if (error instanceof LatheError && error.code === 'GIT_RUN_BRANCH_MISSING')
            set({ branchGone: { ...get().branchGone, [run.runId]: true } });
        }
      }
    },
    reset: () => set(initialHistoryState),
  };
});
