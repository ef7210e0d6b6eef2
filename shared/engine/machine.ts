import type { ErrorCode } from '../errors';
import type { AgentOutputOutcome } from './agentOutputs';
import type { ModelRole } from '../schemas/roles';
import type { ActionOutcome, AgentPurpose, CallUsage, PendingEvent, Transition } from './actions';
import { EXIT_GOAL_NOT_MET, EXIT_INFRA, finishRun, MODEL_UNAVAILABLE_CODES, stopRun } from './finish';
import { replanOrFail, takeUserDecision, takeVerdict } from './gateFlow';
import { acceptPlan } from './planning';
import { currentStep, updateStep } from './planOps';
import type { Workflow } from './workflows';
import type { RunState, TestSummary } from './runState';
import { afterFinalTest, markGateUnreviewed, routeFixPlan, takeFixPlanVerdict, unreviewedFixPlan } from './reviewFlow';
import {
  endExecution,
  evaluate,
  failAttempt,
  failStep,
  outOfAttempts,
  recordWriterFailure,
  selectNext,
} from './stepFlow';
import { fixPlanFeedback } from './testFeedback';
import {
  IDENTICAL_ANSWERS_LIMIT,
  recordAnswer,
  repeatedAnswerFeedback,
  testedHead,
  withUnrelated,
} from './attemptGuard';
import { afterStartTests, phaseAfterPrepare } from './startTests';
import type { TriedAnswer } from './runState';

/** Purposes whose failure costs an attempt or a plan attempt, i.e. would call the same model again. */
const WRITER_OR_PLANNER: ReadonlySet<AgentPurpose> = new Set<AgentPurpose>(['plan', 'subplan', 'code']);

/** Why a session stopped resumably, when the outcome names no detail. */
const STOP_REASONS = {
  aborted: 'interrupted by the user; resumable',
  paused: 'paused by the user after the current step; resumable',
  time_expired: 'the time limit was reached',
} as const;

export { nextAction } from './nextAction';
import { account } from './callAccounting';
import { proposalFiles } from './agentOutputs';
export { proposalFiles };

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

