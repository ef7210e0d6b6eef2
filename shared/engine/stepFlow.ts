import type { Transition } from './actions';
import { backToBest, settleFailedAttempt, stepBase } from './attemptGuard';
import { countVerifyFailure, countVerifyPass } from './counters';
import { EXIT_GOAL_NOT_MET, EXIT_SUCCESS, finishRun } from './finish';
import { openGate } from './openGate';
import { currentPlan, currentStep, selectNextStep, updatePlan, updateStep } from './planOps';
import type { Workflow } from './workflows';
import type { PendingEventOf, RunEventData, RunEventType, PendingEvent } from './runEvents';
import type { Feedback, RunState } from './runState';
import { feedbackFrom } from './testFeedback';

const event = <T extends RunEventType>(type: T, data: RunEventData<T>): PendingEvent =>
  ({ role: 'engine', type, data }) as PendingEventOf<T>;

function withEvents(transition: Transition, ...events: PendingEvent[]): Transition {
  return { state: transition.state, events: [...events, ...transition.events] };
}

/** After the tests (and the Tester, when on): pass the step, run a fix cycle, or fail the verification. */
export function evaluate(state: RunState, workflow: Workflow, fixPlan: Feedback | null): Transition {
  const test = state.last_test;
  if (!test) return failAttempt(state, workflow, { kind: 'test_output', text: 'no test result' });
  if (test.passed) {
    if (fixPlan && state.counters.fix_cycles < state.config.limits.max_fix_cycles) return fixCycle(state, fixPlan);
    return passStep(state, workflow, state.updated_at);
  }
  return failVerification(
    state,
    workflow,
    fixPlan ??
      feedbackFrom(
        test,
        workflow.feedback === 'first_failure' ? 'first_failure' : 'test_output',
        workflow.failure_view,
      ),
  );
}

/**
 * Green. Seed 002's Supervisor then verifies, only now: the code gate (implementation quality, with the
 * test result, coverage and the Tester's findings in hand), then the step gate; then the step is done.
 */
export function passStep(state: RunState, workflow: Workflow, now: string): Transition {
  const counted = { ...state, counters: countVerifyPass(state.counters) };
  if (state.config.gates.code !== 'off' && !state.passed_gates.includes('code')) return openGate(counted, 'code', now);
  if (state.config.gates.step !== 'off' && !state.passed_gates.includes('step')) return openGate(counted, 'step', now);
  return completeStep(counted, workflow);
}

/** A rejected code gate: the step's commits go, and the next attempt re-implements from the step's start. */
export function rollBackStep(state: RunState): Transition {
  const base = state.step_base;
  if (!base || state.commits.length <= base.commit_count) return { state, events: [] };
  const dropped = state.commits.slice(base.commit_count);
  const kept = state.commits.slice(0, base.commit_count);
  const step = currentStep(state);
  const cleaned = step
    ? updateStep(state, step.id, (current) => ({
        ...current,
        commits: current.commits.filter((commit) => !dropped.includes(commit)),
      }))
    : state;
  const rolled: RunState = {
    ...cleaned,
    head: base.commit,
    commits: kept,
    unrelated_hunks: [],
    unrelated_hunk_commits: [],
  };
  // The step's start is the next attempt's base again: nothing after it stands.
  return {
    state: { ...rolled, attempt_base: stepBase(rolled) },
    events: [
      {
        role: 'git',
        type: 'rollback',
        data: {
          step_id: step?.id ?? null,
          to: base.commit,
          dropped,
          reason: 'the code gate rejected the implementation',
        },
      },
    ],
  };
}

export function completeStep(state: RunState, workflow: Workflow): Transition {
  const step = currentStep(state);
  if (!step) return selectNext(state, workflow);
  const done = updateStep(state, step.id, (current) => ({ ...current, status: 'completed' }));
  const next: RunState = {
    ...done,
    gate: null,
    feedback: null,
    proposal: null,
    // Kept: seed 003's attempt_files, the files of the last attempt, for whoever reads state.json.
    passed_gates: [],
    metrics: { ...done.metrics, completed_steps: done.metrics.completed_steps + 1 },
  };
  return withEvents(
    selectNext(next, workflow),
    event('step_completed', { step_id: step.id, title: step.title, commits: step.commits }),
    event('metrics', { ...next.metrics }),
  );
}

