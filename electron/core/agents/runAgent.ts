import { setTimeout as sleep } from 'node:timers/promises';
import type { AgentPurpose } from '../../../shared/engine/agentPurpose';
import type { ErrorCode } from '../../../shared/errors';
import { isAgentError } from '../../../shared/schemas/agents/agentError';
import type { GenerateRequest, GenerateResult, ModelRouter, RejectionRef } from '../llm/types';
import { cutOffMessage, grownAnswerBudget, SHORTER_ANSWER, smallerChangeAdvice, type AnswerRoom } from './answerRoom';
import { prepareMessages, roleWindow, type BuiltMessages } from './buildMessages';
import type { AgentSpec } from './registry';
import type { AgentContext } from './agentContext';

export interface AgentUsage {
  prompt_tokens: number;
  completion_tokens: number;
  /** Of the prompt tokens, those served from a reused KV-cache prefix, summed over calls. */
  cached_tokens?: number;
  /** Some call's counts were estimates (oracle, replay). */
  estimated?: boolean;
  /** Time from each call's first token to its last, summed (local models): the decode rate's denominator. */
  decode_ms?: number;
  /** Prompt-lookup decoding: looked-up tokens the model confirmed and refuted, summed over calls. */
  lookup_validated?: number;
  lookup_refuted?: number;
  /** Tokens the grammar forced and the decode loop picked instead of sampling (decision 76), summed. */
  steered_tokens?: number;
}

export type AgentRunResult =
  | { kind: 'output'; output: unknown; calls: number; usage: AgentUsage }
  | { kind: 'declined'; reason: string; calls: number; usage: AgentUsage }
  | {
      kind: 'failed';
      code: ErrorCode;
      message: string;
      raw: string | null;
      /** How many of the call's tries gave `raw`, byte for byte. */
      rawTries?: number;
      calls: number;
      usage: AgentUsage;
    };

export interface RunAgentOptions {
  router: ModelRouter;
  /** What the call is for; passed to the model layer with the request (see GenerateRequest.purpose). */
  purpose?: AgentPurpose;
  /** The gate whose human rejection this call answers (see GenerateRequest.answersRejection). */
  answersRejection?: RejectionRef;
  retries: number;
  /** First retry delay; doubles each time (seed 002: retry with backoff, up to 3 times). */
  backoffMs: number;
  signal?: AbortSignal;
  timeoutMs?: number;
  onToken?: (text: string) => void;
  /** Whether this step already had this broken answer: given again, it is not retried (the engine counts it as repeated). */
  seenAnswer?: (raw: string) => boolean;
  /** Called for each failed call that will be retried, for the run log. */
  onRetry?: (failure: { attempt: number; code: ErrorCode; message: string; raw: string | null }) => void;
}

export interface RetriedCall {
  last: GenerateResult<unknown> | null;
  calls: number;
  usage: AgentUsage;
  /** Why the call ended on a cut-off answer no retry could make room for (ANSWER_CUT_OFF). */
  cutOff?: string;
  /** How many tries gave the last answer's text, byte for byte. */
  rawTries?: number;
}

/** A retry would only give the same broken answer: the last try's text again, or one the step already had. */
function givenBefore(raw: string | null, earlier: readonly string[], options: RunAgentOptions): boolean {
  return raw !== null && (earlier.includes(raw) || options.seenAnswer?.(raw) === true);
}

/**
 * One model call with seed 002's recovery: transient failures (provider errors, malformed output,
 * timeouts) are retried with exponential backoff, up to `options.retries` times. A cut-off answer is
 * never asked for again as it was: the retry gets a larger answer budget from `room` (its context
 * refitted to the rest), and when the window has no more, the call ends with what to change instead.
 */
export async function generateWithRetries(
  request: GenerateRequest<unknown>,
  options: RunAgentOptions,
  usage: AgentUsage = { prompt_tokens: 0, completion_tokens: 0 },
  room?: AnswerRoom,
): Promise<RetriedCall> {
  let calls = 0;
  let last: GenerateResult<unknown> | null = null;
  let current = request;
  let grown = false;
  let lastCut = 0;
  const raws: string[] = [];
  const ended = (call: Omit<RetriedCall, 'rawTries'>): RetriedCall => {
    const raw = call.last && !call.last.ok ? call.last.raw : null;
    return raw === null ? call : { ...call, rawTries: raws.filter((text) => text === raw).length };
  };
  for (let attempt = 0; attempt <= options.retries; attempt++) {
    // A retry with more room is not waiting out a transient failure.
    if (attempt > 0 && !grown) {
      await sleep(options.backoffMs * 2 ** (attempt - 1), undefined, { signal: options.signal }).catch(
        (error: unknown) => {
          // Only a stop cuts the wait short; it is seen just below.
          if (!options.signal?.aborted) throw error;
        },
      );
    }
    if (options.signal?.aborted) break;
    last = await options.router.generate({
      ...current,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      onToken: options.onToken,
    });
    calls++;
    addUsage(usage, last);
    if (last.ok) break;
    const repeated = givenBefore(last.raw, raws, options);
    if (last.raw !== null) raws.push(last.raw);
    // A grown request the exact fit finds too long: the window had less room than estimated.
    const overflowedGrown = grown && last.error.code === 'CONTEXT_OVERFLOW';
    if (last.error.cutOffAt !== undefined || overflowedGrown) {
      lastCut = last.error.cutOffAt ?? lastCut;
      const next = room && !overflowedGrown ? grownAnswerBudget(lastCut, last.raw, room.tokens) : null;
      if (!room || next === null)
        return ended({
          last,
          calls,
          usage,
          cutOff: room
            ? cutOffMessage(room, lastCut, 'window', calls)
            : `the answer was cut off at ${lastCut} tokens; ${SHORTER_ANSWER}`,
        });
      // A larger budget that brings back the same text: the answer stops there whatever its room.
      if (repeated) return ended({ last, calls, usage, cutOff: cutOffMessage(room, lastCut, 'same', calls) });
      if (attempt === options.retries)
        return ended({ last, calls, usage, cutOff: cutOffMessage(room, lastCut, 'retries', calls) });
      options.onRetry?.({
        attempt: attempt + 1,
        code: last.error.code,
        message: `cut off at ${lastCut} tokens; retrying with ${next}: ${last.error.message}`,
        raw: last.raw,
      });
      current = await room.refit(next);
      grown = true;
      continue;
    }
    grown = false;
    if (!last.error.retryable || attempt === options.retries || repeated) break;
    options.onRetry?.({ attempt: attempt + 1, code: last.error.code, message: last.error.message, raw: last.raw });
  }
  return ended({ last, calls, usage });
}

