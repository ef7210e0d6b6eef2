import { InputLookupTokenPredictor, LlamaChat, type ChatHistoryItem, type LlamaContext } from 'node-llama-cpp';
import { spread, type Spread } from '../lib/stats';

export interface PromptLookupComparison {
  /** Decode rate without and with prompt lookup, per round (same seed), median and spread. */
  plainTokensPerSecond: Spread;
  lookupTokensPerSecond: Spread;
  speedup: Spread;
  /** validated / (validated + refuted): how many looked-up tokens the model confirmed. */
  acceptanceRate: number;
  predictions: { validated: number; refuted: number; used: number };
  rounds: number;
}

/** A writer's answer copies its input: the file, rewritten with one change. */
export function writerHistory(file: string, round: number): ChatHistoryItem[] {
  return [
    { type: 'system', text: 'You are the Coder. Answer with the whole new file only.' },
    {
      type: 'user',
      text: `Here is src/stats.py:\n\n${file}\n\nAdd a docstring to median (request ${round}). Reply with the whole file.`,
    },
    { type: 'model', response: [] },
  ];
}

async function decode(
  context: LlamaContext,
  history: ChatHistoryItem[],
  maxTokens: number,
  seed: number,
  lookup: boolean,
) {
  const sequence = context.getSequence(lookup ? { tokenPredictor: new InputLookupTokenPredictor() } : undefined);
  const chat = new LlamaChat({ contextSequence: sequence });
  const before = sequence.tokenMeter.getState();
  let first: number | null = null;
  await chat.generateResponse(history, {
    maxTokens,
    temperature: 0,
    seed,
    repeatPenalty: false,
    onToken: () => (first ??= performance.now()),
  });
  const ended = performance.now();
  const tokens = sequence.tokenMeter.diff(before).usedOutputTokens;
  const predictions = sequence.tokenPredictions;
  chat.dispose({ disposeSequence: true });
  const seconds = (ended - (first ?? ended)) / 1000;
  return { tokensPerSecond: seconds > 0 ? (tokens - 1) / seconds : 0, predictions };
}

/** Plain vs prompt-lookup decoding of a copy-heavy answer, interleaved round by round. */
export async function comparePromptLookup(
  context: LlamaContext,
  file: string,
  options: { rounds: number; maxTokens: number },
): Promise<PromptLookupComparison> {
  await decode(context, writerHistory(file, -1), 8, 1, false);
  const plain: number[] = [];
  const lookup: number[] = [];
  const totals = { validated: 0, refuted: 0, used: 0 };
  for (let round = 0; round < options.rounds; round++) {
    const pair = round % 2 === 0 ? [false, true] : [true, false];
    for (const withLookup of pair) {
      const run = await decode(context, writerHistory(file, round), options.maxTokens, round, withLookup);
      (withLookup ? lookup : plain).push(run.tokensPerSecond);
      if (withLookup) {
        totals.validated += run.predictions.validated;
        totals.refuted += run.predictions.refuted;
        totals.used += run.predictions.used;
      }
    }
  }
  const evaluated = totals.validated + totals.refuted;
  return {
    plainTokensPerSecond: spread(plain, 1),
    lookupTokensPerSecond: spread(lookup, 1),
    speedup: spread(lookup.map((value, index) => value / (plain[index] || Number.NaN))),
    acceptanceRate: evaluated > 0 ? Math.round((totals.validated / evaluated) * 1000) / 1000 : 0,
    predictions: totals,
    rounds: options.rounds,
  };
}
