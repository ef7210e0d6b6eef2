import { useEffect, useState } from 'react';
import { budgetOf } from '../../../../shared/engine/budget';
import { formatDuration } from '../../../../shared/format';
import type { RunState } from '../../../../shared/engine/runState';
import type { RunFigures } from '../../../../shared/runView/runFigures';
import type { RunView } from '../../../../shared/runView/types';
import { useRunViewStore } from '../../stores/runViewStore';

interface Meter {
  label: string;
  value: number;
  /** 0 or null: no limit. */
  limit: number | null;
  hint: string;
}

/** Ticks once a second while the run is going on. */
function useNow(running: boolean): number {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(performance.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return now;
}

/** Time budget and every counter against its limit, always in view. */
export function BudgetPanel() {
  const view = useRunViewStore((state) => state.view);
  const state = useRunViewStore((state) => state.state);
  const figures = useRunViewStore((state) => state.figures);
  const active = useRunViewStore((state) => state.active);
  const readAt = useRunViewStore((state) => state.stateReadAt);
  const running = active && view.status === 'running';
  const now = useNow(running);
  if (!state || !figures) return null;

  const elapsed = state.elapsed_ms + (running ? Math.max(0, now - readAt) : 0);
  const budget = budgetOf(state);
  const meters = budgetMeters(view, state, figures);
  const total = state.config.time_limit_ms;

  return (
    <section className="panel budget-panel" aria-labelledby="budget-heading" data-testid="budget">
      <h3 id="budget-heading">Budget</h3>
      <div className="budget-time">
        <span>
          {formatDuration(elapsed)}
          {total ? ` of ${formatDuration(total)}` : ' (no time limit)'}
        </span>
        {total && <progress value={Math.min(elapsed, total)} max={total} aria-label="time used" />}
      </div>
      {budget && (
        <p className="muted small">
          planning {formatDuration(state.time_spent.planning)}/{formatDuration(budget.planning_ms)} · execution{' '}
          {formatDuration(state.time_spent.execution)}/{formatDuration(budget.execution_ms)} · per step{' '}
          {formatDuration(budget.per_step_ms)}
        </p>
      )}
      <MeterList meters={meters} />
      <p className="muted small">
        Steps {figures.completedSteps}/{figures.totalSteps} done · verify runs {figures.verifyRunsGreen} green,{' '}
        {figures.verifyRunsRed} red
        {figures.lastVerify ? ` (last ${figures.lastVerify === 'PASS' ? 'green' : 'red'})` : ''}
        {view.warnings > 0 ? ` · ${view.warnings} warning${view.warnings === 1 ? '' : 's'}` : ''}
      </p>
    </section>
  );
}

/** Every counter of the run against the limit that ends or re-plans it. */
function budgetMeters(view: RunView, state: RunState, figures: RunFigures): Meter[] {
  const limits = state.config.limits;
  return [
    {
      label: 'Attempts',
      value: figures.attempts,
      limit: limits.max_attempts_per_task,
      hint: `coding attempts at ${view.currentStepId ?? state.current_step_id ?? 'the current step'}`,
    },
    {
      label: 'Fix cycles',
      value: figures.fixCycles,
      limit: limits.max_fix_cycles,
      hint: 'Tester → Coder fix cycles in this attempt',
    },
    {
      label: 'Plans',
      value: figures.plans,
      limit: limits.max_plan_attempts,
      hint: 'plans made (re-plans after rejections)',
    },
    {
      label: 'Replans',
      value: figures.replans,
      limit: limits.replan_after_failures > 0 ? null : 0,
      hint: 'REPLANs after repeated verify failures',
    },
    {
      label: 'Verify loops',
      value: figures.verifyLoops,
      limit: limits.hard_stop_verify_loops,
      hint: 'verify loops without green (hard stop)',
    },
    {
      label: 'Failures in a row',
      value: figures.failuresInARow,
      limit: limits.replan_after_failures,
      hint: 'consecutive verify failures before a REPLAN',
    },
    {
      label: 'Failed steps',
      value: figures.failedSteps,
      limit: limits.max_failed_steps,
      hint: 'failed steps before the run ends',
    },
  ];
}

/** The meters that mean something here: a counter switched off (limit 0) shows only once it moved. */
function MeterList({ meters }: { meters: Meter[] }) {
  return (
    <dl className="meters">
      {meters
        .filter((meter) => meter.limit !== 0 || meter.value > 0)
        .map((meter) => (
          <div
            key={meter.label}
            className={`meter${meter.limit && meter.value >= meter.limit ? ' meter-full' : ''}`}
            title={meter.hint}
          >
            <dt>{meter.label}</dt>
            <dd data-testid={`meter-${meter.label.toLowerCase().replaceAll(' ', '-')}`}>
              {meter.value}
              {meter.limit ? ` / ${meter.limit}` : ''}
            </dd>
          </div>
        ))}
    </dl>
  );
}
