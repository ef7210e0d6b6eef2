import type { ChatHistoryItem, LlamaContext } from 'node-llama-cpp';
import { spread, type Spread } from '../lib/stats';
import { measureDecode, type BenchGrammar } from './measure';

export interface SchemaComparison {
  /** Per-round ratios constrained / unconstrained (same round, same seed, same load), their median and spread. */
  ratio: Spread;
  constrainedTokensPerSecond: Spread;
  constrainedTokens: number;
  /** Of those, the tokens the grammar forced and the loop picked (decision 75). */
  steeredTokens: number;
}

export interface DecodeComparison {
  unconstrainedTokensPerSecond: Spread;
  schemas: Record<string, SchemaComparison>;
  rounds: number;
}

/**
 * Unconstrained and each schema's constrained decode, interleaved round by round in one process:
 * every round runs all of them with the same seed, in an order rotated per round (so neither side
 * always runs first), and each schema's ratio is taken within the round. Medians and spread over
 * `rounds` rounds: on a shared machine fewer pairs cannot tell a 10% cost from noise.
 */
export async function compareDecode(
  context: LlamaContext,
  grammars: Record<string, BenchGrammar>,
  options: { rounds: number; maxTokens: number; history: (round: number) => ChatHistoryItem[] },
): Promise<DecodeComparison> {
  const kinds: (string | null)[] = [null, ...Object.keys(grammars)];
  // Warm-up: the first decode after load pages weights in and is several times slower.
  for (const kind of kinds)
    await measureDecode(context, options.history(-1), {
      maxTokens: 8,
      seed: 99,
      grammar: kind === null ? undefined : grammars[kind],
    });
  const free: number[] = [];
  const perSchema = Object.fromEntries(
    Object.keys(grammars).map((name) => [name, { tps: [] as number[], ratios: [] as number[], tokens: 0, steered: 0 }]),
  );
  for (let round = 0; round < options.rounds; round++) {
    const order = kinds.map((_, index) => kinds[(index + round) % kinds.length] ?? null);
    const measured = new Map<string | null, number>();
    for (const kind of order) {
      const run = await measureDecode(context, options.history(round), {
        maxTokens: options.maxTokens,
        seed: round,
        grammar: kind === null ? undefined : grammars[kind],
      });
      measured.set(kind, run.tokensPerSecond);
      if (kind !== null && perSchema[kind]) {
        perSchema[kind].tokens += run.tokens;
        perSchema[kind].steered += run.steeredTokens;
      }
    }
    const unconstrained = measured.get(null) ?? 0;
    free.push(unconstrained);
    for (const [name, entry] of Object.entries(perSchema)) {
      const constrained = measured.get(name) ?? 0;
      entry.tps.push(constrained);
      if (unconstrained > 0) entry.ratios.push(constrained / unconstrained);
    }
  }
  return {
    unconstrainedTokensPerSecond: spread(free, 1),
    schemas: Object.fromEntries(
      Object.entries(perSchema).map(([name, entry]) => [
        name,
        {
          ratio: spread(entry.ratios),
          constrainedTokensPerSecond: spread(entry.tps, 1),
          constrainedTokens: entry.tokens,
          steeredTokens: entry.steered,
        },
      ]),
    ),
    rounds: options.rounds,
  };
}
