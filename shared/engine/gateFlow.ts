import type { Transition } from './actions';
import type { PendingEvent } from './runEvents';
import { executionExhausted } from './budget';
import { countVerdict, ESCALATION_MESSAGES } from './counters';
import { EXIT_GOAL_NOT_MET, EXIT_SUCCESS, finishRun } from './finish';
import { gateWaitsForUser } from '../schemas/gates';
import { currentPlan, currentStep, updatePlan, updateStep } from './planOps';
import type { Workflow } from './workflows';
import type { FeedbackPart, PendingGate, RunState, Verdict } from './runState';
import { rollBackTo } from './attemptGuard';
import { completeStep, failAttempt, passStep, rollBackStep } from './stepFlow';
import type { UserEditRecord } from './userEdit';

/**
 * The Supervisor's verdict on the open gate. It passes when approved and at or over the gate's
 * threshold; with escalation on, consecutive low scores step up to ABORT (seed 002).
 */
export function takeVerdict(state: RunState, workflow: Workflow, verdict: Verdict): Transition {
  const gate = state.gate;
  if (!gate) return { state, events: [] };
  // Seed 002's goal gate also needs "Final integration tests pass": its final full test run decides that.
  const finalTestsFailed = gate.kind === 'goal' && state.last_test !== null && !state.last_test.passed;
  const passes = verdict.approved && verdict.score >= gate.threshold && !finalTestsFailed;
  const normalized: Verdict = { ...verdict, approved: passes };
  const escalation = workflow.escalation ? countVerdict(state.counters, verdict.score) : null;
  // Seed 002: the escalation message goes into the next prompt of the agent concerned.
  const note: RunState['escalation_note'] =
    escalation && escalation.level !== 'NONE'
      ? {
          level: escalation.level,
          message: `${ESCALATION_MESSAGES[escalation.level]} (Supervisor, ${gate.kind} gate, score ${verdict.score}: ${verdict.feedback})`,
          role: gate.kind === 'plan' || gate.kind === 'goal' ? 'planner' : 'writer',
        }
      : null;
  const counted: RunState = escalation ? { ...state, counters: escalation.counters, escalation_note: note } : state;
  const withVerdict: RunState = {
    ...counted,
    gate: { ...gate, verdict: normalized, escalation: escalation?.level ?? null },
  };
  const events: PendingEvent[] = [
    {
      role: 'supervisor',
      type: 'verdict',
      data: {
        gate_id: gate.gate_id,
        gate: gate.kind,
        step_id: gate.step_id,
        approved: passes,
        score: verdict.score,
        threshold: gate.threshold,
        issues: verdict.issues,
        feedback: verdict.feedback,
        ...(finalTestsFailed ? { final_tests_failed: true } : {}),
        escalation: escalation?.level ?? null,
        consecutive_issues: escalation?.counters.consecutive_low_scores ?? null,
      },
    },
  ];
  if (escalation?.level === 'ABORT') {
    const ended = finishRun(
      withVerdict,
      'aborted',
      EXIT_GOAL_NOT_MET,
      `Supervisor escalation ABORT after ${escalation.counters.consecutive_low_scores} consecutive issues`,
    );
    return { state: ended.state, events: [...events, ...ended.events] };
  }
  if (gateWaitsForUser(state.config.gates[gate.kind])) {
    return { state: { ...withVerdict, status: 'waiting_for_gate' }, events };
  }
  const critique = critiqueFrom([
    {
      source: 'supervisor',
      gate: gate.kind,
      text: critiqueOf(normalized, escalation?.level ?? null, finalTestsFailed),
    },
  ]);
  const decided = decideGate(withVerdict, workflow, passes, critique, 'supervisor');
  return { state: decided.state, events: [...events, ...decided.events] };
}

/**
 * The user's decision on a pending gate: a comment is fed back as critique, together with the
 * Supervisor's verdict — or instead of it, when the user edited that feedback.
 */
