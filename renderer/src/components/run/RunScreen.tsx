import { useEffect } from 'react';
import { resetPaintMarks } from '../../lib/paintMarks';
import { pendingGate } from '../../../../shared/runView/reduceGates';
import { useLiveStore } from '../../stores/liveStore';
import { useRunViewStore } from '../../stores/runViewStore';
import { useUiStore } from '../../stores/uiStore';
import { AgentsPanel } from './AgentsPanel';
import { BudgetPanel } from './BudgetPanel';
import { GateCard } from './GateCard';
import { PlanTree } from './PlanTree';
import { RunHeader } from './RunHeader';
import { RunTabList, RunTabPanel } from './RunTabs';
import { Timeline } from './Timeline';

export default function RunScreen({ repo, runId }: { repo: string; runId: string }) {
  const tab = useUiStore((state) => state.route.tab);
  const loading = useRunViewStore((state) => state.loading);
  const error = useRunViewStore((state) => state.error);
  const loadedRun = useRunViewStore((state) => state.runId);
  const gate = useRunViewStore((state) => pendingGate(state.view));

  useEffect(() => {
    resetPaintMarks(`${repo}\0${runId}`);
    useLiveStore.getState().follow(runId);
    void useRunViewStore.getState().open(repo, runId);
  }, [repo, runId]);
  useFocusAfterLoss(!loading && loadedRun === runId, gate?.gateId ?? null);

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
          <RunTabList tab={tab} />
          <RunTabPanel tab={tab} repo={repo} runId={runId} />
          <Timeline />
        </section>
      </div>
    </div>
  );
}

/**
 * The element that had the focus went away (the Start button, a decided gate's card): put it somewhere
 * useful — the gate now waiting, or the run's heading — instead of leaving it on <body>.
 */
function useFocusAfterLoss(ready: boolean, pendingId: string | null) {
  useEffect(() => {
    if (!ready) return;
    const focused = document.activeElement;
    if (focused && focused !== document.body) return;
    const target = pendingId
      ? document.getElementById(`gate-${pendingId}-heading`)
      : document.getElementById('run-goal');
    target?.focus();
  }, [ready, pendingId]);
}
