import type { ActionOutcome, EngineAction } from '../../../shared/engine/actions';
import type { AgentPurpose } from '../../../shared/engine/agentPurpose';
import { agentOutputOutcome } from '../../../shared/engine/agentOutputs';
import { brokenAnswerKey } from '../../../shared/engine/attemptGuard';
import type { RunState } from '../../../shared/engine/runState';
import type { ErrorCode } from '../../../shared/errors';
import type { AgentSpec } from '../agents/registry';
import type { AgentContext, ContextReport } from '../agents/agentContext';
import { agentSpecFor } from '../agents/registry';
import { runAgent, type AgentRunResult, type RunAgentOptions } from '../agents/runAgent';
import { runScoutQuestion } from '../agents/scoutLoop';
import type { ModelRouter, RejectionRef } from '../llm/types';
import { checkShellCommand } from '../workspace/index';
import { buildCallRecord, captureCall, writeCallRecord, type CallCapture } from './callRecord';
import type { RunSession } from './runSession';
import { recordContext, scoutSandbox } from './scoutContext';

type AgentAction = Extract<EngineAction, { kind: 'agent' }>;

/**
 * The gate a human rejected, when this call is the writer's or Planner's answer to it (its feedback holds
 * the human's words): a `replay:` model answers such a call with the revision it recorded for that gate.
 */
function answeredRejection(state: RunState, purpose: AgentPurpose): RejectionRef | null {
  if (purpose !== 'code' && purpose !== 'plan' && purpose !== 'subplan') return null;
  const human = state.feedback?.parts?.find((part) => part.source === 'human' || part.source === 'human_edit');
  return human?.gate ? { gate: human.gate, step_id: state.current_step_id } : null;
}

/**
 * Logs the context each call is built with, and remembers the last for the call record; a writer's
 * context files are kept for the scope check of its edits.
 */
function watchContext(
  session: RunSession,
  action: AgentAction,
  state: RunState,
  ctx: AgentContext,
  capture: CallCapture,
): { report: ContextReport | null } {
  const seen: { report: ContextReport | null } = { report: null };
  ctx.onInputBuilt = capture.onInput;
  ctx.onContextBuilt = (built) => {
    seen.report = built;
    if (action.purpose === 'code')
      session.writerContextFiles = [
        ...new Set(built.included.filter((entry) => entry.kind !== 'map').map((entry) => entry.path)),
      ];
    session.log({
      role: action.role,
      type: 'agent_context',
      data: { purpose: action.purpose, step_id: state.current_step_id, ...built },
    });
  };
  return seen;
}

function agentOptions(
  session: RunSession,
  action: AgentAction,
  state: RunState,
  spec: AgentSpec,
  router: ModelRouter,
): RunAgentOptions {
  const rejection = answeredRejection(state, action.purpose);
  return {
    router,
    purpose: action.purpose,
    ...(rejection ? { answersRejection: rejection } : {}),
    retries: state.config.limits.agent_retries,
    ...(action.purpose === 'code'
      ? {
          seenAnswer: (raw: string) => {
            const key = brokenAnswerKey(state.head, raw);
            return state.tried_answers.some((entry) => entry.key === key);
          },
        }
      : {}),
    backoffMs: session.retryBackoffMs,
    signal: session.signal,
    timeoutMs: session.timeoutFor(state, undefined),
    onToken: (text: string) => session.transient({ type: 'token', role: spec.modelRole, text }),
    onRetry: (failure: { attempt: number; code: ErrorCode; message: string; raw: string | null }) =>
      session.log({
        role: action.role,
        type: 'agent_retry',
        data: {
          purpose: action.purpose,
          attempt: failure.attempt,
          code: failure.code,
          message: failure.message,
          raw: failure.raw?.slice(0, 2000) ?? null,
        },
      }),
  };
}

/** The call's record (what was sent and answered) beside the run log. */
function recordCall(
  session: RunSession,
  capture: CallCapture,
  facts: { call: number; action: AgentAction; state: RunState; model: string | null; report: ContextReport | null },
  result: AgentRunResult,
): void {
  const { call, action, state, model, report } = facts;
  writeCallRecord(
    session.store.dir,
    buildCallRecord(
      capture,
      {
        call,
        role: action.role,
        purpose: action.purpose,
        step_id: state.current_step_id,
        model,
        feedback: state.feedback,
        report,
        usage: result.usage,
        outcome: result.kind,
        error:
          result.kind === 'failed'
            ? { code: result.code, message: result.message }
            : result.kind === 'declined'
              ? { code: 'DECLINED', message: result.reason }
              : null,
      },
      session.redact,
    ),
  );
}