export function takeUserDecision(
  state: RunState,
  workflow: Workflow,
  approved: boolean,
  comment: string | null,
  editedFeedback: string | null = null,
  edit: UserEditRecord | null = null,
): Transition {
  const gate = state.gate;
  if (!gate) return { state, events: [] };
  if (approved && edit && (gate.kind === 'code' || gate.kind === 'step'))
    return approveWithEdit(state, gate, comment, edit);
  const supervisorText = editedFeedback ?? (gate.verdict ? critiqueOf(gate.verdict, gate.escalation) : '');
  // Each part keeps its origin: the writer's recorded input says which words were the human's.
  const parts: FeedbackPart[] = [
    ...(comment ? [{ source: 'human' as const, gate: gate.kind, text: `User: ${comment}` }] : []),
    ...(supervisorText
      ? [
          {
            source: editedFeedback !== null ? ('human_edit' as const) : ('supervisor' as const),
            gate: gate.kind,
            text: supervisorText,
          },
        ]
      : []),
  ];
  const decided = decideGate({ ...state, status: 'running' }, workflow, approved, critiqueFrom(parts), 'user');
  return {
    state: decided.state,
    events: [
      {
        role: 'user',
        type: 'gate_decided',
        data: { gate_id: gate.gate_id, gate: gate.kind, approved, comment, edited_feedback: editedFeedback },
      },
      ...decided.events,
    ],
  };
}

/**
 * The person approved the gate with their own edit, already committed: the gate counts as passed, but
 * the new content is not yet tested, so the run verifies it like any step. Green goes on past this gate
 * (the person approved this very content); red takes the normal fix path, which clears the passed gates,
 * so the fixed change is reviewed again — an edit is never approved untested.
 */
function approveWithEdit(state: RunState, gate: PendingGate, comment: string | null, edit: UserEditRecord): Transition {
  const step = currentStep(state);
  const withCommit = step
    ? updateStep(state, step.id, (current) => ({ ...current, commits: [...current.commits, edit.commit] }))
    : state;
  const next: RunState = {
    ...withCommit,
    status: 'running',
    gate: null,
    phase: 'verifying',
    commits: [...state.commits, edit.commit],
    head: edit.head,
    passed_gates: [...state.passed_gates, gate.kind],
    // A person changing an existing test is their explicit approval of it; the gate's own changed tests too.
    approved_test_files: [...new Set([...state.approved_test_files, ...gate.test_files, ...edit.test_files])],
  };
  const ref = { gate_id: gate.gate_id, gate: gate.kind };
  return {
    state: next,
    events: [
      { role: 'user', type: 'gate_decided', data: { ...ref, approved: true, comment, edited_feedback: null } },
      {
        role: 'user',
        type: 'user_edit',
        data: { ...ref, step_id: gate.step_id, commit: edit.commit, files: edit.files, test_files: edit.test_files },
      },
      {
        role: 'git',
        type: 'commit',
        data: { sha: edit.commit, step_id: step?.id ?? null, files: edit.files.map((file) => file.path) },
      },
      { role: 'user', type: 'gate_closed', data: { ...ref, approved: true, by: 'user' } },
    ],
  };
}

function critiqueOf(verdict: Verdict, escalation: string | null, finalTestsFailed = false): string {
  const lines = [
    `Supervisor score ${verdict.score}: ${verdict.feedback}`,
    ...verdict.issues.map((issue) => `- ${issue}`),
    ...(finalTestsFailed ? ['- The final full test run failed.'] : []),
  ];
  const message = escalation ? ESCALATION_MESSAGES[escalation as keyof typeof ESCALATION_MESSAGES] : '';
  return [message, ...lines].filter(Boolean).join('\n');
}

/** A critique as the writer reads it (`text`) and as it was written, part by part. */
interface Critique {
  text: string;
  parts: FeedbackPart[];
}

const critiqueFrom = (parts: FeedbackPart[]): Critique => ({ text: parts.map((part) => part.text).join('\n'), parts });

type Decider = 'supervisor' | 'user';

/**
 * Seed 001 refines a rejected step on top of it; but a change carrying what must never ship
 * (unrelated hunks, by Lathe's scope check or the reviewer's verdict; changed tests) is undone, so the
 * next attempt starts from the best state before it.
 */
function rejectStep(
  closed: RunState,
  workflow: Workflow,
  gate: NonNullable<RunState['gate']>,
  critique: Critique,
  by: Decider,
): Transition {
  const base = closed.attempt_base;
  // A hunk only the reviewer found unrelated counts as Lathe's own: a writer refining on top could not put
  // back lines it is no longer shown as they were.
  const mustGo = gate.test_files.length > 0 || gate.unrelated.length > 0 || (gate.verdict?.unrelated.length ?? 0) > 0;
  const rolledBack =
    base && mustGo
      ? rollBackTo(closed, base, `the ${by === 'user' ? 'user' : 'Supervisor'} rejected it at the step gate`)
      : { state: closed, events: [] };
  const undone: FeedbackPart[] =
    rolledBack.events.length > 0
      ? [
          {
            source: 'engine',
            gate: 'step',
            text: '(Your change was undone: the files are back as they were before it.)',
          },
        ]
      : [];
  const retried = failAttempt(rolledBack.state, workflow, {
    kind: 'critique',
    ...critiqueFrom([...critique.parts, ...undone]),
  });
  return { state: retried.state, events: [...rolledBack.events, ...retried.events] };
}

