import { LlamaChat, type ChatHistoryItem, type LlamaContext, type LlamaGrammar, type LlamaModel } from 'node-llama-cpp';
import { GbnfMatcher } from '../../electron/core/llm/grammar/gbnfMatcher';
import { type ParsedGrammar } from '../../electron/core/llm/grammar/gbnfParser';
import { decodeAnswer } from '../../electron/core/llm/llama/decodeAnswer';

export interface DecodeRun {
  tokens: number;
  steeredTokens: number;
  tokensPerSecond: number;
  timeToFirstTokenMs: number;
}

/** Repository-context-like filler: file paths and short notes, tokenized to exactly `tokens`. */
export function promptOfTokens(model: LlamaModel, tokens: number, salt: string): string {
  const lines: string[] = [];
  let i = 0;
  let text = '';
  while (model.tokenize(text).length < tokens) {
    lines.push(
      `src/module_${i}/file_${(i * 7) % 13}.ts: exports ${salt} helper number ${i} for parsing and formatting values`,
    );
    text = lines.join('\n');
    i++;
  }
  const all = model.tokenize(text).slice(0, tokens);
  return model.detokenize(all);
}

/** Prompt evaluation rate: `tokens` fresh tokens through an empty sequence. */
export async function measurePromptEval(
  context: LlamaContext,
  model: LlamaModel,
  tokens: number,
): Promise<{ tokens: number; seconds: number }> {
  const sequence = context.getSequence();
  const input = model.tokenize(promptOfTokens(model, tokens, 'prompt'));
  const started = performance.now();
  await sequence.evaluateWithoutGeneratingNewTokens(input);
  const seconds = (performance.now() - started) / 1000;
  await sequence.dispose();
  return { tokens: input.length, seconds };
}

export interface BenchGrammar {
  grammar: LlamaGrammar;
  /** The same GBNF for the matcher that ends answers and steers forced tokens, as the product does. */
  parsed: ParsedGrammar | null;
  steer: boolean;
}

/** Decode rate of one chat response through Lathe's decode loop, with or without a grammar, first token to last. */
export async function measureDecode(
  context: LlamaContext,
  history: ChatHistoryItem[],
  options: { grammar?: BenchGrammar; maxTokens: number; seed: number },
): Promise<DecodeRun> {
  const sequence = context.getSequence();
  const chat = new LlamaChat({ contextSequence: sequence });
  const model = sequence.model;
  const promptTokens = chat.chatWrapper
    .generateContextState({ chatHistory: history })
    .contextText.tokenize(model.tokenizer);
  const started = performance.now();
  let first: number | null = null;
  const answer = await decodeAnswer({
    sequence,
    model,
    promptTokens,
    grammar: options.grammar?.grammar,
    matcher: options.grammar?.parsed ? new GbnfMatcher(options.grammar.parsed) : null,
    steer: options.grammar?.steer ?? false,
    maxTokens: options.maxTokens,
    temperature: 0.8,
    seed: options.seed,
    onToken: () => {
      first ??= performance.now();
    },
  });
  const ended = performance.now();
  chat.dispose({ disposeSequence: true });
  const firstAt = first ?? ended;
  const decodeSeconds = (ended - firstAt) / 1000;
  const tokens = answer.tokens;
  return {
    tokens,
    steeredTokens: answer.steeredTokens,
    tokensPerSecond: decodeSeconds > 0 ? (tokens - 1) / decodeSeconds : 0,
    timeToFirstTokenMs: firstAt - started,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