/** The agent's result as the run's outcome, logged. */
function agentOutcome(
  session: RunSession,
  action: AgentAction,
  state: RunState,
  result: AgentRunResult,
  call: number,
): ActionOutcome {
  const base = { role: action.role, purpose: action.purpose, calls: result.calls, usage: result.usage };
  switch (result.kind) {
    case 'output': {
      session.log({
        role: action.role,
        type: 'agent_output',
        data: { purpose: action.purpose, output: result.output, usage: result.usage, calls: result.calls, call },
      });
      // The one place an answer becomes a typed outcome; the transitions never look at it untyped.
      const typed = agentOutputOutcome(action.purpose, result.output, {
        role: action.role,
        calls: result.calls,
        usage: result.usage,
      });
      return 'invalid' in typed
        ? {
            kind: 'agent_failed',
            ...base,
            code: 'INVALID_OUTPUT',
            message: `the answer did not match its schema: ${typed.invalid}`,
          }
        : typed;
    }
    case 'declined':
      return { kind: 'agent_declined', ...base, reason: result.reason };
    case 'failed':
      if (result.raw)
        session.log({
          role: action.role,
          type: 'agent_raw',
          data: { purpose: action.purpose, raw: result.raw.slice(0, 4000) },
        });
      return {
        kind: 'agent_failed',
        ...base,
        code: result.code,
        message: result.message,
        // A writer's broken answer is weighed like a parsed one: the same text again is a repeat (decision 97).
        ...(result.raw !== null && action.purpose === 'code'
          ? { answer: { key: brokenAnswerKey(state.head, result.raw), times: result.rawTries ?? 1 } }
          : {}),
      };
    default:
      return result satisfies never;
  }
}

/** One agent call: logged, recorded, and its answer turned into a typed outcome. */
export async function callAgent(session: RunSession, action: AgentAction, state: RunState): Promise<ActionOutcome> {
  const spec = agentSpecFor(action.purpose, session.workflow);
  if (!spec)
    return {
      kind: 'agent_failed',
      role: action.role,
      purpose: action.purpose,
      code: 'NO_AGENT',
      message: `no agent for ${action.purpose}`,
      calls: 0,
      usage: { prompt_tokens: 0, completion_tokens: 0 },
    };
  const ctx = await session.agentContext(state);
  const capture = captureCall(session.router);
  const router: ModelRouter = capture.router;
  const call = session.store.nextCall();
  const model = router.specFor(spec.modelRole);
  session.log({
    role: action.role,
    type: 'agent_call',
    data: { purpose: action.purpose, model, step_id: state.current_step_id, call },
  });
  const seen = watchContext(session, action, state, ctx, capture);
  const options = agentOptions(session, action, state, spec, router);
  const result =
    action.purpose === 'scout'
      ? await scoutQuestion(session, state, ctx, options)
      : await runAgent(spec, ctx satisfies AgentContext, options);
  if (session.signal.aborted) return { kind: 'stopped', reason: session.stopReason() };
  recordCall(session, capture, { call, action, state, model, report: seen.report }, result);
  return agentOutcome(session, action, state, result, call);
}

/** Seed 004: one Scout question through its tool loop, recorded as the next context file. */
async function scoutQuestion(
  session: RunSession,
  state: RunState,
  ctx: AgentContext,
  options: RunAgentOptions,
): Promise<AgentRunResult> {
  const question = state.scouting?.brief?.questions[state.scouting.next];
  const allowed = (argv: string[]) => {
    const verdict = checkShellCommand(
      argv,
      state.config.shell_allowlist.map((rule) => rule.trim().split(/\s+/)),
    );
    return verdict.allowed ? { allowed: true as const } : { allowed: false as const, reason: verdict.reason };
  };
  const sandbox = scoutSandbox(session.deps, state, session.artifactRoot, allowed, session.signal);
  const result = await runScoutQuestion(ctx, sandbox, options);
  if (result.kind !== 'answer' || !question)
    return result.kind === 'answer'
      ? {
          kind: 'failed',
          code: 'NO_QUESTION',
          message: 'no scout question',
          raw: null,
          calls: result.calls,
          usage: result.usage,
        }
      : result;
  const contextFile = recordContext(
    session.store,
    state,
    question.scout,
    question.question,
    result.report,
    result.transcript,
  );
  return {
    kind: 'output',
    output: {
      scout: question.scout,
      question: question.question,
      report: result.report,
      context_file: contextFile,
      tool_calls: result.toolCalls,
    },
    calls: result.calls,
    usage: result.usage,
  };
}