function addUsage(usage: AgentUsage, result: GenerateResult<unknown>): void {
  if (!result.usage) return;
  usage.prompt_tokens += result.usage.promptTokens;
  usage.completion_tokens += result.usage.completionTokens;
  usage.cached_tokens = (usage.cached_tokens ?? 0) + result.usage.reusedPrefixTokens;
  if (result.usage.estimated) usage.estimated = true;
  if (result.usage.tokensPerSecond > 0)
    usage.decode_ms = (usage.decode_ms ?? 0) + Math.max(0, result.usage.totalMs - result.usage.timeToFirstTokenMs);
  if (result.usage.steeredTokens !== undefined)
    usage.steered_tokens = (usage.steered_tokens ?? 0) + result.usage.steeredTokens;
  if (result.usage.lookup) {
    usage.lookup_validated = (usage.lookup_validated ?? 0) + result.usage.lookup.validated;
    usage.lookup_refuted = (usage.lookup_refuted ?? 0) + result.usage.lookup.refuted;
  }
}

export function failedCall(call: RetriedCall): Extract<AgentRunResult, { kind: 'failed' }> {
  if (call.cutOff)
    return {
      kind: 'failed',
      code: 'ANSWER_CUT_OFF',
      message: call.cutOff,
      raw: call.last?.raw ?? null,
      ...(call.rawTries ? { rawTries: call.rawTries } : {}),
      calls: call.calls,
      usage: call.usage,
    };
  if (call.last && !call.last.ok)
    return {
      kind: 'failed',
      code: call.last.error.code,
      message: call.last.error.message,
      raw: call.last.raw,
      ...(call.rawTries ? { rawTries: call.rawTries } : {}),
      calls: call.calls,
      usage: call.usage,
    };
  return {
    kind: 'failed',
    code: 'ABORTED',
    message: 'the run was stopped',
    raw: null,
    calls: call.calls,
    usage: call.usage,
  };
}

/**
 * One agent step: build the prompt, call the model through the router, and retry transient failures
 * with backoff. Never throws for model misbehaviour; the engine decides what a failure means.
 */
export async function runAgent(
  spec: AgentSpec,
  callCtx: AgentContext,
  options: RunAgentOptions,
): Promise<AgentRunResult> {
  // Budgets are planned with the model's own tokenizer when its provider has one (llama).
  const ctx: AgentContext =
    callCtx.promptCounter !== undefined
      ? callCtx
      : { ...callCtx, promptCounter: (await options.router.promptCounter?.(spec.modelRole)) ?? null };
  const fit = await prepareMessages(spec, ctx);
  const built = await fit();
  if (built.overflow)
    return {
      kind: 'failed',
      code: 'CONTEXT_OVERFLOW',
      message: built.overflow,
      raw: null,
      calls: 0,
      usage: { prompt_tokens: 0, completion_tokens: 0 },
    };
  const requestOf = ({ messages, context, schema, report, maxTokens }: BuiltMessages): GenerateRequest<unknown> => {
    if (report) ctx.onContextBuilt?.(report);
    const rejection = options.answersRejection ? { answersRejection: options.answersRejection } : {};
    return {
      role: spec.modelRole,
      purpose: options.purpose,
      ...rejection,
      messages,
      context,
      schema,
      ...(maxTokens ? { maxTokens } : {}),
    };
  };
  let form = built.form;
  const room: AnswerRoom = {
    tokens: built.answerRoom,
    role: spec.modelRole,
    contextSize: roleWindow(ctx, spec.modelRole),
    advice: options.purpose === 'code' ? smallerChangeAdvice(ctx.editFormat.name) : SHORTER_ANSWER,
    refit: async (answerTokens) => requestOf(await fit(answerTokens, form)),
  };
  let call = await generateWithRetries(requestOf(built), options, undefined, room);
  // The model counted more than planned (an estimate): the short form is a smaller prompt, so it is tried before the run ends.
  if (!call.last?.ok && call.last?.error.code === 'CONTEXT_OVERFLOW' && !call.cutOff && form === 'full') {
    const shorter = await fit(undefined, 'short');
    if (!shorter.overflow) {
      form = 'short';
      options.onRetry?.({
        attempt: call.calls,
        code: 'CONTEXT_OVERFLOW',
        message: `${call.last.error.message}; retrying with the rules in their short form`,
        raw: null,
      });
      const again = await generateWithRetries(requestOf(shorter), options, call.usage, room);
      call = { ...again, calls: call.calls + again.calls };
    }
  }
  if (call.last?.ok) {
    if (isAgentError(call.last.value))
      return { kind: 'declined', reason: call.last.value.reason, calls: call.calls, usage: call.usage };
    return { kind: 'output', output: call.last.value, calls: call.calls, usage: call.usage };
  }
  return failedCall(call);
}
