import {
  LlamaGrammarEvaluationState,
  TokenBias,
  type LlamaContextSequence,
  type LlamaGrammar,
  type LlamaModel,
  type Token,
} from 'node-llama-cpp';
import type { GbnfMatcher } from '../grammar/gbnfMatcher';
import { ForcedTokenSteering, type SteeringTokenizer } from './forcedTokens';

export interface DecodeRequest {
  sequence: LlamaContextSequence;
  model: LlamaModel;
  /** The whole prompt, chat template included; the prefix already in the sequence is not evaluated again. */
  promptTokens: readonly Token[];
  /** What prompt lookup may copy from (the last user message), when the sequence has a token predictor. */
  lookupInput?: readonly Token[];
  grammar?: LlamaGrammar;
  /** Follows the same grammar beside llama.cpp: ends the answer when it is complete, and steers. */
  matcher?: GbnfMatcher | null;
  /** Pick the tokens the grammar forces instead of sampling them (decision 75). */
  steer: boolean;
  maxTokens: number;
  temperature: number;
  seed: number;
  tokenBias?: TokenBias;
  signal?: AbortSignal;
  onToken?: (token: Token) => void;
  onTextChunk?: (chunk: string) => void;
}

export type DecodeStopReason = 'eogToken' | 'grammarComplete' | 'maxTokens' | 'abort';

export interface DecodedAnswer {
  /** Prompt tokens the sequence already held and did not evaluate again (the rest was prefilled). */
  reusedPromptTokens: number;
  text: string;
  /** Tokens generated (sampled or steered). */
  tokens: number;
  steeredTokens: number;
  stopReason: DecodeStopReason;
}

/** Bytes a UTF-8 character may need: a token run that long which still decodes to U+FFFD is let through. */
const MAX_CHARACTER_TOKENS = 4;
/** Far above any logit a model gives: the steered token is the one sampled. */
const STEERED_LOGIT = 1000;

/**
 * One answer from the sequence, token by token, through node-llama-cpp's evaluator (its sampler and
 * llama.cpp's grammar). Lathe drives this loop itself, rather than `LlamaChat`, to know each token the
 * moment it is sampled: that is what stopping at the grammar's end and forced-token steering need.
 */
export async function decodeAnswer(request: DecodeRequest): Promise<DecodedAnswer> {
  const { sequence, model } = request;
  const context = request.promptTokens.slice(0, -1);
  if (request.promptTokens.length === 0) throw new Error('nothing to evaluate: the prompt is empty');
  // At least the last prompt token is evaluated, so there are logits to sample the first answer token from.
  await sequence.adaptStateToTokens(context, false);
  const reusedPromptTokens = sequence.nextTokenIndex;
  const input = request.promptTokens.slice(reusedPromptTokens);
  if (request.lookupInput) sequence.tokenPredictor?.updateInputTokens?.(request.lookupInput.slice());

  const matcher = request.matcher ?? null;
  // A token predictor samples several positions per batch, so "the next token" is not one place.
  const steering =
    request.steer && matcher && !sequence.tokenPredictor
      ? new ForcedTokenSteering(matcher, steeringTokenizer(model))
      : null;
  const baseBias = request.tokenBias ?? new TokenBias(model.tokenizer);
  const steeredBiases = new Map<Token, TokenBias>();
  let nextBias = baseBias;

  const iterator = sequence.evaluate(input, {
    temperature: request.temperature,
    seed: request.seed,
    grammarEvaluationState: request.grammar
      ? new LlamaGrammarEvaluationState({ model, grammar: request.grammar })
      : undefined,
    tokenBias: () => nextBias,
  });
  const history: Token[] = request.promptTokens.slice(-8);
  const generated: Token[] = [];
  let pending: Token[] = [];
  let text = '';
  let stopReason: DecodeStopReason = 'eogToken';
  const release = (chunk: string) => {
    history.push(...pending);
    pending = [];
    if (chunk === '') return;
    text += chunk;
    matcher?.feed(chunk);
    request.onTextChunk?.(chunk);
  };
  try {
    let step = await iterator.next();
    while (!step.done) {
      const token = step.value;
      generated.push(token);
      request.onToken?.(token);
      pending.push(token);
      // Hold the bytes of a character split across tokens until it is whole.
      const chunk = model.detokenize(pending, false, history.slice(-8));
      if (!chunk.endsWith('\uFFFD') || pending.length >= MAX_CHARACTER_TOKENS) release(chunk);
      if (pending.length === 0 && matcher?.isComplete) {
        stopReason = 'grammarComplete';
        break;
      }
      if (generated.length >= request.maxTokens) {
        stopReason = 'maxTokens';
        break;
      }
      if (request.signal?.aborted) {
        stopReason = 'abort';
        break;
      }
      const steered = steering && pending.length === 0 ? steering.next() : null;
      nextBias = steered === null ? baseBias : biasFor(steered, model, steeredBiases);
      step = await iterator.next();
    }
  } finally {
    await iterator.return();
  }
  if (pending.length > 0) release(model.detokenize(pending, false, history.slice(-8)));
  return { reusedPromptTokens, text, tokens: generated.length, steeredTokens: steering?.steered ?? 0, stopReason };
}

function biasFor(token: Token, model: LlamaModel, cache: Map<Token, TokenBias>): TokenBias {
  let bias = cache.get(token);
  if (!bias) {
    bias = new TokenBias(model.tokenizer);
    bias.set(token, { logit: STEERED_LOGIT });
    cache.set(token, bias);
  }
  return bias;
}

/** Pieces read after an ordinary token, so a tokenizer's leading space shows as the space it is. */
function steeringTokenizer(model: LlamaModel): SteeringTokenizer {
  const anchor = model.tokenize('a', false);
  return {
    tokenize: (text) => model.tokenize(text, false),
    pieceOf: (token) => model.detokenize([token], false, anchor),
  };
}
