import type { ModelRole } from '../../../../shared/schemas/roles';
import type { EstimatedKvCache } from '../estimatedKvCache';
import { estimateTokens, tokensPerSecond } from '../results';
import type { GenerationUsage } from '../types';

export interface EstimatedCall {
  role: ModelRole;
  spec: string;
  promptTokens: number;
  /** What the role's estimated cache held of this prompt. */
  reusedPrefixTokens: number;
  /** When the call started (ms since the epoch). */
  started: number;
  /** A scripted wait before the first token (a replay entry's delay); 0 for an answer at once. */
  firstTokenDelayMs?: number;
}

/**
 * A scripted call's usage (oracle, replay) as a local model's would be counted: prompt reuse from the
 * role's earlier calls, the answer joining the role's cache, tokens estimated and labelled so.
 */
export function estimatedUsageCounter(kv: EstimatedKvCache, call: EstimatedCall): (raw: string) => GenerationUsage {
  return (raw) => {
    kv.answered(call.role, raw);
    const totalMs = Date.now() - call.started;
    const completionTokens = estimateTokens(raw);
    const timeToFirstTokenMs = Math.min(totalMs, call.firstTokenDelayMs ?? 0);
    return {
      model: call.spec,
      promptTokens: call.promptTokens,
      completionTokens,
      reusedPrefixTokens: call.reusedPrefixTokens,
      estimated: true,
      timeToFirstTokenMs,
      totalMs,
      tokensPerSecond: tokensPerSecond(completionTokens, totalMs, timeToFirstTokenMs),
    };
  };
}