/**
 * A verify run failed. Seed 004's counters decide first (hard stop, then REPLAN); otherwise the
 * writer tries again with the feedback while attempts remain.
 */
export function failVerification(unsettled: RunState, workflow: Workflow, failure: Feedback): Transition {
  // The attempt is undone first when it left things worse, so whatever comes next builds on the best state.
  const settled = settleFailedAttempt(unsettled, failure);
  const { state, feedback } = settled;
  const { counters, decision } = countVerifyFailure(state.counters, state.config.limits);
  const counted = { ...state, counters };
  const countersEvent = event('counters', {
    consecutive_verify_failures: counters.consecutive_verify_failures,
    total_verify_loops: counters.total_verify_loops,
    replans: counters.replans,
    decision,
  });
  if (decision === 'hard_stop') {
    const reason = `hard stop: ${counters.total_verify_loops} verify loops without green`;
    const best = backToBest(counted, `${reason}: the branch keeps the step's best state, not its last attempt`);
    return withEvents(
      finishRun(best.state, 'stuck', EXIT_GOAL_NOT_MET, reason),
      ...settled.events,
      countersEvent,
      ...best.events,
    );
  }
  if (decision === 'replan') {
    const replanned: RunState = {
      ...counted,
      // Seed 004: a REPLAN may re-query the Scouts, since failures suggest stale analysis.
      phase: workflow.scouts ? 'scouting' : 'planning',
      scouting: null,
      feedback,
      proposal: null,
      proposal_files: [],
      metrics: { ...counted.metrics, replan_count: counted.metrics.replan_count + 1 },
    };
    return {
      state: replanned,
      events: [
        ...settled.events,
        countersEvent,
        event('replan', { replan: counters.replans, reason: feedback.text.slice(0, 500) }),
      ],
    };
  }
  if (counted.counters.fix_cycles < state.config.limits.max_fix_cycles) {
    return withEvents(fixCycle(counted, feedback), ...settled.events, countersEvent);
  }
  return withEvents(failAttempt(counted, workflow, feedback), ...settled.events, countersEvent);
}

/** Seed 002: the Tester's fix plan goes back to the Coder within the same attempt. */
export function fixCycle(state: RunState, feedback: Feedback): Transition {
  const cycle = state.counters.fix_cycles + 1;
  return {
    state: {
      ...state,
      phase: 'coding',
      feedback,
      gate: null,
      proposal: null,
      proposal_files: [],
      passed_gates: [],
      step_time: state.step_time ? { ...state.step_time, fix_cycle_spent_ms: 0 } : null,
      counters: { ...state.counters, fix_cycles: cycle },
      metrics: { ...state.metrics, fix_cycles: state.metrics.fix_cycles + 1 },
    },
    events: [event('fix_cycle', { step_id: state.current_step_id, cycle, max: state.config.limits.max_fix_cycles })],
  };
}

/** A new attempt at a step: attempts count here, not per writer call, so fix cycles do not use them up. */
export function startAttempt(state: RunState, stepId: string): RunState {
  const started = updateStep(state, stepId, (step) => ({
    ...step,
    status: 'in_progress',
    attempts: step.attempts + 1,
  }));
  return {
    ...started,
    phase: 'coding',
    current_step_id: stepId,
    passed_gates: [],
    tester_findings: [],
    counters: { ...started.counters, fix_cycles: 0 },
  };
}

