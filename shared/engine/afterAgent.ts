import type { ErrorCode } from '../errors';
import type { ModelRole } from '../schemas/roles';
import type { Transition } from './actions';
import { writerFormat } from './editFormatFallback';
import type { AgentPurpose } from './agentPurpose';
import type { CallUsage } from './callUsage';
import type { PendingEvent } from './runEvents';
import { proposalFiles, type AgentOutputOutcome } from './agentOutputs';
import {
  backToBest,
  IDENTICAL_ANSWERS_LIMIT,
  recordAnswer,
  recordAnswerKey,
  repeatedAnswerFeedback,
} from './attemptGuard';
import { EXIT_INFRA, finishRun } from './finish';
import { replanOrFail, takeVerdict } from './gateFlow';
import { acceptPlan } from './planning';
import { currentStep } from './planOps';
import { markGateUnreviewed, routeFixPlan, takeFixPlanVerdict, unreviewedFixPlan } from './reviewFlow';
import type { Feedback, RunState, TriedAnswer } from './runState';
import { evaluate, failAttempt, outOfAttempts, recordWriterFailure } from './stepFlow';
import { fixPlanFeedback } from './testFeedback';
import type { Workflow } from './workflows';

type AnswerOf<P extends AgentPurpose> = Extract<AgentOutputOutcome, { purpose: P }>;

/** The writer's answer goes to be applied, unless it repeats one it gave before on the same base. */
function afterCode(state: RunState, workflow: Workflow, outcome: AnswerOf<'code'>): Transition {
  const files = proposalFiles(outcome.output);
  const patch: PendingEvent = {
    role: outcome.role,
    type: 'patch',
    data: { step_id: state.current_step_id, files, format: writerFormat(state) },
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

function afterTestReport(state: RunState, workflow: Workflow, outcome: AnswerOf<'test_report'>): Transition {
  const report = outcome.output;
  const passed = state.last_test?.passed ?? false;
  const data = { step_id: state.current_step_id, passed, report: report.report, model_passed: report.passed };
  const next = evaluate(state, workflow, null);
  return { state: next.state, events: [{ role: 'tester', type: 'tester_report', data }, ...next.events] };
}

function afterFixPlan(state: RunState, workflow: Workflow, outcome: AnswerOf<'fix_plan'>): Transition {
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

function afterScoutReport(state: RunState, workflow: Workflow, outcome: AnswerOf<'scout'>): Transition {
  const { role, output: answer } = outcome;
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

/** What an agent's answer does to the run, by the purpose it was asked for. */
export function afterAgent(state: RunState, workflow: Workflow, outcome: AgentOutputOutcome, now: string): Transition {
  switch (outcome.purpose) {
    case 'plan':
    case 'subplan': {
      const plan = outcome.output;
      return 'tasks' in plan
        ? acceptPlan(state, workflow, { kind: 'tasks', plan }, now)
        : acceptPlan(state, workflow, { kind: 'steps', plan }, now);
    }
    case 'code':
      return afterCode(state, workflow, outcome);
    case 'test_report':
      return afterTestReport(state, workflow, outcome);
    case 'fix_plan':
      return afterFixPlan(state, workflow, outcome);
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
        events: [{ role: outcome.role, type: 'scout_brief', data: { ...outcome.output } }],
      };
    case 'scout':
      return afterScoutReport(state, workflow, outcome);
    default:
      return outcome satisfies never;
  }
}

/**
 * Seed 002's agent error recovery after the retries: reviews and reports fall back (degraded, and
 * logged); a writer's failure costs an attempt; a planner's costs a plan attempt.
 */
export function afterAgentFailure(
  state: RunState,
  workflow: Workflow,
  role: ModelRole,
  purpose: AgentPurpose,
  reason: string,
  declined: boolean,
  spent?: { usage: CallUsage; calls: number },
  broken?: { key: string; times: number },
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
      if (broken && !declined) return wrap(afterBrokenAnswer(state, workflow, reason, broken));
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
 * A writer's answer that could not be read (cut off, malformed) costs an attempt; given again
 * byte for byte it is a repeated answer like any other, and the third ends the attempts.
 */
function afterBrokenAnswer(
  state: RunState,
  workflow: Workflow,
  reason: string,
  broken: { key: string; times: number },
): Transition {
  const answer = recordAnswerKey(state, broken.key, broken.times);
  const text = `Your last answer failed: ${reason}`;
  if (answer.kind === 'new') {
    const recorded = recordWriterFailure(answer.state, workflow, 'INVALID_ANSWER', reason);
    return failAttempt(recorded, workflow, { kind: 'agent_error', text });
  }
  const { times, previous } = answer;
  if (times < IDENTICAL_ANSWERS_LIMIT) {
    const feedback: Feedback = {
      kind: 'repeated_answer',
      text: `${text}\nThat is the same answer, byte for byte, ${times} times now: giving it once more ends the attempts at this task. Write a different, shorter answer.`,
    };
    return failAttempt(
      recordWriterFailure(answer.state, workflow, 'REPEATED_ANSWER', feedback.text),
      workflow,
      feedback,
    );
  }
  const recorded = recordWriterFailure(answer.state, workflow, 'REPEATED_ANSWER', text);
  return endByRepetition(recorded, workflow, { kind: 'agent_error', text }, times, previous.attempt, reason);
}

/** The third identical answer ends the step as running out of attempts does: the branch goes back to its best state. */
function endByRepetition(
  state: RunState,
  workflow: Workflow,
  feedback: Feedback,
  times: number,
  firstAttempt: number,
  failure: string,
): Transition {
  const best = backToBest(
    { ...state, gate: null, proposal: null, feedback },
    `the writer repeated its answer: the branch keeps the step's best state, not its last attempt`,
  );
  const ended = outOfAttempts(
    best.state,
    workflow,
    `the writer gave the same answer ${times} times (first in attempt ${firstAttempt}); it failed: ${failure.slice(0, 200) || 'see above'}`,
  );
  return { state: ended.state, events: [...best.events, ...ended.events] };
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
  if (times < IDENTICAL_ANSWERS_LIMIT) {
    const next = failAttempt(recorded, workflow, feedback);
    return { state: next.state, events: [refused, ...next.events] };
  }
  const ended = endByRepetition(recorded, workflow, feedback, times, previous.attempt, previous.outcome);
  return { state: ended.state, events: [refused, ...ended.events] };
}
