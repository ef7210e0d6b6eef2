import { create } from 'zustand';
import { DEFAULT_ROUTE, parseRoute, routeToSearch, type Route } from '../lib/route';

export type Theme = 'light' | 'dark' | 'system';
export type ResolvedTheme = 'light' | 'dark';

export interface Notice {
  id: number;
  tone: 'info' | 'ok' | 'error';
  text: string;
}

interface UiState {
  route: Route;
  theme: Theme;
  systemDark: boolean;
  helpOpen: boolean;
  notices: Notice[];
  /** Moves to a place; `replace` keeps the browser history entry (for corrections, not moves). */
  navigate(change: Partial<Route>, options?: { replace?: boolean }): void;
  /** Follows the address bar (back/forward). */
  syncFromLocation(search: string): void;
  setTheme(theme: Theme): void;
  setSystemDark(dark: boolean): void;
  setHelpOpen(open: boolean): void;
  notify(tone: Notice['tone'], text: string): void;
  dismiss(id: number): void;
  reset(): void;
}

export const initialUiState = {
  route: DEFAULT_ROUTE,
  theme: 'system' as Theme,
  systemDark: false,
  helpOpen: false,
  notices: [] as Notice[],
};

let nextNoticeId = 1;

function writeLocation(route: Route, replace: boolean): void {
  if (typeof window === 'undefined') return;
  const url = `${window.location.pathname}${routeToSearch(route)}`;
  if (url === `${window.location.pathname}${window.location.search}`) return;
  if (replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
}

export const useUiStore = create<UiState>()((set, get) => ({
  ...initialUiState,
  navigate: (change, options) => {
    const route = { ...get().route, ...change };
    // Leaving a run forgets its diff selection.
    if (change.run !== undefined && change.run !== get().route.run)
      Object.assign(route, { range: change.range ?? 'all', file: change.file ?? null, tab: change.tab ?? 'activity' });
    // A follow-up belongs to the New run form it was opened with: leaving the start view lets it go.
    if (route.view !== 'start') route.followUp = null;
    set({ route });
    writeLocation(route, options?.replace ?? false);
  },
  syncFromLocation: (search) => set({ route: parseRoute(search) }),
  setTheme: (theme) => set({ theme }),
  setSystemDark: (systemDark) => set({ systemDark }),
  setHelpOpen: (helpOpen) => set({ helpOpen }),
  notify: (tone, text) => set({ notices: [...get().notices.slice(-2), { id: nextNoticeId++, tone, text }] }),
  dismiss: (id) => set({ notices: get().notices.filter((notice) => notice.id !== id) }),
  reset: () => set(initialUiState),
}));

export function resolvedTheme(theme: Theme, systemDark: boolean): ResolvedTheme {
  return theme === 'system' ? (systemDark ? 'dark' : 'light') : theme;
}
