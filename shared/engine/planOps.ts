import type { PlanRecord, PlanStep, RunState } from './runState';

export interface StepDraft {
  id: string;
  title: string;
  rationale?: string;
  acceptance?: string;
  artifacts?: string[];
  complexity?: 'simple' | 'medium' | 'complex' | null;
  depends_on?: string[];
}

export function newStep(draft: StepDraft, depth: number, parentStepId: string | null): PlanStep {
  return {
    id: draft.id,
    title: draft.title,
    rationale: draft.rationale ?? '',
    acceptance: draft.acceptance ?? '',
    artifacts: [...(draft.artifacts ?? [])],
    complexity: draft.complexity ?? null,
    depends_on: [...(draft.depends_on ?? [])],
    status: 'pending',
    attempts: 0,
    depth,
    parent_step_id: parentStepId,
    sub_plan_id: null,
    fail_reason: null,
    commits: [],
  };
}

/** Seed 000: `plan_0001`, `plan_0002`, … in creation order. */
export function nextPlanId(state: RunState): string {
  return `plan_${String(state.plans.length + 1).padStart(4, '0')}`;
}

export type PlanProblem = { code: 'unknown_dependency' | 'cycle' | 'duplicate_id' | 'self_dependency'; detail: string };

/** Dependencies must name steps of the same plan and form no cycle (seed 002). */
export function checkDependencies(steps: readonly StepDraft[]): PlanProblem | null {
  const ids = new Set<string>();
  for (const step of steps) {
    if (ids.has(step.id)) return { code: 'duplicate_id', detail: step.id };
    ids.add(step.id);
  }
  for (const step of steps) {
    for (const dependency of step.depends_on ?? []) {
      if (dependency === step.id) return { code: 'self_dependency', detail: step.id };
      if (!ids.has(dependency)) return { code: 'unknown_dependency', detail: `${step.id} → ${dependency}` };
    }
  }
  const order = topologicalOrder(steps);
  return order === null ? { code: 'cycle', detail: steps.map((step) => step.id).join(', ') } : null;
}

/** Kahn's algorithm, ties broken by plan order so the result is stable. */
export function topologicalOrder(steps: readonly StepDraft[]): string[] | null {
  const remaining = new Map(steps.map((step) => [step.id, new Set(step.depends_on ?? [])]));
  const order: string[] = [];
  while (remaining.size > 0) {
    const ready = steps.find((step) => remaining.has(step.id) && remaining.get(step.id)?.size === 0);
    if (!ready) return null;
    order.push(ready.id);
    remaining.delete(ready.id);
    for (const dependencies of remaining.values()) dependencies.delete(ready.id);
  }
  return order;
}

export function currentPlan(state: RunState): PlanRecord | null {
  const planId = state.plan_stack.at(-1);
  return state.plans.find((plan) => plan.plan_id === planId) ?? null;
}

/** Step ids repeat across replaced plans (each has its T1), so lookups follow the plan stack, innermost first. */
export function findStepInStack(state: RunState, stepId: string | null): { plan: PlanRecord; step: PlanStep } | null {
  if (stepId === null) return null;
  for (const planId of [...state.plan_stack].reverse()) {
    const plan = state.plans.find((candidate) => candidate.plan_id === planId);
    const step = plan?.steps.find((candidate) => candidate.id === stepId);
    if (plan && step) return { plan, step };
  }
  return null;
}

export function currentStep(state: RunState): PlanStep | null {
  return findStepInStack(state, state.current_step_id)?.step ?? null;
}

/** Copy-on-write update of one step of the stack. */
export function updateStep(state: RunState, stepId: string, change: (step: PlanStep) => PlanStep): RunState {
  const found = findStepInStack(state, stepId);
  if (!found) return state;
  return updatePlan(state, found.plan.plan_id, (plan) => ({
    ...plan,
    steps: plan.steps.map((step) => (step.id === stepId ? change(step) : step)),
  }));
}

export function updatePlan(state: RunState, planId: string, change: (plan: PlanRecord) => PlanRecord): RunState {
  return { ...state, plans: state.plans.map((plan) => (plan.plan_id === planId ? change(plan) : plan)) };
}

export type Selection =
  | { kind: 'step'; step: PlanStep }
  /** A pending step whose dependency failed: it cannot run. */
  | { kind: 'unrunnable'; step: PlanStep; dependency: string }
  | { kind: 'plan_done'; plan: PlanRecord };

/** The first pending step, in dependency order, whose dependencies have all completed. */
export function selectNextStep(plan: PlanRecord): Selection {
  const byId = new Map(plan.steps.map((step) => [step.id, step]));
  const order = topologicalOrder(plan.steps) ?? plan.steps.map((step) => step.id);
  for (const id of order) {
    const step = byId.get(id);
    if (!step || step.status !== 'pending') continue;
    const failed = step.depends_on.find((dependency) => byId.get(dependency)?.status === 'failed');
    if (failed !== undefined) return { kind: 'unrunnable', step, dependency: failed };
    if (step.depends_on.every((dependency) => byId.get(dependency)?.status === 'completed'))
      return { kind: 'step', step };
  }
  return { kind: 'plan_done', plan };
}
