/** The window's place, kept in the URL so a run view can be deep-linked (and reloaded). */
export type ViewName = 'start' | 'run' | 'history' | 'settings';
export type RunTab = 'activity' | 'changes' | 'tests' | 'gates' | 'report';

export interface Route {
  view: ViewName;
  repo: string | null;
  run: string | null;
  tab: RunTab;
  /** Diff range in the Changes tab: `all` or a commit sha. */
  range: string;
  file: string | null;
  /** The New run form follows up on this run (History's Follow up): only on the start view. */
  followUp: string | null;
}

const VIEWS: readonly ViewName[] = ['start', 'run', 'history', 'settings'];
const TABS: readonly RunTab[] = ['activity', 'changes', 'tests', 'gates', 'report'];

export const DEFAULT_ROUTE: Route = {
  view: 'start',
  repo: null,
  run: null,
  tab: 'activity',
  range: 'all',
  file: null,
  followUp: null,
};

function oneOf<T extends string>(value: string | null, allowed: readonly T[]): T | null {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : null;
}

export function parseRoute(search: string): Route {
  const params = new URLSearchParams(search);
  const run = params.get('run') || null;
  const view = oneOf(params.get('view'), VIEWS) ?? (run ? 'run' : DEFAULT_ROUTE.view);
  return {
    view: view === 'run' && !run ? 'start' : view,
    repo: params.get('repo') || null,
    run,
    tab: oneOf(params.get('tab'), TABS) ?? DEFAULT_ROUTE.tab,
    range: params.get('range') || DEFAULT_ROUTE.range,
    file: params.get('file') || null,
    followUp: view === 'start' ? params.get('follow-up') || null : null,
  };
}

/** Only what differs from the defaults, in a stable order. */
export function routeToSearch(route: Route): string {
  const params = new URLSearchParams();
  if (route.repo) params.set('repo', route.repo);
  if (route.view !== 'start' && !(route.view === 'run' && route.run)) params.set('view', route.view);
  if (route.run && route.view === 'run') {
    params.set('run', route.run);
    if (route.tab !== DEFAULT_ROUTE.tab) params.set('tab', route.tab);
    if (route.range !== DEFAULT_ROUTE.range) params.set('range', route.range);
    if (route.file) params.set('file', route.file);
  }
  if (route.view === 'start' && route.followUp) params.set('follow-up', route.followUp);
  const text = params.toString();
  return text ? `?${text}` : '';
}
