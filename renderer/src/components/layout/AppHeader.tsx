import { usePendingGateCount } from '../../hooks/useGateAnnouncements';
import type { ViewName } from '../../lib/route';
import { useAppStore } from '../../stores/appStore';
import { useGateAlertStore } from '../../stores/gateAlertStore';
import { useRepoStore } from '../../stores/repoStore';
import { useUiStore } from '../../stores/uiStore';

const CONNECTION_LABELS = { connecting: 'connecting…', open: 'connected', closed: 'disconnected' } as const;

export function AppHeader() {
  const info = useAppStore((state) => state.info);
  const connection = useAppStore((state) => state.connection);
  const error = useAppStore((state) => state.error);
  const repo = useRepoStore((state) => state.status);
  const route = useUiStore((state) => state.route);
  const navigate = useUiStore((state) => state.navigate);
  const pending = usePendingGateCount();
  const waiting = useGateAlertStore((state) => state.waiting);

  const tabs: { view: ViewName; label: string; enabled: boolean }[] = [
    { view: 'start', label: 'New run', enabled: true },
    { view: 'run', label: 'Run', enabled: Boolean(route.run) },
    { view: 'history', label: 'History', enabled: Boolean(repo) },
    { view: 'settings', label: 'Settings', enabled: true },
  ];
  const goToGate = () => {
    const first = Object.values(waiting)[0];
    if (first && first.runId !== route.run)
      navigate({ view: 'run', repo: first.repo || route.repo, run: first.runId, tab: 'activity' });
    else if (route.run) navigate({ view: 'run', tab: 'activity' });
  };

  return (
    <header className="app-header">
      <h1 className="app-title">Lathe</h1>
      <span className="app-version" data-testid="app-version">
        {info ? `v${info.version}` : '…'}
      </span>
      {info && <span className="app-mode">{info.mode === 'electron' ? 'desktop' : 'browser mode'}</span>}
      <nav aria-label="Main" className="main-nav">
        {tabs.map((tab) => (
          <button
            key={tab.view}
            type="button"
            className={`nav-tab${route.view === tab.view ? ' nav-tab-current' : ''}`}
            aria-current={route.view === tab.view ? 'page' : undefined}
            disabled={!tab.enabled}
            onClick={() => navigate({ view: tab.view })}
          >
            {tab.label}
          </button>
        ))}
      </nav>
      {repo && (
        <span className="header-repo" title={repo.path}>
          {repo.name}
          {repo.branch ? ` · ${repo.branch}` : ''}
        </span>
      )}
      <span className="header-spacer" />
      {pending > 0 && (
        <button
          type="button"
          className="gate-badge"
          data-testid="gate-badge"
          onClick={goToGate}
          aria-label={`${pending} gate${pending === 1 ? '' : 's'} waiting for you`}
        >
          {pending} gate{pending === 1 ? '' : 's'} waiting
        </button>
      )}
      <span className={`connection connection-${connection}`} role="status" aria-label="connection">
        {CONNECTION_LABELS[connection]}
      </span>
      <button
        type="button"
        className="icon-button"
        onClick={() => useUiStore.getState().setHelpOpen(true)}
        aria-label="Keyboard shortcuts"
        title="Keyboard shortcuts (?)"
      >
        ?
      </button>
      {error && <span className="error-text">{error}</span>}
    </header>
  );
}
