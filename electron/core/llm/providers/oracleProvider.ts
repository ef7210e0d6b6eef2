import { AgentErrorSchema } from '../../../../shared/schemas/agents/agentError';
import { LIMITS } from '../../../../shared/schemas/agents/bounds';
import { EstimatedKvCache } from '../estimatedKvCache';
import type { FaultSettings } from '../oracle/faults/faultSettings';
import { SpoiledWriter, type WriterRequest } from '../oracle/faults/spoiledWriter';
import { loadGoldPatch, type GoldPatchResult } from '../oracle/goldPatch';
import { requestInput, visibleFiles } from '../oracle/requestView';
import { inferPurpose, oracleAnswer, type OracleAnswer } from '../oracle/roleAnswers';
import { parseModelOutput, validateValue } from '../output';
import { cutOffFailure, estimateTokens, failure, withUsage } from '../results';
import type { GenerateResult, GenerationUsage } from '../types';
import { estimatedUsageCounter } from './estimatedUsage';
import { DEFAULT_MAX_TOKENS, fitByEstimate, stoppedResult, type Provider, type ProviderCall } from './provider';

const STREAM_PIECE = 256;

type UsageFor = (raw: string) => GenerationUsage;

function streamText<T>(call: ProviderCall<T>, text: string): void {
  for (let i = 0; i < text.length; i += STREAM_PIECE) call.emitToken(text.slice(i, i + STREAM_PIECE));
}

/** The spoiled writer's answer in place of the correct one; a cut-off answer ends the call there. */
function spoiledAnswer<T>(
  spoiled: SpoiledWriter,
  call: ProviderCall<T>,
  request: Omit<WriterRequest, 'schema' | 'maxTokens' | 'budgetStated'>,
  usageFor: UsageFor,
): { answer: OracleAnswer } | { done: GenerateResult<T> } {
  const maxTokens = call.config.maxTokens ?? DEFAULT_MAX_TOKENS;
  const result = spoiled.reply({
    ...request,
    schema: call.request.schema,
    maxTokens,
    budgetStated: call.config.maxTokens !== undefined,
  });
  if (!result.ok) return { done: failure<T>('BAD_MODEL_SPEC', result.message) };
  const { reply } = result;
  if (reply.kind !== 'cut') return { answer: reply };
  streamText(call, reply.raw);
  const parsed = parseModelOutput(reply.raw, call.request.schema);
  return {
    done: {
      ...cutOffFailure<T>(parsed.ok ? 'the answer ends early' : parsed.message, reply.maxTokens, reply.raw),
      usage: usageFor(reply.raw),
    },
  };
}

/** The JSON the answer writes: its value, or the role's error answer naming why it declined. */
function answerOutput<T>(
  answer: OracleAnswer,
  call: ProviderCall<T>,
  usageFor: UsageFor,
): { output: unknown } | { done: GenerateResult<T> } {
  if (answer.kind === 'value') return { output: answer.value };
  const declined = { status: 'error', reason: `oracle: ${answer.reason}`.slice(0, LIMITS.shortText) };
  // Roles whose schema has no error answer (Supervisor, Scout) fail the call instead, naming the cause.
  if (!call.request.schema.safeParse(declined).success || !AgentErrorSchema.safeParse(declined).success)
    return { done: failure<T>('PROVIDER_ERROR', declined.reason, { retryable: false, usage: usageFor('') }) };
  return { output: declined };
}

/** Streams the answer and returns it parsed, or cut off where the role's stated token budget ends. */
function deliver<T>(
  output: unknown,
  call: ProviderCall<T>,
  usageFor: UsageFor,
  droppedContext: string[],
): GenerateResult<T> {
  const raw = JSON.stringify(output);
  const limit = call.config.maxTokens;
  // Like context fitting, the answer's length is held to the role's budget only when the role states one.
  if (limit !== undefined && estimateTokens(raw) > limit) {
    // What a model would have written when stopped: the answer's first maxTokens, which do not parse.
    const cut = raw.slice(0, limit * 4);
    return withUsage(
      cutOffFailure<T>(
        `oracle: the answer is about ${estimateTokens(raw)} tokens, over this role's maxTokens of ${limit}: a model would be cut off there`,
        limit,
        cut,
      ),
      usageFor(cut),
    );
  }
  streamText(call, raw);
  const usage = usageFor(raw);
  const parsed = validateValue(output, call.request.schema);
  if (!parsed.ok)
    return failure<T>('INVALID_OUTPUT', `oracle answer: ${parsed.message}`, { raw, usage, retryable: false });
  return { ok: true, value: parsed.value, raw, usage, droppedContext };
}

/**
 * `oracle:PATCH.diff`: answers every role as a perfect model would for the task the gold patch fixes,
 * from what the request shows (its input, its fitted context, its schema) plus the patch. What a
 * perfect model would need but the request lacks is declined with the cause, never read from disk.
 */
export class OracleProvider implements Provider {
  private patch: Promise<GoldPatchResult> | null = null;
  /** With fault settings, the writer's answers are spoiled; its per-step memory lives as long as this provider (one run). */
  private readonly spoiled: SpoiledWriter | null;
  /** The prompt reuse a local model would get, per role, over this provider's life (one run). */
  private readonly kv = new EstimatedKvCache();

  constructor(
    private readonly patchPath: string,
    faults: FaultSettings | null = null,
  ) {
    this.spoiled = faults ? new SpoiledWriter(faults) : null;
  }

  async generate<T>(call: ProviderCall<T>): Promise<GenerateResult<T>> {
    this.patch ??= loadGoldPatch(this.patchPath);
    const loaded = await this.patch;
    if (!loaded.ok) {
      this.patch = null;
      return failure<T>('BAD_MODEL_SPEC', loaded.message);
    }
    const fitted = fitByEstimate(call);
    if (!fitted.ok) return fitted.result;
    const started = Date.now();
    call.callSignal.startTimer();
    const reusedPrefixTokens = this.kv.evaluate(call.role, fitted.fit.messages, fitted.fit.promptTokens);
    const usageFor = estimatedUsageCounter(this.kv, {
      role: call.role,
      spec: call.spec,
      promptTokens: fitted.fit.promptTokens,
      reusedPrefixTokens,
      started,
    });
    if (call.callSignal.signal.aborted) return stoppedResult(call, null, usageFor(''));

    const input = requestInput(call.request.messages);
    const kept = new Set(fitted.fit.kept);
    const context = (call.request.context ?? []).filter((item) => kept.has(item.id));
    const purpose = input ? (call.request.purpose ?? inferPurpose(call.role, input)) : null;
    const files = visibleFiles(context);
    let answer: OracleAnswer =
      input && purpose
        ? oracleAnswer({ purpose, input, files, schema: call.request.schema, gold: loaded.patch })
        : { kind: 'decline', reason: 'the request has no input JSON to answer' };
    if (this.spoiled && input && purpose === 'code') {
      const spoiled = spoiledAnswer(
        this.spoiled,
        call,
        { input, files, context, gold: loaded.patch, correct: answer },
        usageFor,
      );
      if ('done' in spoiled) return spoiled.done;
      answer = spoiled.answer;
    }
    const written = answerOutput(answer, call, usageFor);
    if ('done' in written) return written.done;
    return deliver(written.output, call, usageFor, fitted.fit.dropped);
  }

  async dispose(): Promise<void> {}
}
