import { lazy, Suspense, useEffect } from 'react';
import { boot } from './boot';
import { AppHeader } from './components/layout/AppHeader';
import { HelpOverlay } from './components/layout/HelpOverlay';
import { Notices } from './components/layout/Notices';
import { StartScreen } from './components/start/StartScreen';
import { useGateAnnouncements } from './hooks/useGateAnnouncements';
import { useRouteRepo } from './hooks/useRouteRepo';
import { useTheme } from './hooks/useTheme';
import { useGlobalShortcuts } from './hooks/useGlobalShortcuts';
import { useSettingsStore } from './stores/settingsStore';
import { useUiStore } from './stores/uiStore';

// Screens other than the start screen load on first use; the run view pulls Monaco in only with its diff.
const RunScreen = lazy(() => import('./components/run/RunScreen'));
const HistoryScreen = lazy(() => import('./components/history/HistoryScreen'));
const SettingsScreen = lazy(() => import('./components/settings/SettingsScreen'));

function init(): () => void {
  boot();
  void useSettingsStore.getState().load();
  const onPop = () => useUiStore.getState().syncFromLocation(window.location.search);
  window.addEventListener('popstate', onPop);
  return () => window.removeEventListener('popstate', onPop);
}

export function App() {
  const route = useUiStore((state) => state.route);
  useEffect(init, []);
  useTheme();
  useRouteRepo();
  useGateAnnouncements();
  useGlobalShortcuts();

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <AppHeader />
      <main id="main" className="app-main" tabIndex={-1}>
        <Suspense fallback={<p className="muted pad">Loading…</p>}>
          {route.view === 'run' && route.run && route.repo ? (
            <RunScreen repo={route.repo} runId={route.run} />
          ) : route.view === 'history' ? (
            <HistoryScreen />
          ) : route.view === 'settings' ? (
            <SettingsScreen />
          ) : (
            <StartScreen />
          )}
        </Suspense>
      </main>
      <Notices />
      <HelpOverlay />
    </div>
  );
}
