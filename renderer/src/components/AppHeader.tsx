import { useAppStore } from '../stores/appStore';

const CONNECTION_LABELS = { connecting: 'connecting…', open: 'connected', closed: 'disconnected' } as const;

export function AppHeader() {
  const info = useAppStore((state) => state.info);
  const connection = useAppStore((state) => state.connection);
  const error = useAppStore((state) => state.error);
  return (
    <header className="app-header">
      <h1 className="app-title">Lathe</h1>
      <span className="app-version" data-testid="app-version">
        {info ? `v${info.version}` : '…'}
      </span>
      {info && <span className="app-mode">{info.mode === 'electron' ? 'desktop' : 'browser mode'}</span>}
      <span className={`connection connection-${connection}`} role="status" aria-label="connection">
        {CONNECTION_LABELS[connection]}
      </span>
      {error && <span className="error-text">{error}</span>}
    </header>
  );
}
