import { useEffect } from 'react';
import { useHistoryStore } from '../../stores/historyStore';

/** The history store's runs and their state, checking for run branches removed by hand whenever the run count changes. */
export function useHistoryRuns() {
  const { runs, loading, error, busy, branchGone, exported } = useHistoryStore();
  const runCount = runs.length;
  // Undo and merge are recorded in each run (`closed`); a branch removed by hand is found only by looking.
  useEffect(() => {
    if (runCount > 0) void useHistoryStore.getState().checkBranches();
  }, [runCount]);
  return { runs, loading, error, busy, branchGone, exported };
}
