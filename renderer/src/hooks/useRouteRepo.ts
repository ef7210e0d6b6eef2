import { useEffect, useRef } from 'react';
import { useHistoryStore } from '../stores/historyStore';
import { useRepoStore } from '../stores/repoStore';
import { useRunViewStore } from '../stores/runViewStore';
import { useUiStore } from '../stores/uiStore';

/** Keeps the open repository and the URL's `repo` in step, and the history list loaded for it. */
export function useRouteRepo(): void {
  const routeRepo = useUiStore((state) => state.route.repo);
  const openRepo = useRepoStore((state) => state.status?.path ?? null);
  // A deep link to a run reads the run first; the repository's status follows.
  const runLoading = useRunViewStore((state) => state.loading);
  const requested = useRef<string | null>(null);

  useEffect(() => {
    if (!routeRepo || routeRepo === openRepo || routeRepo === requested.current || runLoading) return;
    requested.current = routeRepo;
    void useRepoStore
      .getState()
      .open(routeRepo)
      .then((status) => {
        // The core resolves the path; keep the resolved one in the URL.
        if (status && status.path !== routeRepo)
          useUiStore.getState().navigate({ repo: status.path }, { replace: true });
      });
  }, [routeRepo, openRepo, runLoading]);

  useEffect(() => {
    if (openRepo) void useHistoryStore.getState().load(openRepo);
  }, [openRepo]);
}
