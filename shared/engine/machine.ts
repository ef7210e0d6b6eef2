import type { ActionOutcome, Transition } from './actions';
import type { AgentPurpose } from './agentPurpose';
import type { PendingEvent } from './runEvents';
import { afterAgent, afterAgentFailure } from './afterAgent';
import { EXIT_GOAL_NOT_MET, EXIT_INFRA, finishRun, MODEL_UNAVAILABLE_CODES, stopRun } from './finish';
import { takeUserDecision } from './gateFlow';
import { acceptPlan } from './planning';
import { currentStep, updateStep } from './planOps';
import type { Workflow } from './workflows';
import type { RunState, TestSummary } from './runState';
import { afterFinalTest } from './reviewFlow';
import { endExecution, evaluate, failAttempt, failStep, recordWriterFailure, selectNext } from './stepFlow';
import { rememberAppliedAnswer, testedHead, withUnrelated } from './attemptGuard';
import { afterStartTests, phaseAfterPrepare } from './startTests';

/** Purposes whose failure costs an attempt or a plan attempt, i.e. would call the same model again. */
const WRITER_OR_PLANNER: ReadonlySet<AgentPurpose> = new Set<AgentPurpose>(['plan', 'subplan', 'code']);

/** Why a session stopped resumably, when the outcome names no detail. */
const STOP_REASONS = {
  aborted: 'interrupted by the user; resumable',
  paused: 'paused by the user after the current step; resumable',
  time_expired: 'the time limit was reached',
} as const;

import { account } from './callAccounting';
import { fallBackFromWholeFile } from './editFormatFallback';

/** The state after an action's outcome, and the log events that record why. Pure. */
export function applyOutcome(state: RunState, workflow: Workflow, outcome: ActionOutcome, now: string): Transition {
  const stamped: RunState = { ...state, updated_at: now };
  const transition = route(stamped, workflow, outcome, now);
  const phaseEvents: PendingEvent[] =
    transition.state.phase !== state.phase
      ? [
          {
            role: 'engine',
            type: 'phase',
            data: { from: state.phase, to: transition.state.phase, step_id: transition.state.current_step_id },
          },
        ]
      : [];
  return { state: transition.state, events: [...phaseEvents, ...transition.events] };
}

type OutcomeOf<K extends ActionOutcome['kind']> = Extract<ActionOutcome, { kind: K }>;

function route(state: RunState, workflow: Workflow, outcome: ActionOutcome, now: string): Transition {
  switch (outcome.kind) {
    case 'internal':
      return internalStep(state, workflow, now);
    case 'prepared':
      return afterPrepared(state, workflow, outcome);
    case 'verified':
      if (outcome.purpose === 'final')
        return afterFinalTest({ ...state, tested_head: testedHead(state, outcome.test) }, outcome.test);
      if (outcome.purpose === 'preflight' || outcome.purpose === 'baseline')
        return afterStartTests(state, workflow, outcome.test, outcome.purpose);
      return afterVerify({ ...state, tested_head: testedHead(state, outcome.test) }, workflow, outcome.test);
    case 'agent_output':
      return afterAgent(account(state, outcome.role, outcome.calls, outcome.usage, 'idle'), workflow, outcome, now);
    case 'agent_declined':
    case 'agent_failed':
      return afterAgentError(state, workflow, outcome);
    case 'applied':
      return afterApplied(state, outcome);
    case 'apply_rejected':
      return afterApplyRejected(state, workflow, outcome);
    case 'user_decision':
      if (state.gate?.gate_id !== outcome.gate_id) return { state, events: [] };
      return takeUserDecision(
        state,
        workflow,
        outcome.approved,
        outcome.comment,
        outcome.feedback ?? null,
        outcome.edit ?? null,
      );
    case 'fatal':
      return finishRun(state, 'failed', EXIT_INFRA, `${outcome.code}: ${outcome.message}`, outcome.code);
    case 'cancelled':
      return finishRun({ ...state, gate: null }, 'aborted', EXIT_GOAL_NOT_MET, 'stopped for good by the user');
    case 'step_budget_exhausted':
      return afterStepBudget(state, workflow, outcome.reason);
    case 'execution_budget_exhausted':
      return endExecution(state, outcome.reason, now);
    case 'command_rejected':
      return afterCommandRejected(state, outcome);
    case 'stopped':
      return stopRun(state, outcome.reason, outcome.detail ?? STOP_REASONS[outcome.reason]);
    default:
      return outcome satisfies never;
  }
}