/** One attempt at the current step failed: try again, or the step has run out of attempts. */
export function failAttempt(state: RunState, workflow: Workflow, feedback: Feedback): Transition {
  const step = currentStep(state);
  if (!step) return finishRun(state, 'failed', EXIT_GOAL_NOT_MET, 'no current step to retry');
  // `proposal_files` stays: seed 003's attempt_files name the last attempt's files until the next one writes.
  const cleared: RunState = { ...state, gate: null, proposal: null, feedback };
  if (step.attempts < state.config.limits.max_attempts_per_task) {
    return {
      state: startAttempt(cleared, step.id),
      events: [event('retry', { step_id: step.id, attempt: step.attempts + 1, feedback: feedback.kind })],
    };
  }
  const reason = `${step.id} failed after ${step.attempts} attempt(s): ${feedback.text.slice(0, 300)}`;
  const best = backToBest(
    cleared,
    `${step.id} ran out of attempts: the branch keeps the step's best state, not its last attempt`,
  );
  return withEvents(outOfAttempts(best.state, workflow, reason), ...best.events);
}

/** Seed 002: a blocked step gets a sub-plan while depth allows; otherwise it fails and the workflow decides. */
export function outOfAttempts(state: RunState, workflow: Workflow, reason: string): Transition {
  const step = currentStep(state);
  if (!step) return finishRun(state, 'failed', EXIT_GOAL_NOT_MET, reason);
  if (step.depth < state.config.limits.max_subplan_depth) {
    const blocked = updateStep(state, step.id, (current) => ({ ...current, status: 'blocked', fail_reason: reason }));
    return {
      state: { ...blocked, phase: 'planning' },
      events: [event('step_blocked', { step_id: step.id, depth: step.depth, reason })],
    };
  }
  return failStep(state, workflow, step.id, reason);
}

export function failStep(state: RunState, workflow: Workflow, stepId: string, reason: string): Transition {
  const failed = updateStep(state, stepId, (current) => ({ ...current, status: 'failed', fail_reason: reason }));
  const next: RunState = { ...failed, metrics: { ...failed.metrics, failed_steps: failed.metrics.failed_steps + 1 } };
  const failedEvent = event('step_failed', { step_id: stepId, reason });
  const metricsEvent = event('metrics', { ...next.metrics });
  // Seed 004: a task that cannot be finished ends `stuck`, with a stuck report, however it ran out.
  if (workflow.on_task_failure === 'halt')
    return withEvents(
      finishRun(next, workflow.stuck_report ? 'stuck' : 'failed', EXIT_GOAL_NOT_MET, reason),
      failedEvent,
      metricsEvent,
    );
  const limit = state.config.limits.max_failed_steps;
  if (limit > 0 && next.metrics.failed_steps >= limit) {
    return withEvents(
      finishRun(
        next,
        'failed',
        EXIT_GOAL_NOT_MET,
        `${next.metrics.failed_steps} steps failed: too many failures, escalated (last: ${reason})`,
      ),
      failedEvent,
      metricsEvent,
    );
  }
  return withEvents(selectNext({ ...next, feedback: null, gate: null }, workflow), failedEvent, metricsEvent);
}

