import { lazy, Suspense } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { RunTab } from '../../lib/route';
import { useRunViewStore } from '../../stores/runViewStore';
import { useUiStore } from '../../stores/uiStore';
import { ActivityTab } from './ActivityTab';
import { GatesTab } from './GatesTab';
import { ReportTab } from './ReportTab';
import { TestsTab } from './TestsTab';

// Loaded when a diff is shown; Monaco, the biggest part of the window, follows its first paint (DiffView).
const ChangesTab = lazy(() => import('./ChangesTab'));

const TABS: { tab: RunTab; label: string }[] = [
  { tab: 'activity', label: 'Activity' },
  { tab: 'changes', label: 'Changes' },
  { tab: 'tests', label: 'Tests' },
  { tab: 'gates', label: 'Gates' },
  { tab: 'report', label: 'Report' },
];

/** The run's tabs, each with a count of what it holds; the arrow keys move between them. */
export function RunTabList({ tab }: { tab: RunTab }) {
  const navigate = useUiStore((state) => state.navigate);
  const counts = useRunViewStore(
    useShallow((state) => ({
      tests: state.view.tests.length,
      gates: state.view.gateOrder.length,
      commits: state.view.commits.length,
    })),
  );
  const badge = (name: RunTab) =>
    name === 'tests' ? counts.tests : name === 'gates' ? counts.gates : name === 'changes' ? counts.commits : 0;
  return (
    <div role="tablist" aria-label="Run details" className="tabs">
      {TABS.map(({ tab: name, label }) => (
        <button
          key={name}
          id={`tab-${name}`}
          role="tab"
          type="button"
          aria-selected={tab === name}
          aria-controls="run-tab-panel"
          tabIndex={tab === name ? 0 : -1}
          className={`tab${tab === name ? ' tab-current' : ''}`}
          onClick={() => navigate({ tab: name }, { replace: true })}
          onKeyDown={(event) => {
            if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
            const index = TABS.findIndex((entry) => entry.tab === tab);
            const next = TABS[(index + (event.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length];
            if (next) {
              navigate({ tab: next.tab }, { replace: true });
              document.getElementById(`tab-${next.tab}`)?.focus();
            }
          }}
        >
          {label}
          {badge(name) > 0 && <span className="tab-count">{badge(name)}</span>}
        </button>
      ))}
    </div>
  );
}

/** The chosen tab's content; Activity waits for the log to be read. */
export function RunTabPanel({ tab, repo, runId }: { tab: RunTab; repo: string; runId: string }) {
  const loading = useRunViewStore((state) => state.loading);
  const loadedRun = useRunViewStore((state) => state.runId);
  return (
    <div id="run-tab-panel" role="tabpanel" aria-labelledby={`tab-${tab}`} className="tab-panel">
      {tab === 'changes' ? (
        <Suspense fallback={<p className="muted pad">Loading the diff editor…</p>}>
          <ChangesTab repo={repo} runId={runId} />
        </Suspense>
      ) : tab === 'tests' ? (
        <TestsTab repo={repo} runId={runId} />
      ) : tab === 'gates' ? (
        <GatesTab repo={repo} runId={runId} />
      ) : tab === 'report' ? (
        <ReportTab repo={repo} runId={runId} />
      ) : loading && loadedRun === runId ? (
        <p className="muted pad">Reading the run log…</p>
      ) : (
        <ActivityTab repo={repo} runId={runId} />
      )}
    </div>
  );
}
