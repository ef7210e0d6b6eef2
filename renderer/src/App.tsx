import { useEffect } from 'react';
import { connectClient } from './api/client';
import { AppHeader } from './components/AppHeader';
import { RepoOpener } from './components/RepoOpener';
import { RepoSummary } from './components/RepoSummary';
import { RunsList } from './components/RunsList';
import { useAppStore } from './stores/appStore';
import { useRepoStore } from './stores/repoStore';
import { useRunsStore } from './stores/runsStore';

let connected = false;

/** Connects once per page (StrictMode mounts effects twice in development). */
function connectOnce(): void {
  if (connected) return;
  connected = true;
  const client = connectClient((state) => useAppStore.getState().setConnection(state));
  client.on('repo/changed', (status) => useRepoStore.getState().setStatus(status));
  void useAppStore.getState().loadInfo();
  const initialRepo = new URLSearchParams(window.location.search).get('repo');
  if (initialRepo) void useRepoStore.getState().open(initialRepo);
}

export function App() {
  const repo = useRepoStore((state) => state.status);
  const loadRuns = useRunsStore((state) => state.load);

  useEffect(connectOnce, []);
  useEffect(() => {
    if (repo) void loadRuns(repo.path);
  }, [repo, loadRuns]);

  return (
    <div className="app">
      <AppHeader />
      <main className="app-main">
        <RepoOpener />
        {repo && <RepoSummary status={repo} />}
        {repo && <RunsList />}
      </main>
    </div>
  );
}
