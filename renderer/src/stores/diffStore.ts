import { create } from 'zustand';
import type { z } from 'zod';
import type { RunCommitSchema, RunDiffSchema } from '../../../shared/contract/runRequests';
import { client, errorMessage, unwrap } from '../api/client';
import { markMoment } from '../lib/paintMarks';

export type RunCommit = z.infer<typeof RunCommitSchema>;
export type RunDiff = z.infer<typeof RunDiffSchema>;
export type DiffFile = RunDiff['files'][number];

interface DiffState {
  repo: string | null;
  runId: string | null;
  commits: RunCommit[];
  /** `all` (base → head) or a commit sha (its parent → it). */
  range: string;
  base: string | null;
  head: string | null;
  files: DiffFile[];
  loading: boolean;
  error: string | null;
  sideBySide: boolean;
  /** Reads a range; the same range again is read only with `force` (new commits), not twice at once. */
  load(repo: string, runId: string, range: string, options?: { force?: boolean }): Promise<void>;
  setSideBySide(sideBySide: boolean): void;
  reset(): void;
}

export const initialDiffState = {
  repo: null,
  runId: null,
  commits: [],
  range: 'all',
  base: null,
  head: null,
  files: [],
  loading: false,
  error: null,
  sideBySide: true,
};

let generation = 0;

/** The edit sets of one run: its commits, and one range's files before and after. */
export const useDiffStore = create<DiffState>()((set, get) => ({
  ...initialDiffState,
  load: async (repo, runId, range, options) => {
    const current = get();
    const sameRun = current.repo === repo && current.runId === runId;
    if (
      sameRun &&
      current.range === range &&
      !options?.force &&
      !current.error &&
      (current.loading || current.head !== null)
    )
      return;
    const token = ++generation;
    set({
      repo,
      runId,
      range,
      loading: true,
      error: null,
      ...(sameRun ? {} : { commits: [], files: [], base: null, head: null }),
    });
    try {
      if (range !== 'all') {
        const commits = unwrap(await client().request('run/commits', { repo, runId })).commits;
        if (token !== generation) return;
        const index = commits.findIndex((commit) => commit.sha === range);
        if (index >= 0) {
          // A commit's edit set is its parent → it; the first commit's parent is the run's base (the default `from`).
          const parent = index > 0 ? commits[index - 1]?.sha : undefined;
          const diff = unwrap(
            await client().request('run/diff', { repo, runId, ...(parent ? { from: parent } : {}), to: range }),
          );
          if (token !== generation) return;
          markMoment('diff-read');
          // The diff's own counts, as the gate card's (shared/diff/changeSpan): git's per-commit numstat could differ.
          set({ commits, base: diff.base, head: diff.head, files: diff.files, loading: false });
          return;
        }
      }
      // All changes (or a commit this run does not have): the diff first, the edit-set list after it.
      const diff = unwrap(await client().request('run/diff', { repo, runId }));
      if (token !== generation) return;
      markMoment('diff-read');
      set({ base: diff.base, head: diff.head, files: diff.files, range: 'all', loading: false });
      const commits = unwrap(await client().request('run/commits', { repo, runId })).commits;
      if (token === generation) set({ commits });
    } catch (error) {
      if (token === generation) set({ loading: false, error: errorMessage(error) });
    }
  },
  setSideBySide: (sideBySide) => set({ sideBySide }),
  reset: () => {
    generation += 1;
    set(initialDiffState);
  },
}));
