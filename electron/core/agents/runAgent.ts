import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { AgentPurpose } from '../../../shared/engine/actions';
import type { ErrorCode } from '../../../shared/errors';
import { isAgentError } from '../../../shared/schemas/agents/agentError';
import { roleBudget } from '../context/roleBudget';
import { estimateTokens } from '../llm/results';
import type { ChatMessage, ContextItem, GenerateRequest, GenerateResult, ModelRouter } from '../llm/types';
import type { AgentContext, AgentSpec, ContextReport } from './registry';
import { workflowRulePrompts } from './workflowRules';

export interface AgentUsage {
  prompt_tokens: number;
  completion_tokens: number;
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
  | { kind: 'failed'; code: ErrorCode; message: string; raw: string | null; calls: number; usage: AgentUsage };

export interface RunAgentOptions {
  router: ModelRouter;
  /** What the call is for; passed to the model layer with the request (see GenerateRequest.purpose). */
  purpose?: AgentPurpose;
  retries: number;
  /** First retry delay; doubles each time (seed 002: retry with backoff, up to 3 times). */
  backoffMs: number;
  signal?: AbortSignal;
  timeoutMs?: number;
  onToken?: (text: string) => void;
  /** Called for each failed call that will be retried, for the run log. */
  onRetry?: (failure: { attempt: number; code: ErrorCode; message: string; raw: string | null }) => void;
}

const schemaText = new WeakMap<z.ZodType, string>();

function describeSchema(schema: z.ZodType): string {
  let text = schemaText.get(schema);
  if (text === undefined) {
    text = JSON.stringify(z.toJSONSchema(schema, { unrepresentable: 'any' }));
    schemaText.set(schema, text);
  }
  return text;
}

/** A role's system message: its prompts and the answer's JSON Schema. */
export function systemPrompt(spec: AgentSpec, ctx: AgentContext, schema: z.ZodType): string {
  return `${ctx.prompts.system(...workflowRulePrompts(ctx.state.config), ...spec.prompts(ctx))}\n\n${ctx.prompts.get('answer-schema')}\n${describeSchema(schema)}`;
}

/** The messages of one call: a per-role system prompt that stays the same across calls (prefix reuse), then the input. */
export interface BuiltMessages {
  messages: ChatMessage[];
  context: ContextItem[];
  schema: z.ZodType;
  report: ContextReport | null;
  /** This call's answer budget when the role's own is too small (a whole-file answer). */
  maxTokens?: number;
  /** Why the call cannot be made in this window at all (then nothing is asked of the model). */
  overflow?: string;
}

/** A whole-file answer repeats the files it rewrites, in JSON strings (escapes), plus its own fields. */
export const wholeFileAnswerTokens = (fileTokens: number) => Math.ceil(fileTokens * 1.15) + 256;

export async function buildMessages(spec: AgentSpec, ctx: AgentContext): Promise<BuiltMessages> {
  const schema = spec.schema(ctx);
  const system = systemPrompt(spec, ctx, schema);
  const { input, context, budgeted, wholeFiles } = await spec.input(ctx);
  const head = `Input:\n${JSON.stringify(input, null, 2)}`;
  const marker = '\n\nRelevant files and notes:\n{{context}}';
  if (!budgeted) return { messages: [{ role: 'system', content: system }, { role: 'user', content: `${head}${context.length > 0 ? marker : ''}` }], context, schema, report: null };
  // The context fills what the mandatory prompt leaves of the role's window after the answer's reserve.
  const { contextSize, answerReserve: roleReserve } = roleBudget(ctx.state.config, spec.modelRole);
  const answerReserve = wholeFiles && wholeFiles.answerBasis > 0 ? Math.max(roleReserve, wholeFileAnswerTokens(wholeFiles.answerBasis)) : roleReserve;
  const mandatory = estimateTokens(system) + estimateTokens(head + marker) + 8;
  if (wholeFiles && mandatory + wholeFiles.tokens + answerReserve > contextSize) {
    const files = wholeFiles.perFile.map((file) => `${file.path} (~${file.tokens})`).join(', ');
    const overflow = `whole-file needs ~${mandatory + wholeFiles.tokens + answerReserve} tokens to show and rewrite ${files} (prompt ~${mandatory}, files ~${wholeFiles.tokens}, answer ~${answerReserve}) in the ${spec.modelRole}'s ${contextSize}-token window; use the search-replace or unified-diff edit format, or a model with a larger context_size`;
    return { messages: [], context: [], schema, report: null, overflow };
  }
  const built = await budgeted(Math.max(0, contextSize - answerReserve - mandatory));
  const report: ContextReport = {
    role: spec.modelRole,
    context_size: contextSize,
    answer_reserve: answerReserve,
    mandatory_tokens: mandatory,
    budget_tokens: built.budgetTokens,
    used_tokens: built.usedTokens,
    included: built.included,
    dropped: built.dropped,
  };
  const maxTokens = answerReserve > roleReserve ? answerReserve : undefined;
  return { messages: [{ role: 'system', content: system }, { role: 'user', content: `${head}${marker}` }], context: built.items, schema, report, ...(maxTokens ? { maxTokens } : {}) };
}

export interface RetriedCall {
  last: GenerateResult<unknown> | null;
  calls: number;
  usage: AgentUsage;
}

/**
 * One model call with seed 002's recovery: transient failures (provider errors, malformed output,
 * timeouts) are retried with exponential backoff, up to `options.retries` times.
 */
export async function generateWithRetries(request: GenerateRequest<unknown>, options: RunAgentOptions, usage: AgentUsage = { prompt_tokens: 0, completion_tokens: 0 }): Promise<RetriedCall> {
  let calls = 0;
  let last: GenerateResult<unknown> | null = null;
  for (let attempt = 0; attempt <= options.retries; attempt++) {
    if (attempt > 0) {
      await sleep(options.backoffMs * 2 ** (attempt - 1), undefined, { signal: options.signal }).catch(() => undefined);
    }
    if (options.signal?.aborted) break;
    last = await options.router.generate({ ...request, signal: options.signal, timeoutMs: options.timeoutMs, onToken: options.onToken });
    calls++;
    if (last.usage) {
      usage.prompt_tokens += last.usage.promptTokens;
      usage.completion_tokens += last.usage.completionTokens;
      if (last.usage.tokensPerSecond > 0) usage.decode_ms = (usage.decode_ms ?? 0) + Math.max(0, last.usage.totalMs - last.usage.timeToFirstTokenMs);
      if (last.usage.steeredTokens !== undefined) usage.steered_tokens = (usage.steered_tokens ?? 0) + last.usage.steeredTokens;
      if (last.usage.lookup) {
        usage.lookup_validated = (usage.lookup_validated ?? 0) + last.usage.lookup.validated;
        usage.lookup_refuted = (usage.lookup_refuted ?? 0) + last.usage.lookup.refuted;
      }
    }
    if (last.ok || !last.error.retryable || attempt === options.retries) break;
    options.onRetry?.({ attempt: attempt + 1, code: last.error.code, message: last.error.message, raw: last.raw });
  }
  return { last, calls, usage };
}

export function failedCall(call: RetriedCall): Extract<AgentRunResult, { kind: 'failed' }> {
  if (call.last && !call.last.ok) return { kind: 'failed', code: call.last.error.code, message: call.last.error.message, raw: call.last.raw, calls: call.calls, usage: call.usage };
  return { kind: 'failed', code: 'ABORTED', message: 'the run was stopped', raw: null, calls: call.calls, usage: call.usage };
}

/**
 * One agent step: build the prompt, call the model through the router, and retry transient failures
 * with backoff. Never throws for model misbehaviour; the engine decides what a failure means.
 */
export async function runAgent(spec: AgentSpec, ctx: AgentContext, options: RunAgentOptions): Promise<AgentRunResult> {
  const { messages, context, schema, report, maxTokens, overflow } = await buildMessages(spec, ctx);
  if (overflow) return { kind: 'failed', code: 'CONTEXT_OVERFLOW', message: overflow, raw: null, calls: 0, usage: { prompt_tokens: 0, completion_tokens: 0 } };
  if (report) ctx.onContextBuilt?.(report);
  const call = await generateWithRetries({ role: spec.modelRole, purpose: options.purpose, messages, context, schema, ...(maxTokens ? { maxTokens } : {}) }, options);
  if (call.last?.ok) {
    if (isAgentError(call.last.value)) return { kind: 'declined', reason: call.last.value.reason, calls: call.calls, usage: call.usage };
    return { kind: 'output', output: call.last.value, calls: call.calls, usage: call.usage };
  }
  return failedCall(call);
}