function afterPrepared(state: RunState, workflow: Workflow, outcome: OutcomeOf<'prepared'>): Transition {
  const next: RunState = {
    ...state,
    workspace: outcome.workspace,
    branch: outcome.workspace.branch,
    head: outcome.head,
    test_command: outcome.test_command,
    test_command_source: outcome.test_command_source ?? null,
    setup_note: outcome.setup_note ?? null,
    phase: phaseAfterPrepare(workflow, outcome.test_command),
  };
  const data = {
    branch: outcome.workspace.branch,
    base: outcome.workspace.baseCommit,
    work_dir: outcome.workspace.workDir,
    mode: outcome.workspace.mode,
    test_command: outcome.test_command,
    test_command_source: outcome.test_command_source ?? null,
  };
  return { state: next, events: [{ role: 'git', type: 'workspace_ready', data }] };
}

function afterAgentError(
  state: RunState,
  workflow: Workflow,
  outcome: OutcomeOf<'agent_declined' | 'agent_failed'>,
): Transition {
  const reason = outcome.kind === 'agent_declined' ? outcome.reason : `${outcome.code}: ${outcome.message}`;
  const accounted = account(state, outcome.role, outcome.calls, outcome.usage, 'failed');
  const ended = outcome.kind === 'agent_failed' ? afterUnavailableModel(accounted, outcome, reason) : null;
  if (ended) return ended;
  return afterAgentFailure(
    accounted,
    workflow,
    outcome.role,
    outcome.purpose,
    reason,
    outcome.kind === 'agent_declined',
    { usage: outcome.usage, calls: outcome.calls },
    outcome.kind === 'agent_failed' ? outcome.answer : undefined,
  );
}

/**
 * A writer or planner whose model cannot answer: a whole-file writer whose files did not fit switches to
 * search-replace (decision 105); any other such failure ends the run, since another attempt or plan
 * would call the same model again. Null for a failure another attempt may cure.
 */
function afterUnavailableModel(state: RunState, outcome: OutcomeOf<'agent_failed'>, reason: string): Transition | null {
  if (!MODEL_UNAVAILABLE_CODES.includes(outcome.code) || !WRITER_OR_PLANNER.has(outcome.purpose)) return null;
  const failed: PendingEvent = {
    role: outcome.role,
    type: 'agent_failed',
    data: { purpose: outcome.purpose, reason, code: outcome.code, usage: outcome.usage, calls: outcome.calls },
  };
  // The call that did not fit stays on record as failed (the log and the call list say why), then the switch.
  const fallback = fallBackFromWholeFile(state, outcome);
  if (fallback) return { state: fallback.state, events: [failed, ...fallback.events] };
  const finished = finishRun(
    state,
    'failed',
    EXIT_INFRA,
    `${reason} (the ${outcome.role}'s model cannot answer; not retried)`,
    outcome.code,
  );
  return { state: finished.state, events: [failed, ...finished.events] };
}

function afterApplied(state: RunState, outcome: OutcomeOf<'applied'>): Transition {
  const step = currentStep(state);
  const commit = outcome.commit;
  const commits = commit ? [...state.commits, commit] : state.commits;
  const remembered = rememberAppliedAnswer(state, outcome.head);
  const withCommit =
    step && commit
      ? updateStep(remembered, step.id, (current) => ({ ...current, commits: [...current.commits, commit] }))
      : remembered;
  return {
    state: {
      ...withCommit,
      commits,
      head: outcome.head,
      phase: 'verifying',
      proposal: null,
      ...withUnrelated(state, outcome.unrelated ?? [], outcome.head),
    },
    events: [
      {
        role: 'git',
        type: 'commit',
        data: { sha: outcome.commit, step_id: step?.id ?? null, files: outcome.files },
      },
    ],
  };
}

