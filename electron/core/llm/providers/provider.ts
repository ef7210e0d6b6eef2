import type { CallSignal } from '../callSignal';
import { fitContext, type FitResult } from '../contextFit';
import { estimateTokens, failure } from '../results';
import type { ChatMessage, GenerateRequest, GenerateResult, LlmEvent, PromptCounter, RoleModelConfig } from '../types';
import type { ModelRole } from '../../../../shared/schemas/roles';

/** One `generate` call as a provider sees it: the request, the role's settings and the event sinks. */
export interface ProviderCall<T> {
  request: GenerateRequest<T>;
  role: ModelRole;
  config: RoleModelConfig;
  spec: string;
  callSignal: CallSignal;
  /** Streams a text piece to `request.onToken` and the router's `token` event. */
  emitToken(text: string): void;
  emit(event: LlmEvent): void;
}

export interface Provider {
  generate<T>(call: ProviderCall<T>): Promise<GenerateResult<T>>;
  /** How this provider counts a role's prompt before a call (absent: the plain estimate). */
  counter?(role: ModelRole, config: RoleModelConfig): Promise<PromptCounter | null>;
  dispose(): Promise<void>;
}

export const DEFAULT_MAX_TOKENS = 1024;
export const DEFAULT_TEMPERATURE = 0.2;

/**
 * Context fitting for providers without a local tokenizer (server, replay): only when the role states
 * a context size, with ~4 characters per token. Without one, everything is sent.
 */
export function fitByEstimate<T>(
  call: ProviderCall<T>,
): { ok: true; fit: Extract<FitResult, { ok: true }> } | { ok: false; result: GenerateResult<T> } {
  const contextSize = call.config.contextSize;
  const maxTokens = call.config.maxTokens ?? DEFAULT_MAX_TOKENS;
  const countPrompt = (messages: ChatMessage[]) =>
    messages.reduce((sum, message) => sum + estimateTokens(message.content) + 4, 0);
  const fit = fitContext({
    messages: call.request.messages,
    context: call.request.context,
    budgetTokens: contextSize === undefined ? Number.MAX_SAFE_INTEGER : contextSize - maxTokens,
    countPrompt,
    countText: estimateTokens,
  });
  if (!fit.ok) return { ok: false, result: overflow(fit.mandatoryTokens, contextSize ?? 0, maxTokens, true) };
  reportDropped(call, fit.dropped, contextSize ?? 0, maxTokens);
  return { ok: true, fit };
}

export function overflow<T>(
  mandatoryTokens: number,
  contextSize: number,
  maxTokens: number,
  estimated = false,
): GenerateResult<T> {
  return failure<T>(
    'CONTEXT_OVERFLOW',
    `the mandatory prompt (system prompt and messages) is ${estimated ? 'about ' : ''}${mandatoryTokens} tokens, but the ${contextSize}-token context leaves ${Math.max(0, contextSize - maxTokens)} after reserving ${maxTokens} for the answer; shorten the prompt, lower maxTokens or raise the role's contextSize`,
  );
}

export function reportDropped<T>(
  call: ProviderCall<T>,
  dropped: string[],
  contextSize: number,
  maxTokens: number,
): void {
  if (dropped.length === 0) return;
  const total = call.request.context?.length ?? dropped.length;
  call.emit({
    type: 'context_dropped',
    role: call.role,
    ids: dropped,
    reason: `${dropped.length} of ${total} context items did not fit the ${contextSize}-token context (${maxTokens} tokens reserved for the answer); lowest priority dropped first`,
  });
}

/** The provider's ABORTED/TIMEOUT result once the call signal has fired. */
export function stoppedResult<T>(
  call: ProviderCall<T>,
  raw: string | null,
  usage: GenerateResult<T>['usage'] = null,
): GenerateResult<T> {
  return call.callSignal.stoppedBy() === 'timeout'
    ? failure<T>('TIMEOUT', `the call exceeded its ${call.request.timeoutMs} ms limit`, { raw, usage })
    : failure<T>('ABORTED', 'the call was cancelled', { raw, usage });
}
