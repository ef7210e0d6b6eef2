import { lazy, Suspense, useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { RunTab } from '../../lib/route';
import { resetPaintMarks } from '../../lib/paintMarks';
import { pendingGate } from '../../../../shared/runView/reduceGates';
import { useLiveStore } from '../../stores/liveStore';
import { useRunViewStore } from '../../stores/runViewStore';
import { useUiStore } from '../../stores/uiStore';
import { ActivityTab } from './ActivityTab';
import { AgentsPanel } from './AgentsPanel';
import { BudgetPanel } from './BudgetPanel';
import { GateCard } from './GateCard';
import { GatesTab } from './GatesTab';
import { PlanTree } from './PlanTree';
import { ReportTab } from './ReportTab';
import { RunHeader } from './RunHeader';
import { TestsTab } from './TestsTab';
import { Timeline } from './Timeline';

// Loaded when a diff is shown; Monaco, the biggest part of the window, follows its first paint (DiffView).
const ChangesTab = lazy(() => import('./ChangesTab'));

const TABS: { tab: RunTab; label: string }[] = [
  { tab: 'activity', label: 'Activity' },
  { tab: 'changes', label: 'Changes' },
  { tab: 'tests', label: 'Tests' },
  { tab: 'gates', label: 'Gates' },
  { tab: 'report', label: 'Report' },
];

export default function RunScreen({ repo, runId }: { repo: string; runId: string }) {
  const tab = useUiStore((state) => state.route.tab);
  const navigate = useUiStore((state) => state.navigate);
  const loading = useRunViewStore((state) => state.loading);
  const error = useRunViewStore((state) => state.error);
  const loadedRun = useRunViewStore((state) => state.runId);
  const gate = useRunViewStore((state) => pendingGate(state.view));
  const counts = useRunViewStore(
    useShallow((state) => ({
      tests: state.view.tests.length,
      gates: state.view.gateOrder.length,
      commits: state.view.commits.length,
    })),
  );

  useEffect(() => {
    resetPaintMarks(`${repo}\0${runId}`);
    useLiveStore.getState().follow(runId);
    void useRunViewStore.getState().open(repo, runId);
  }, [repo, runId]);

  // The element that had the focus went away (the Start button, a decided gate's card): put it somewhere
  // useful — the gate now waiting, or the run's heading — instead of leaving it on <body>.
  const pendingId = gate?.gateId ?? null;
  const ready = !loading && loadedRun === runId;
  useEffect(() => {
    if (!ready) return;
    const focused = document.activeElement;
    if (focused && focused !== document.body) return;
    const target = pendingId
      ? document.getElementById(`gate-${pendingId}-heading`)
      : document.getElementById('run-goal');
    target?.focus();
  }, [ready, pendingId]);

  const badge = (name: RunTab) =>
    name === 'tests' ? counts.tests : name === 'gates' ? counts.gates : name === 'changes' ? counts.commits : 0;

  return (
    <div className="run-screen" data-testid="run-view">
      <RunHeader repo={repo} />
      {error && (
        <p className="error-text pad" role="alert">
          {error}
        </p>
      )}
      {gate && loadedRun === runId && <GateCard key={gate.gateId} repo={repo} runId={runId} gate={gate} actionable />}
      <div className="run-body">
        <aside className="run-side" aria-label="Plan and progress">
          <PlanTree />
          <BudgetPanel />
          <AgentsPanel />
        </aside>
        <section className="run-main">
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
          <Timeline />
        </section>
      </div>
    </div>
  );
}
