import { useEffect, useState } from 'react';
import { budgetOf } from '../../../../shared/engine/budget';
import type { RunState } from '../../../../shared/engine/runState';
import { formatDuration } from '../../lib/format';
import type { RunView } from '../../runView/types';
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

/**
 * The counters from the saved state, or from the log when it has moved past that state (a live run
 * between two state reads).
 */
export function currentCounters(view: RunView, state: RunState) {
  const stateStep = state.plans.flatMap((plan) => plan.steps).find((candidate) => candidate.id === state.current_step_id);
  if (view.lastSeq <= state.log_seq) {
    return {
      attempts: stateStep?.attempts ?? 0,
      fixCycles: state.counters.fix_cycles,
      plans: state.counters.plan_attempts,
      replans: state.counters.replans,
      verifyLoops: state.counters.total_verify_loops,
      failuresInARow: state.counters.consecutive_verify_failures,
      failedSteps: state.metrics.failed_steps,
    };
  }
  const step = view.currentStepId ? view.steps[view.stepKeyById[view.currentStepId] ?? ''] : undefined;
  return {
    attempts: step?.attempts ?? stateStep?.attempts ?? 0,
    fixCycles: view.counters.fixCycle,
    plans: Math.max(view.counters.planAttempts, state.counters.plan_attempts),
    replans: Math.max(view.counters.replans, state.counters.replans),
    verifyLoops: view.counters.totalVerifyLoops,
    failuresInARow: view.counters.consecutiveVerifyFailures,
    failedSteps: Object.values(view.steps).filter((candidate) => candidate.status === 'failed').length,
  };
}

/** Steps done and step test runs green or red, from the log when it has moved past the saved state, as the counters are. */
export function currentTotals(view: RunView, state: RunState): { completedSteps: number; testsGreen: number; testsRed: number } {
  const saved = { completedSteps: state.metrics.completed_steps, testsGreen: state.metrics.verifications_passed, testsRed: state.metrics.verifications_failed };
  if (view.lastSeq <= state.log_seq) return saved;
  // The preflight run is not a verification; every step run is, and anything but PASS counts red.
  const stepRuns = view.tests.filter((test) => test.purpose === 'step');
  const green = stepRuns.filter((test) => test.status === 'PASS').length;
  return {
    completedSteps: Math.max(saved.completedSteps, Object.values(view.steps).filter((step) => step.status === 'completed').length),
    testsGreen: Math.max(saved.testsGreen, green),
    testsRed: Math.max(saved.testsRed, stepRuns.length - green),
  };
}

/** Time budget and every counter against its limit, always in view. */
export function BudgetPanel() {
  const view = useRunViewStore((state) => state.view);
  const state = useRunViewStore((state) => state.state);
  const active = useRunViewStore((state) => state.active);
  const readAt = useRunViewStore((state) => state.stateReadAt);
  const running = active && view.status === 'running';
  const now = useNow(running);
  if (!state) return null;

  const limits = state.config.limits;
  const elapsed = state.elapsed_ms + (running ? Math.max(0, now - readAt) : 0);
  const budget = budgetOf(state);
  const counters = currentCounters(view, state);
  const totals = currentTotals(view, state);
  const meters: Meter[] = [
    { label: 'Attempts', value: counters.attempts, limit: limits.max_attempts_per_task, hint: `coding attempts at ${view.currentStepId ?? state.current_step_id ?? 'the current step'}` },
    { label: 'Fix cycles', value: counters.fixCycles, limit: limits.max_fix_cycles, hint: 'Tester → Coder fix cycles in this attempt' },
    { label: 'Plans', value: counters.plans, limit: limits.max_plan_attempts, hint: 'plans made (re-plans after rejections)' },
    { label: 'Replans', value: counters.replans, limit: limits.replan_after_failures > 0 ? null : 0, hint: 'REPLANs after repeated verify failures' },
    { label: 'Verify loops', value: counters.verifyLoops, limit: limits.hard_stop_verify_loops, hint: 'verify loops without green (hard stop)' },
    { label: 'Failures in a row', value: counters.failuresInARow, limit: limits.replan_after_failures, hint: 'consecutive verify failures before a REPLAN' },
    { label: 'Failed steps', value: counters.failedSteps, limit: limits.max_failed_steps, hint: 'failed steps before the run ends' },
  ];
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
          planning {formatDuration(state.time_spent.planning)}/{formatDuration(budget.planning_ms)} · execution {formatDuration(state.time_spent.execution)}/
          {formatDuration(budget.execution_ms)} · per step {formatDuration(budget.per_step_ms)}
        </p>
      )}
      <dl className="meters">
        {meters
          .filter((meter) => meter.limit !== 0 || meter.value > 0)
          .map((meter) => (
            <div key={meter.label} className={`meter${meter.limit && meter.value >= meter.limit ? ' meter-full' : ''}`} title={meter.hint}>
              <dt>{meter.label}</dt>
              <dd data-testid={`meter-${meter.label.toLowerCase().replaceAll(' ', '-')}`}>
                {meter.value}
                {meter.limit ? ` / ${meter.limit}` : ''}
              </dd>
            </div>
          ))}
      </dl>
      <p className="muted small">
        Steps {totals.completedSteps}/{state.metrics.total_steps} done · tests {totals.testsGreen} green, {totals.testsRed} red
        {view.warnings > 0 ? ` · ${view.warnings} warning${view.warnings === 1 ? '' : 's'}` : ''}
      </p>
    </section>
  );
}