function route(state: RunState, workflow: Workflow, outcome: ActionOutcome, now: string): Transition {
  switch (outcome.kind) {
    case 'internal':
      return internalStep(state, workflow, now);
    case 'prepared': {
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
    case 'verified':
      if (outcome.purpose === 'final')
        return afterFinalTest({ ...state, tested_head: testedHead(state, outcome.test) }, outcome.test);
      if (outcome.purpose === 'preflight' || outcome.purpose === 'baseline')
        return afterStartTests(state, workflow, outcome.test, outcome.purpose);
      return afterVerify({ ...state, tested_head: testedHead(state, outcome.test) }, workflow, outcome.test);
    case 'agent_output':
      return afterAgent(account(state, outcome.role, outcome.calls, outcome.usage, 'idle'), workflow, outcome, now);
    case 'agent_declined':
    case 'agent_failed': {
      const reason = outcome.kind === 'agent_declined' ? outcome.reason : `${outcome.code}: ${outcome.message}`;
      const accounted = account(state, outcome.role, outcome.calls, outcome.usage, 'failed');
      if (
        outcome.kind === 'agent_failed' &&
        MODEL_UNAVAILABLE_CODES.includes(outcome.code) &&
        WRITER_OR_PLANNER.has(outcome.purpose)
      ) {
        // A replan or another attempt would call the same model again: end the run as the infra error it is.
        const failed: PendingEvent = {
          role: outcome.role,
          type: 'agent_failed',
          data: { purpose: outcome.purpose, reason, code: outcome.code, usage: outcome.usage, calls: outcome.calls },
        };
        const finished = finishRun(
          accounted,
          'failed',
          EXIT_INFRA,
          `${reason} (the ${outcome.role}'s model cannot answer; not retried)`,
          outcome.code,
        );
        return { state: finished.state, events: [failed, ...finished.events] };
      }
      return afterAgentFailure(
        accounted,
        workflow,
        outcome.role,
        outcome.purpose,
        reason,
        outcome.kind === 'agent_declined',
        { usage: outcome.usage, calls: outcome.calls },
      );
    }
    case 'applied': {
      const step = currentStep(state);
      const commit = outcome.commit;
      const commits = commit ? [...state.commits, commit] : state.commits;
      const withCommit =
        step && commit
          ? updateStep(state, step.id, (current) => ({ ...current, commits: [...current.commits, commit] }))
          : state;
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
    case 'apply_rejected': {
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
    case 'step_budget_exhausted': {
      // No sub-plan: it would work within the same, spent budget (seed 002: sub-plans draw on their parent's).
      const out = state.current_step_id
        ? failStep({ ...state, gate: null, proposal: null }, workflow, state.current_step_id, outcome.reason)
        : finishRun(state, 'failed', EXIT_GOAL_NOT_MET, outcome.reason);
      return {
        state: out.state,
        events: [
          {
            role: 'engine',
            type: 'budget_exhausted',
            data: { scope: 'step', step_id: state.current_step_id, reason: outcome.reason },
          },
          ...out.events,
        ],
      };
    }
    case 'execution_budget_exhausted':
      return endExecution(state, outcome.reason, now);
    case 'command_rejected': {
      const ended = finishRun(state, 'failed', EXIT_INFRA, `the test command was rejected: ${outcome.reason}`);
      return {
        state: ended.state,
        events: [
          { role: 'engine', type: 'command_rejected', data: { command: outcome.command, reason: outcome.reason } },
          ...ended.events,
        ],
      };
    }
    case 'stopped':
      return stopRun(state, outcome.reason, outcome.detail ?? STOP_REASONS[outcome.reason]);
    default:
      return outcome satisfies never;
  }
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

function afterAgent(state: RunState, workflow: Workflow, outcome: AgentOutputOutcome, now: string): Transition {
  const role = outcome.role;
  switch (outcome.purpose) {
    case 'plan':
    case 'subplan': {
      const plan = outcome.output;
      return 'tasks' in plan
        ? acceptPlan(state, workflow, { kind: 'tasks', plan }, now)
        : acceptPlan(state, workflow, { kind: 'steps', plan }, now);
    }
    case 'code': {
      const files = proposalFiles(outcome.output);
      const patch: PendingEvent = {
        role,
        type: 'patch',
        data: { step_id: state.current_step_id, files, format: state.config.edit_format },
      };
      const answer = recordAnswer(state, outcome.output);
      if (answer.kind === 'repeated') {
        const repeated = refuseRepeatedAnswer(answer.state, workflow, answer.previous, answer.times);
        return { state: repeated.state, events: [patch, ...repeated.events] };
      }
      return {
        state: { ...answer.state, proposal: outcome.output, proposal_files: files, phase: 'applying' },
        events: [patch],
      };
    }
    case 'test_report': {
      const report = outcome.output;
      const passed = state.last_test?.passed ?? false;
      const data = { step_id: state.current_step_id, passed, report: report.report, model_passed: report.passed };
      const next = evaluate(state, workflow, null);
      return { state: next.state, events: [{ role: 'tester', type: 'tester_report', data }, ...next.events] };
    }
    case 'fix_plan': {
      // The Tester names the step `task_id` in its answer (seed 002); the log names it as every event does.
      const { task_id: _answeredFor, ...plan } = outcome.output;
      const fixPlan = fixPlanFeedback(plan, state.last_test);
      const blocking = plan.findings.some((finding) => finding.severity === 'critical' || finding.severity === 'high');
      const withFindings: RunState = { ...state, tester_findings: plan.findings };
      const next = routeFixPlan(withFindings, workflow, state.last_test?.passed && !blocking ? null : fixPlan);
      return {
        state: next.state,
        events: [
          { role: 'tester', type: 'fix_plan', data: { ...plan, step_id: state.current_step_id, blocking } },
          ...next.events,
        ],
      };
    }
    case 'review_fix_plan':
      return takeFixPlanVerdict(state, workflow, outcome.output);
    case 'review_plan':
    case 'review_code':
    case 'review_step':
    case 'review_goal':
      return takeVerdict(state, workflow, outcome.output);
    case 'scout_brief':
      return {
        state: { ...state, scouting: { brief: outcome.output, next: 0 } },
        events: [{ role, type: 'scout_brief', data: { ...outcome.output } }],
      };
    case 'scout': {
      const answer = outcome.output;
      if (!state.scouting)
        return afterAgentFailure(
          state,
          workflow,
          role,
          outcome.purpose,
          'a scout report arrived with no brief to answer',
          false,
        );
      const scouting = { ...state.scouting, next: state.scouting.next + 1 };
      return {
        state: { ...state, scouting, contexts: [...state.contexts, answer.context_file] },
        events: [
          {
            role,
            type: 'scout_report',
            data: {
              scout: answer.scout,
              question: answer.question,
              context_file: answer.context_file,
              tool_calls: answer.tool_calls,
              report: answer.report,
            },
          },
        ],
      };
    }
    default:
      return outcome satisfies never;
  }
}

/**
 * Seed 002's agent error recovery after the retries: reviews and reports fall back (degraded, and
 * logged); a writer's failure costs an attempt; a planner's costs a plan attempt.
 */
function afterAgentFailure(
  state: RunState,
  workflow: Workflow,
  role: ModelRole,
  purpose: AgentPurpose,
  reason: string,
  declined: boolean,
  spent?: { usage: CallUsage; calls: number },
): Transition {
  const event: PendingEvent = {
    role,
    type: declined ? 'agent_declined' : 'agent_failed',
    data: { purpose, reason, ...spent },
  };
  const wrap = (transition: Transition): Transition => ({
    state: transition.state,
    events: [event, ...transition.events],
  });
  switch (purpose) {
    case 'plan':
    case 'subplan': {
      const counted = { ...state, counters: { ...state.counters, plan_attempts: state.counters.plan_attempts + 1 } };
      return wrap(replanOrFail(counted, `The Planner failed: ${reason}`, 'planning failed'));
    }
    case 'code': {
      // Seed 002's Coder may ask for a sub-plan when it meets a blocker: its error answer does that where sub-plans are on.
      const step = currentStep(state);
      if (declined && step && step.depth < state.config.limits.max_subplan_depth) {
        const requested: PendingEvent = {
          role: 'engine',
          type: 'subplan_requested',
          data: { step_id: step.id, depth: step.depth, reason },
        };
        const blocked = outOfAttempts(
          { ...state, gate: null, proposal: null, proposal_files: [] },
          workflow,
          `the Coder asked for a sub-plan: ${reason}`,
        );
        return { state: blocked.state, events: [event, requested, ...blocked.events] };
      }
      const recorded = recordWriterFailure(state, workflow, declined ? 'DECLINED' : 'INVALID_ANSWER', reason);
      return wrap(failAttempt(recorded, workflow, { kind: 'agent_error', text: `Your last answer failed: ${reason}` }));
    }
    case 'test_report':
    case 'fix_plan':
      return wrap(evaluate(state, workflow, null));
    case 'review_fix_plan':
      return wrap(unreviewedFixPlan(state, workflow, reason));
    case 'scout':
    case 'scout_brief':
      // Seed 004 invariants 9 and 10: after its retries a Scout failure is INFRA_ERROR, and the task ends at once.
      return wrap(finishRun(state, 'stuck', EXIT_INFRA, `Scout INFRA_ERROR: ${reason}`));
    default:
      return wrap(markGateUnreviewed(state, reason));
  }
}

/**
 * An answer the writer gave before, on the same base, is not applied again: the writer is told; the
 * third identical answer ends the attempts at the step (a sub-plan where the workflow makes them).
 */
function refuseRepeatedAnswer(state: RunState, workflow: Workflow, previous: TriedAnswer, times: number): Transition {
  const feedback = repeatedAnswerFeedback(previous, times);
  const refused: PendingEvent = {
    role: 'engine',
    type: 'edit_rejected',
    data: {
      code: 'REPEATED_ANSWER' satisfies ErrorCode,
      rule: 'repeated-answer',
      path: null,
      message: feedback.text.slice(0, 500),
    },
  };
  const recorded = recordWriterFailure(state, workflow, 'REPEATED_ANSWER', feedback.text);
  const next =
    times >= IDENTICAL_ANSWERS_LIMIT
      ? outOfAttempts(
          { ...recorded, gate: null, proposal: null, feedback },
          workflow,
          `the writer gave the same answer ${times} times (first in attempt ${previous.attempt}); it failed: ${previous.outcome.slice(0, 200) || 'see above'}`,
        )
      : failAttempt(recorded, workflow, feedback);
  return { state: next.state, events: [refused, ...next.events] };
}