function decideGoal(closed: RunState, approved: boolean, critique: Critique, by: Decider): Transition {
  // Credit whoever decided: in a human (or both) goal gate that is the user, not the Supervisor.
  if (approved)
    return finishRun(
      closed,
      'complete',
      EXIT_SUCCESS,
      by === 'user'
        ? 'the user confirmed the goal is met at the goal gate'
        : 'the Supervisor confirmed the goal is met',
    );
  // A new plan could not run: execution has used its share of the time limit.
  if (executionExhausted(closed))
    return finishRun(
      closed,
      'failed',
      EXIT_GOAL_NOT_MET,
      'goal not confirmed, and no execution time is left for a new plan',
    );
  return replanOrFail(closed, critique.text, 'goal not confirmed', critique.parts);
}

function decideGate(
  state: RunState,
  workflow: Workflow,
  approved: boolean,
  critique: Critique,
  by: Decider,
): Transition {
  const gate = state.gate;
  if (!gate) return { state, events: [] };
  // Passing a gate that showed changes to existing tests is the explicit approval they need.
  const approvedTests =
    approved && gate.test_files.length > 0
      ? [...new Set([...state.approved_test_files, ...gate.test_files])]
      : state.approved_test_files;
  const closed: RunState = { ...state, gate: null, approved_test_files: approvedTests };
  const decision: PendingEvent = {
    role: by === 'user' ? 'user' : 'supervisor',
    type: 'gate_closed',
    data: { gate_id: gate.gate_id, gate: gate.kind, approved, by },
  };
  const tail = (transition: Transition): Transition => ({
    state: transition.state,
    events: [decision, ...transition.events],
  });
  switch (gate.kind) {
    case 'plan': {
      if (approved) return tail({ state: { ...closed, phase: 'selecting', feedback: null }, events: [] });
      const plan = currentPlan(closed);
      const marked = plan ? updatePlan(closed, plan.plan_id, (record) => ({ ...record, status: 'failed' })) : closed;
      const rejected = { ...marked, plan_stack: marked.plan_stack.filter((planId) => planId !== plan?.plan_id) };
      return tail(replanOrFail(rejected, critique.text, 'plan rejected', critique.parts));
    }
    case 'code': {
      if (approved)
        return tail(passStep({ ...closed, passed_gates: [...closed.passed_gates, 'code'] }, workflow, gate.opened_at));
      // Rejected implementation: back to the step's start, and the Coder implements it again.
      const rolledBack = rollBackStep(closed);
      const retried = failAttempt(rolledBack.state, workflow, { kind: 'critique', ...critique });
      return tail({ state: retried.state, events: [...rolledBack.events, ...retried.events] });
    }
    case 'step':
      if (approved) return tail(completeStep({ ...closed, passed_gates: [...closed.passed_gates, 'step'] }, workflow));
      return tail(rejectStep(closed, workflow, gate, critique, by));
    case 'goal':
      return tail(decideGoal(closed, approved, critique, by));
    default:
      return gate.kind satisfies never;
  }
}

/**
 * A rejected plan or goal goes back to the Planner while plan attempts remain; the run that ends here
 * names the last cause (the critique's first line) so its headline says why, not only that.
 */
export function replanOrFail(state: RunState, critique: string, what: string, parts?: FeedbackPart[]): Transition {
  if (state.counters.plan_attempts >= state.config.limits.max_plan_attempts) {
    const escalations = new Set<string>(Object.values(ESCALATION_MESSAGES));
    const cause = critique
      .split('\n')
      .find((line) => line.trim() !== '' && !escalations.has(line))
      ?.trim()
      .slice(0, 300);
    return finishRun(
      state,
      'failed',
      EXIT_GOAL_NOT_MET,
      `${what} after ${state.counters.plan_attempts} plan(s)${cause ? `: ${cause}` : ''}`,
    );
  }
  const step = currentStep(state);
  const keepStack = step?.status === 'blocked';
  return {
    state: {
      ...state,
      phase: 'planning',
      feedback: { kind: 'critique', text: critique, ...(parts ? { parts } : {}) },
      plan_stack: keepStack ? state.plan_stack : [],
      current_step_id: keepStack ? state.current_step_id : null,
    },
    events: [{ role: 'engine', type: 'replan_requested', data: { reason: what } }],
  };
}