function afterApplyRejected(state: RunState, workflow: Workflow, outcome: OutcomeOf<'apply_rejected'>): Transition {
  const text = `Your edits were rejected (${outcome.rule ?? outcome.code}${outcome.path ? ` on ${outcome.path}` : ''}): ${outcome.message}`;
  const rejected: PendingEvent = {
    role: 'engine',
    type: 'edit_rejected',
    data: { code: outcome.code, rule: outcome.rule, path: outcome.path, message: outcome.message },
  };
  const next = failAttempt(recordWriterFailure(state, workflow, 'EDIT_REJECTED', text), workflow, {
    kind: 'edit_rejected',
    text,
  });
  return { state: next.state, events: [rejected, ...next.events] };
}

function afterStepBudget(state: RunState, workflow: Workflow, reason: string): Transition {
  // No sub-plan: it would work within the same, spent budget (seed 002: sub-plans draw on their parent's).
  const out = state.current_step_id
    ? failStep({ ...state, gate: null, proposal: null }, workflow, state.current_step_id, reason)
    : finishRun(state, 'failed', EXIT_GOAL_NOT_MET, reason);
  return {
    state: out.state,
    events: [
      {
        role: 'engine',
        type: 'budget_exhausted',
        data: { scope: 'step', step_id: state.current_step_id, reason },
      },
      ...out.events,
    ],
  };
}

function afterCommandRejected(state: RunState, outcome: OutcomeOf<'command_rejected'>): Transition {
  const ended = finishRun(state, 'failed', EXIT_INFRA, `the test command was rejected: ${outcome.reason}`);
  return {
    state: ended.state,
    events: [
      { role: 'engine', type: 'command_rejected', data: { command: outcome.command, reason: outcome.reason } },
      ...ended.events,
    ],
  };
}

function internalStep(state: RunState, workflow: Workflow, now: string): Transition {
  if (state.phase === 'scouting') return { state: { ...state, phase: 'planning' }, events: [] };
  if (state.phase === 'planning') return acceptPlan(state, workflow, { kind: 'single_task' }, now);
  if (state.phase === 'selecting') return selectNext(state, workflow, now);
  return { state, events: [] };
}

function afterVerify(state: RunState, workflow: Workflow, test: TestSummary): Transition {
  const metrics = test.passed
    ? { ...state.metrics, verifications_passed: state.metrics.verifications_passed + 1 }
    : { ...state.metrics, verifications_failed: state.metrics.verifications_failed + 1 };
  const history = test.passed
    ? state.failure_history
    : [
        ...state.failure_history,
        {
          step_id: state.current_step_id,
          status: test.status,
          first_failure: test.first_failure ? `${test.first_failure.test_id}: ${test.first_failure.message}` : null,
          report: test.excerpt || test.report.slice(0, 1500),
          artifact_dir: test.artifact_dir,
        },
      ].slice(-5);
  const recorded: RunState = { ...state, last_test: test, metrics, failure_history: history };
  const event: PendingEvent = {
    role: 'verifier',
    type: 'test_result',
    data: { purpose: 'step', step_id: state.current_step_id, ...test },
  };
  if (test.status === 'INFRA_ERROR') {
    // Seed 004 invariant 10: an infrastructure failure ends the task at once.
    const status = workflow.stuck_report ? 'stuck' : 'failed';
    const ended = finishRun(
      recorded,
      status,
      EXIT_INFRA,
      `the Verifier could not run the tests: ${test.reason ?? 'unknown reason'}`,
    );
    return { state: ended.state, events: [event, ...ended.events] };
  }
  if (workflow.tester !== 'none') return { state: { ...recorded, phase: 'testing' }, events: [event] };
  const next = evaluate(recorded, workflow, null);
  return { state: next.state, events: [event, ...next.events] };
}
