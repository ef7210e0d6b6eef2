import { stepIdOf, type RunEvent, type RunEventOf } from '../engine/readRunEvent';
import type { PlanStatus, RunView, StepSpend, StepStatus, StepView } from './types';

/** Plan and step events; `view` is a draft whose containers were copied by the caller. */

export function applyPlan(view: RunView, event: RunEventOf<'plan'>): void {
  const planId = event.data.plan_id;
  if (!planId) return;
  const depth = event.data.depth ?? 0;
  const parentStepId = event.data.parent_step_id ?? null;
  const parentStepKey = parentStepId ? (view.stepKeyById[parentStepId] ?? null) : null;
  const stepKeys: string[] = [];
  for (const task of event.data.tasks ?? []) {
    const { id } = task;
    if (!id) continue;
    const key = `${planId}/${id}`;
    stepKeys.push(key);
    view.steps[key] = {
      key,
      id,
      planId,
      title: task.title,
      rationale: task.rationale,
      acceptance: task.acceptance,
      artifacts: task.artifacts,
      complexity: task.complexity,
      dependsOn: task.depends_on,
      status: 'pending',
      attempts: 0,
      commits: [],
      failReason: null,
      subPlanIds: [],
      spend: NO_SPEND,
    };
    view.stepKeyById[id] = key;
  }
  if (depth === 0) {
    // A new top-level plan replaces any earlier one still standing.
    for (const earlier of view.rootPlanIds) {
      const plan = view.plans[earlier];
      if (plan && !isClosed(plan.status)) view.plans[earlier] = { ...plan, status: 'failed' };
    }
    view.rootPlanIds = [...view.rootPlanIds, planId];
    view.counters = { ...view.counters, planAttempts: view.counters.planAttempts + 1 };
  } else if (parentStepKey) {
    updateStep(view, parentStepKey, (step) => ({ ...step, subPlanIds: [...step.subPlanIds, planId] }));
  }
  view.plans[planId] = {
    planId,
    depth,
    parentStepKey,
    analysis: event.data.analysis ?? '',
    stepKeys,
    status: 'proposed',
    seq: event.seq,
  };
}

function isClosed(status: PlanStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'rejected';
}

export function setPlanStatus(view: RunView, planId: string | null, status: PlanStatus): void {
  const plan = planId ? view.plans[planId] : undefined;
  if (plan && plan.status !== status) view.plans[plan.planId] = { ...plan, status };
}

/** The newest top-level plan: the one a plan gate reviews. */
export function currentRootPlanId(view: RunView): string | null {
  return view.rootPlanIds.at(-1) ?? null;
}

export function updateStep(view: RunView, key: string | undefined, change: (step: StepView) => StepView): void {
  const step = key ? view.steps[key] : undefined;
  if (step) view.steps[step.key] = change(step);
}

function stepKeyOf(view: RunView, event: RunEvent): string | undefined {
  const stepId = stepIdOf(event);
  return stepId ? view.stepKeyById[stepId] : undefined;
}

export const NO_SPEND: StepSpend = {
  calls: 0,
  promptTokens: 0,
  cachedTokens: 0,
  generatedTokens: 0,
  estimated: false,
  callMs: 0,
  startedTs: null,
  endedTs: null,
};

function ended(step: StepView, ts: string): StepSpend {
  return { ...step.spend, endedTs: ts };
}

function setStatus(status: StepStatus, failReason: string | null = null) {
  return (step: StepView): StepView => ({ ...step, status, failReason: failReason ?? step.failReason });
}

export function applyStepEvent(view: RunView, event: RunEvent): void {
  const key = stepKeyOf(view, event);
  switch (event.type) {
    case 'step_started': {
      const planId = event.data.plan_id ?? null;
      const startedKey = planId && event.data.step_id ? `${planId}/${event.data.step_id}` : key;
      updateStep(view, startedKey, (step) => ({
        ...step,
        status: 'in_progress',
        attempts: step.attempts + 1,
        spend: { ...step.spend, startedTs: step.spend.startedTs ?? event.ts, endedTs: null },
      }));
      setPlanStatus(view, planId, 'in_progress');
      view.currentStepId = event.data.step_id ?? null;
      view.counters = { ...view.counters, fixCycle: 0 };
      return;
    }
    case 'retry': {
      const { attempt } = event.data;
      updateStep(view, key, (step) => ({ ...step, status: 'in_progress', attempts: attempt ?? step.attempts + 1 }));
      view.counters = { ...view.counters, retries: view.counters.retries + 1, fixCycle: 0 };
      return;
    }
    case 'step_completed': {
      const commits = event.data.commits ?? [];
      updateStep(view, key, (step) => ({
        ...step,
        status: 'completed',
        commits: commits.length > 0 ? commits : step.commits,
        spend: ended(step, event.ts),
      }));
      return;
    }
    case 'step_failed':
      updateStep(view, key, (step) => ({
        ...setStatus('failed', event.data.reason ?? null)(step),
        spend: ended(step, event.ts),
      }));
      return;
    case 'step_blocked':
      updateStep(view, key, (step) => ({
        ...setStatus('blocked', event.data.reason ?? null)(step),
        spend: ended(step, event.ts),
      }));
      return;
    case 'subplan_finished': {
      const completed = event.data.completed === true;
      setPlanStatus(view, event.data.plan_id ?? null, completed ? 'completed' : 'failed');
      return;
    }
    case 'commit': {
      const { sha } = event.data;
      if (!sha) return;
      view.commits = [
        ...view.commits,
        { seq: event.seq, sha, taskId: event.data.step_id ?? null, files: event.data.files ?? [] },
      ];
      updateStep(view, key, (step) => ({ ...step, commits: [...step.commits, sha] }));
      return;
    }
    case 'rollback': {
      const dropped = event.data.dropped ?? [];
      view.rolledBack = [...view.rolledBack, ...dropped];
      updateStep(view, key, (step) => ({ ...step, commits: step.commits.filter((sha) => !dropped.includes(sha)) }));
      return;
    }
    default:
  }
}

/**
 * A run that ended leaves no step in progress, as state.json records it (shared/engine finish): a failed,
 * stuck or aborted run's step failed with the run's reason; a run stopped to resume shows it `stopped`
 * until the resume, which takes it up again.
 */
export function settleSteps(
  view: RunView,
  how: { ended: 'finished'; complete: boolean; reason: string } | { ended: 'stopped' } | { ended: 'resumed' },
): void {
  for (const [key, step] of Object.entries(view.steps)) {
    if (how.ended === 'resumed') {
      if (step.status === 'stopped') view.steps[key] = { ...step, status: 'in_progress' };
      continue;
    }
    if (step.status !== 'in_progress' && step.status !== 'stopped') continue;
    if (how.ended === 'stopped') view.steps[key] = { ...step, status: 'stopped' };
    // As the engine's finish: a complete run completed its steps with their own events.
    else if (!how.complete) view.steps[key] = { ...step, status: 'failed', failReason: step.failReason ?? how.reason };
  }
}

/** Closes the plan a finished run leaves open. */
export function closePlans(view: RunView, complete: boolean): void {
  for (const planId of view.rootPlanIds) {
    const plan = view.plans[planId];
    if (plan && !isClosed(plan.status)) view.plans[planId] = { ...plan, status: complete ? 'completed' : 'failed' };
  }
}
