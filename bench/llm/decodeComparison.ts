import type { ChatHistoryItem, LlamaContext, LlamaGrammar } from 'node-llama-cpp';
import { measureDecode, median } from './measure';

export interface DecodeComparison {
  /** Fastest run of each kind: the machine is shared, so slower runs mostly measure neighbours. */
  unconstrainedTokensPerSecond: number;
  constrainedTokensPerSecond: number;
  /** Median of per-pair ratios; each pair runs back to back, so load drift hits both alike. */
  ratio: number;
  constrainedTokens: number;
}

export async function compareDecode(context: LlamaContext, grammar: LlamaGrammar, options: { runs: number; maxTokens: number; history: (run: number) => ChatHistoryItem[] }): Promise<DecodeComparison> {
  // Warm-up: the first decode after load pages weights in and is several times slower.
  await measureDecode(context, options.history(-1), { maxTokens: 8, seed: 99 });
  await measureDecode(context, options.history(-1), { maxTokens: 8, seed: 99, grammar });
  const free: number[] = [];
  const constrained: number[] = [];
  const ratios: number[] = [];
  let constrainedTokens = 0;
  for (let run = 0; run < options.runs; run++) {
    const a = await measureDecode(context, options.history(run), { maxTokens: options.maxTokens, seed: run });
    const b = await measureDecode(context, options.history(run), { maxTokens: options.maxTokens, seed: run, grammar });
    free.push(a.tokensPerSecond);
    constrained.push(b.tokensPerSecond);
    constrainedTokens += b.tokens;
    if (a.tokensPerSecond > 0) ratios.push(b.tokensPerSecond / a.tokensPerSecond);
  }
  return {
    unconstrainedTokensPerSecond: Math.max(...free),
    constrainedTokensPerSecond: Math.max(...constrained),
    ratio: median(ratios),
    constrainedTokens,
  };
}
