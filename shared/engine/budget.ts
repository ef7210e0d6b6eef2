import type { Phase, RunState } from './runState';

const MINUTE = 60_000;

/** Seed 002's time allocation for a total budget T. */
export interface TimeBudget {
  total_ms: number;
  /** min(10% of T, 15 minutes) */
  planning_ms: number;
  /** 80% of T */
  execution_ms: number;
  /** min(10% of T, 10 minutes) */
  verification_ms: number;
  /** execution / number of steps */
  per_step_ms: number;
  /** 30% of the per-step budget */
  fix_cycle_ms: number;
}

export function budgetFor(totalMs: number, steps: number): TimeBudget {
  const execution = 0.8 * totalMs;
  const perStep = execution / Math.max(1, steps);
  return {
    total_ms: totalMs,
    planning_ms: Math.min(0.1 * totalMs, 15 * MINUTE),
    execution_ms: execution,
    verification_ms: Math.min(0.1 * totalMs, 10 * MINUTE),
    per_step_ms: perStep,
    fix_cycle_ms: 0.3 * perStep,
  };
}

export type PhaseGroup = 'planning' | 'execution' | 'verification';

export function phaseGroup(phase: Phase): PhaseGroup | null {
  switch (phase) {
    case 'preparing':
    case 'preflight':
    case 'scouting':
    case 'planning':
    case 'plan_review':
      return 'planning';
    case 'selecting':
    case 'coding':
    case 'applying':
    case 'verifying':
    case 'testing':
    case 'code_review':
    case 'step_review':
      return 'execution';
    case 'goal_review':
      return 'verification';
    case 'finished':
      return null;
    default:
      return phase satisfies never;
  }
}

/** Steps of the plan being executed (sub-plans share their parent step's budget). */
function stepsInPlan(state: RunState): number {
  const top = state.plans.find((plan) => plan.plan_id === state.plan_stack[0]);
  return top?.steps.length ?? 1;
}

export function budgetOf(state: RunState): TimeBudget | null {
  return state.config.time_limit_ms === null ? null : budgetFor(state.config.time_limit_ms, stepsInPlan(state));
}

/** Adds an effect's duration to its phase group and to the current step (and fix cycle). */
export function accountTime(state: RunState, phase: Phase, ms: number): RunState {
  const group = phaseGroup(phase);
  const spent = group ? { ...state.time_spent, [group]: state.time_spent[group] + ms } : state.time_spent;
  const step =
    group === 'execution' && state.step_time && state.step_time.step_id === state.current_step_id
      ? {
          ...state.step_time,
          spent_ms: state.step_time.spent_ms + ms,
          fix_cycle_spent_ms: state.counters.fix_cycles > 0 ? state.step_time.fix_cycle_spent_ms + ms : 0,
        }
      : state.step_time;
  return { ...state, time_spent: spent, step_time: step };
}

export type BudgetVerdict =
  | { kind: 'ok' }
  /** The whole run's time is up: graceful shutdown, status time_expired (resumable). */
  | { kind: 'total'; reason: string }
  /** Planning used its share with no plan to execute: stop (resumable with more time). */
  | { kind: 'planning'; reason: string }
  /** The current step (with any sub-plan of it) used its share: it fails. */
  | { kind: 'step'; reason: string }
  /** Execution used its share (80% of T): no step starts; the goal gate judges what was done. */
  | { kind: 'execution'; reason: string };

/** Seed 002: the execution phase's 80% of T is a cap, however many steps and sub-plans there are. */
export function executionExhausted(state: RunState): boolean {
  const budget = budgetOf(state);
  return budget !== null && state.time_spent.execution >= budget.execution_ms;
}

/**
 * Seed 002's checks "before each phase transition and before each step execution". Verification-phase
 * overruns are not stopped here: the goal gate's own calls are cut to that budget by their timeouts.
 */
export function checkBudget(state: RunState, elapsedMs: number): BudgetVerdict {
  const budget = budgetOf(state);
  if (!budget) return { kind: 'ok' };
  if (elapsedMs >= budget.total_ms)
    return { kind: 'total', reason: `the time limit (${Math.round(budget.total_ms / 1000)} s) was reached` };
  const group = phaseGroup(state.phase);
  if (group === 'planning' && state.plan_stack.length === 0 && state.time_spent.planning >= budget.planning_ms) {
    return {
      kind: 'planning',
      reason: `planning used its budget (${Math.round(budget.planning_ms / 1000)} s) without a plan`,
    };
  }
  if ((state.phase === 'selecting' || state.phase === 'coding') && state.time_spent.execution >= budget.execution_ms) {
    return {
      kind: 'execution',
      reason: `execution used its budget (${Math.round(budget.execution_ms / 1000)} s, 80% of the time limit)`,
    };
  }
  if (
    state.phase === 'coding' &&
    state.step_time &&
    state.step_time.step_id === state.current_step_id &&
    state.step_time.spent_ms >= budget.per_step_ms
  ) {
    return {
      kind: 'step',
      reason: `step ${state.current_step_id} used its time budget (${Math.round(budget.per_step_ms / 1000)} s)`,
    };
  }
  return { kind: 'ok' };
}

/** The most an effect of this phase may take: the tightest of its own limit and the budgets left. */
export function effectTimeoutMs(
  state: RunState,
  elapsedMs: number,
  ownLimitMs: number | undefined,
): number | undefined {
  const budget = budgetOf(state);
  if (!budget) return ownLimitMs;
  const limits = [ownLimitMs, budget.total_ms - elapsedMs];
  const group = phaseGroup(state.phase);
  if (group === 'planning') limits.push(budget.planning_ms - state.time_spent.planning);
  if (group === 'verification') limits.push(budget.verification_ms - state.time_spent.verification);
  if (group === 'execution' && state.step_time) {
    limits.push(budget.per_step_ms - state.step_time.spent_ms);
    if (state.counters.fix_cycles > 0) limits.push(budget.fix_cycle_ms - state.step_time.fix_cycle_spent_ms);
  }
  const defined = limits.filter((limit): limit is number => limit !== undefined);
  return Math.max(1, Math.floor(Math.min(...defined)));
}