/** Picks the next runnable step; closes finished sub-plans and, at the top, the goal. */
export function selectNext(state: RunState, workflow: Workflow, now = state.updated_at): Transition {
  const plan = currentPlan(state);
  if (!plan) return finishRun(state, 'failed', EXIT_GOAL_NOT_MET, 'no plan to execute');
  const selection = selectNextStep(plan);
  if (selection.kind === 'step') {
    const planStarted = updatePlan(state, plan.plan_id, (record) => ({ ...record, status: 'in_progress' }));
    const based: RunState = {
      ...planStarted,
      step_base: state.head ? { commit: state.head, commit_count: state.commits.length } : null,
      attempt_base: stepBase(planStarted),
      tried_answers: [],
      unrelated_hunks: [],
      unrelated_hunk_commits: [],
      // Seed 002: a sub-plan works within its blocked step's budget, so its steps carry on the time spent.
      step_time: {
        step_id: selection.step.id,
        spent_ms: selection.step.depth > 0 ? (state.step_time?.spent_ms ?? 0) : 0,
        fix_cycle_spent_ms: 0,
      },
    };
    return {
      state: startAttempt(based, selection.step.id),
      events: [
        event('step_started', {
          step_id: selection.step.id,
          title: selection.step.title,
          plan_id: plan.plan_id,
          depth: plan.depth,
        }),
      ],
    };
  }
  if (selection.kind === 'unrunnable') {
    return failStep(
      { ...state, current_step_id: selection.step.id },
      { ...workflow, on_task_failure: 'continue' },
      selection.step.id,
      `dependency ${selection.dependency} failed`,
    );
  }
  const allCompleted = plan.steps.every((step) => step.status === 'completed');
  const closed = updatePlan(state, plan.plan_id, (record) => ({
    ...record,
    status: allCompleted ? 'completed' : 'failed',
  }));
  if (plan.depth > 0 && plan.parent_step_id !== null) {
    const popped: RunState = {
      ...closed,
      plan_stack: closed.plan_stack.slice(0, -1),
      current_step_id: plan.parent_step_id,
    };
    const events = [
      event('subplan_finished', {
        plan_id: plan.plan_id,
        parent_step_id: plan.parent_step_id,
        completed: allCompleted,
      }),
    ];
    if (allCompleted) return withEvents(completeStep(popped, workflow), ...events);
    // Seed 002: a failed sub-plan marks its step failed and the run continues.
    return withEvents(
      failStep(
        popped,
        { ...workflow, on_task_failure: 'continue' },
        plan.parent_step_id,
        `sub-plan ${plan.plan_id} failed`,
      ),
      ...events,
    );
  }
  if (state.config.gates.goal !== 'off') return openGate(closed, 'goal', now);
  if (allCompleted) return finishRun(closed, 'complete', EXIT_SUCCESS, 'every step completed and verified');
  const failed = plan.steps.filter((step) => step.status === 'failed').map((step) => step.id);
  return finishRun(closed, 'failed', EXIT_GOAL_NOT_MET, `steps failed: ${failed.join(', ')}`);
}

/**
 * Seed 002: execution used its share of the time limit (80% of T, a cap). Every unfinished step fails
 * with the reason, and the goal gate (with its own verification budget) judges what was done.
 */
export function endExecution(state: RunState, reason: string, now: string): Transition {
  const topId = state.plan_stack[0];
  if (!topId) return finishRun(state, 'failed', EXIT_GOAL_NOT_MET, reason);
  const stack = new Set(state.plan_stack);
  const unfinished = state.plans
    .filter((plan) => stack.has(plan.plan_id))
    .flatMap((plan) =>
      plan.steps.filter((step) => step.status !== 'completed' && step.status !== 'failed').map((step) => step.id),
    );
  const plans = state.plans.map((plan) =>
    stack.has(plan.plan_id)
      ? {
          ...plan,
          status: 'failed' as const,
          steps: plan.steps.map((step) =>
            step.status === 'completed' || step.status === 'failed'
              ? step
              : { ...step, status: 'failed' as const, fail_reason: reason },
          ),
        }
      : plan,
  );
  const ended: RunState = {
    ...state,
    plans,
    plan_stack: [topId],
    current_step_id: null,
    gate: null,
    proposal: null,
    proposal_files: [],
    feedback: null,
    passed_gates: [],
    metrics: { ...state.metrics, failed_steps: state.metrics.failed_steps + unfinished.length },
  };
  const exhausted = event('budget_exhausted', {
    scope: 'execution',
    step_id: state.current_step_id,
    reason,
    failed_steps: unfinished,
  });
  if (state.config.gates.goal !== 'off') return withEvents(openGate(ended, 'goal', now), exhausted);
  return withEvents(finishRun(ended, 'failed', EXIT_GOAL_NOT_MET, reason), exhausted);
}

/** Seed 004's stuck report lists the writer's failed answers too, not only failed verifications. */
export function recordWriterFailure(state: RunState, workflow: Workflow, status: string, reason: string): RunState {
  if (!workflow.stuck_report) return state;
  const entry = {
    step_id: state.current_step_id,
    status,
    first_failure: null,
    report: reason.slice(0, 1500),
    artifact_dir: '',
  };
  return { ...state, failure_history: [...state.failure_history, entry].slice(-5) };
}
