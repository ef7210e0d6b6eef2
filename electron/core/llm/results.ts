import type { GenerateResult, GenerationUsage } from './types';
import type { GenerationErrorCode } from '../../../shared/errors';

const RETRYABLE: Record<GenerationErrorCode, boolean> = {
  INVALID_OUTPUT: true,
  TIMEOUT: true,
  ABORTED: false,
  CONTEXT_OVERFLOW: false,
  MODEL_LOAD_FAILED: false,
  INSUFFICIENT_MEMORY: false,
  PROVIDER_ERROR: true,
  REPLAY_EXHAUSTED: false,
  BAD_MODEL_SPEC: false,
};

export function failure<T>(
  code: GenerationErrorCode,
  message: string,
  extra: { raw?: string | null; usage?: GenerationUsage | null; retryable?: boolean; cutOffAt?: number } = {},
): GenerateResult<T> {
  const error = { code, message: message.slice(0, 4000), retryable: extra.retryable ?? RETRYABLE[code] };
  return {
    ok: false,
    error: extra.cutOffAt === undefined ? error : { ...error, cutOffAt: extra.cutOffAt },
    raw: extra.raw ?? null,
    usage: extra.usage ?? null,
  };
}

/**
 * An answer the model was stopped in at its answer budget, so it does not parse. Retryable, but
 * never as it was: `error.cutOffAt` tells the caller to ask again with more room (runAgent).
 */
export function cutOffFailure<T>(message: string, maxTokens: number, raw: string): GenerateResult<T> {
  return failure<T>('INVALID_OUTPUT', `${message} (cut at maxTokens ${maxTokens})`, {
    raw,
    retryable: true,
    cutOffAt: maxTokens,
  });
}

/** A result with the call's usage attached (a failure made before the usage was known). */
export function withUsage<T>(result: GenerateResult<T>, usage: GenerationUsage): GenerateResult<T> {
  return { ...result, usage };
}

export function emptyUsage(model: string): GenerationUsage {
  return {
    model,
    promptTokens: 0,
    completionTokens: 0,
    reusedPrefixTokens: 0,
    timeToFirstTokenMs: 0,
    totalMs: 0,
    tokensPerSecond: 0,
  };
}

/** Rough token count for providers without a local tokenizer (≈ 4 characters per token). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Decode rate after the first token; with a single token, over the whole call. */
export function tokensPerSecond(completionTokens: number, totalMs: number, timeToFirstTokenMs: number): number {
  const decodeMs = completionTokens > 1 ? totalMs - timeToFirstTokenMs : totalMs;
  const tokens = completionTokens > 1 ? completionTokens - 1 : completionTokens;
  return decodeMs > 0 ? Math.round((tokens / decodeMs) * 1000 * 10) / 10 : 0;
}
