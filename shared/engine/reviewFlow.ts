import type { Transition } from './actions';
import type { PendingEvent } from './runEvents';
import { countVerdict, countVerifyFailure, ESCALATION_MESSAGES } from './counters';
import { EXIT_GOAL_NOT_MET, finishRun } from './finish';
import { gateUsesSupervisor } from '../schemas/gates';
import { currentStep } from './planOps';
import type { Workflow } from './workflows';
import type { Feedback, RunState, TestSummary, Verdict } from './runState';
import { evaluate } from './stepFlow';
import { testRunText } from './testFeedback';

/** Seed 002 "ALL outputs from ALL agents are verified": the Tester's fix plan too, where the Supervisor reviews code. */
export function reviewsFixPlans(state: RunState, workflow: Workflow): boolean {
  return workflow.tester === 'fix_plan' && gateUsesSupervisor(state.config.gates.code);
}

/** Whether a fix plan would reach the Coder now: a fix cycle, or another attempt with it as feedback. */
function fixPlanReachesCoder(state: RunState): boolean {
  const test = state.last_test;
  const limits = state.config.limits;
  if (!test) return false;
  if (!test.passed && countVerifyFailure(state.counters, limits).decision !== 'retry') return false;
  if (state.counters.fix_cycles < limits.max_fix_cycles) return true;
  const step = currentStep(state);
  return !test.passed && step !== null && step.attempts < limits.max_attempts_per_task;
}

/** The fix plan waits for the Supervisor (phase `testing`) when it would reach the Coder, or goes on at once. */
export function routeFixPlan(
  state: RunState,
  workflow: Workflow,
  fixPlan: (Feedback & { plan: string }) | null,
): Transition {
  if (fixPlan && reviewsFixPlans(state, workflow) && fixPlanReachesCoder(state))
    return { state: { ...state, fix_review: { text: fixPlan.text, plan: fixPlan.plan } }, events: [] };
  return evaluate(state, workflow, fixPlan && { kind: fixPlan.kind, text: fixPlan.text });
}

/**
 * The Supervisor's verdict on a fix plan, at the code gate's threshold. Approved: the plan goes to the
 * Coder with the Supervisor's remark. Rejected: the Coder gets the critique and the test output instead
 * of the plan — or, when the tests passed and only the Tester's findings asked for a fix, the step
 * goes on to its gates. The verdict counts toward escalation like any other.
 */
export function takeFixPlanVerdict(state: RunState, workflow: Workflow, verdict: Verdict): Transition {
  const review = state.fix_review;
  if (!review) return evaluate(state, workflow, null);
  const threshold = state.config.thresholds.code;
  const passes = verdict.approved && verdict.score >= threshold;
  const escalation = workflow.escalation ? countVerdict(state.counters, verdict.score) : null;
  const note: RunState['escalation_note'] =
    escalation && escalation.level !== 'NONE'
      ? {
          level: escalation.level,
          message: `${ESCALATION_MESSAGES[escalation.level]} (Supervisor, fix plan, score ${verdict.score}: ${verdict.feedback})`,
          role: 'tester',
        }
      : null;
  const cleared: RunState = {
    ...state,
    fix_review: null,
    ...(escalation ? { counters: escalation.counters, escalation_note: note } : {}),
  };
  const event: PendingEvent = {
    role: 'supervisor',
    type: 'fix_plan_verdict',
    data: {
      step_id: state.current_step_id,
      approved: passes,
      score: verdict.score,
      threshold,
      issues: verdict.issues,
      feedback: verdict.feedback,
      escalation: escalation?.level ?? null,
    },
  };
  if (escalation?.level === 'ABORT') {
    const ended = finishRun(
      cleared,
      'aborted',
      EXIT_GOAL_NOT_MET,
      `Supervisor escalation ABORT after ${escalation.counters.consecutive_low_scores} consecutive issues`,
    );
    return { state: ended.state, events: [event, ...ended.events] };
  }
  const test = state.last_test;
  const issues = verdict.issues.map((issue) => `- ${issue}`);
  const next = passes
    ? evaluate(cleared, workflow, {
        kind: 'fix_plan',
        text: `${review.plan}\nSupervisor (fix plan approved, score ${verdict.score}): ${verdict.feedback}${review.text.slice(review.plan.length)}`,
      })
    : test?.passed
      ? evaluate({ ...cleared, tester_findings: [] }, workflow, null)
      : evaluate(cleared, workflow, {
          kind: 'critique',
          text: [
            `The Supervisor rejected the Tester's fix plan (score ${verdict.score}/${threshold}): ${verdict.feedback}`,
            ...issues,
            test ? `\nTest output:\n${testRunText(test, 'excerpt')}` : '',
          ].join('\n'),
        });
  return { state: next.state, events: [event, ...next.events] };
}

/** The Supervisor failed every retry on a fix plan: it reaches the Coder marked as unreviewed (degraded, logged). */
export function unreviewedFixPlan(state: RunState, workflow: Workflow, reason: string): Transition {
  const text = state.fix_review
    ? `${state.fix_review.text}\n\n(Not reviewed: the Supervisor could not be reached: ${reason})`
    : null;
  return evaluate({ ...state, fix_review: null }, workflow, text ? { kind: 'fix_plan', text } : null);
}

/**
 * A gate whose Supervisor failed every retry never passes by itself: it waits for a person, with the
 * reason (a run nobody can answer stops there, resumable).
 */
export function markGateUnreviewed(state: RunState, reason: string): Transition {
  const gate = state.gate;
  if (!gate) return { state, events: [] };
  return {
    state: { ...state, gate: { ...gate, unreviewed: reason } },
    events: [
      {
        role: 'engine',
        type: 'gate_unreviewed',
        data: { gate_id: gate.gate_id, gate: gate.kind, step_id: gate.step_id, reason },
      },
    ],
  };
}

/** Seed 002's goal gate: "Final integration tests pass" is checked by a full test run first. */
export function afterFinalTest(state: RunState, test: TestSummary): Transition {
  const gate = state.gate;
  const metrics = test.passed
    ? { ...state.metrics, verifications_passed: state.metrics.verifications_passed + 1 }
    : { ...state.metrics, verifications_failed: state.metrics.verifications_failed + 1 };
  const next: RunState = {
    ...state,
    last_test: test,
    metrics,
    gate: gate ? { ...gate, needs_final_test: false } : null,
  };
  return {
    state: next,
    events: [{ role: 'verifier', type: 'test_result', data: { purpose: 'final', step_id: null, ...test } }],
  };
}
