import fs from 'node:fs';
import { LlamaChat, type LlamaContext, type LlamaGrammar, type LlamaModel, type Token } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { writeTinyModel } from '../../../../test-support/gguf';
import { makeTempDir } from '../../../../test-support/tempRepo';
import { grammarForSchema } from '../grammar';
import { GbnfMatcher } from '../grammar/gbnfMatcher';
import { parseGbnf, type ParsedGrammar } from '../grammar/gbnfParser';
import { decodeAnswer, type DecodeRequest } from './decodeAnswer';
import { sharedLlama } from './runtime';

// The real node-llama-cpp path on a generated model with random weights: which tokens it samples depends
// on the CPU's arithmetic, so these tests assert shapes and counts that hold for any sampled token.

const dir = makeTempDir('lathe-decode-');
let model: LlamaModel;
let context: LlamaContext;

/** Every character is fixed but the layout: what steering can pick almost all of. */
const Fixed = z.object({
  status: z.literal('done'),
  code: z.literal(3),
  tags: z.tuple([z.literal('a'), z.literal('b')]),
});
let fixed: { grammar: LlamaGrammar; parsed: ParsedGrammar };

beforeAll(async () => {
  const llama = await sharedLlama();
  model = await llama.loadModel({ modelPath: writeTinyModel(dir).modelPath });
  context = await model.createContext({ contextSize: 512, sequences: 1, threads: 1 });
  const { gbnf } = grammarForSchema(Fixed);
  const parsed = parseGbnf(gbnf);
  if (!parsed.ok) throw new Error(parsed.message);
  fixed = { grammar: await llama.createGrammar({ grammar: gbnf }), parsed: parsed.grammar };
});
afterAll(async () => {
  await context.dispose();
  await model.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function decode(options: Partial<DecodeRequest> & { steer: boolean }, question = 'Report.') {
  const sequence = context.getSequence();
  const chat = new LlamaChat({ contextSequence: sequence });
  const promptTokens = chat.chatWrapper
    .generateContextState({
      chatHistory: [
        { type: 'system', text: 'Answer with JSON only.' },
        { type: 'user', text: question },
        { type: 'model', response: [] },
      ],
    })
    .contextText.tokenize(model.tokenizer);
  const chunks: string[] = [];
  const tokens: Token[] = [];
  try {
    const answer = await decodeAnswer({
      sequence,
      model,
      promptTokens,
      grammar: fixed.grammar,
      matcher: new GbnfMatcher(fixed.parsed),
      maxTokens: 64,
      temperature: 0.8,
      seed: 5,
      onToken: (token) => tokens.push(token),
      onTextChunk: (chunk) => chunks.push(chunk),
      ...options,
    });
    return { answer, chunks, tokens, inputTokens: sequence.tokenMeter.usedInputTokens };
  } finally {
    chat.dispose({ disposeSequence: true });
  }
}

describe('decodeAnswer on a real model', () => {
  it('steers the forced tokens, ends where the grammar ends, and streams exactly the answer', async () => {
    const { answer, chunks, tokens } = await decode({ steer: true });
    expect(JSON.parse(answer.text)).toEqual({ status: 'done', code: 3, tags: ['a', 'b'] });
    expect(answer.stopReason).toBe('grammarComplete');
    expect(chunks.join('')).toBe(answer.text);
    expect(answer.tokens).toBe(tokens.length);
    // All but the first layout choice (and the layout-free first tokens) is forced.
    expect(answer.steeredTokens).toBeGreaterThan(answer.tokens / 2);
    expect(answer.steeredTokens).toBeLessThanOrEqual(answer.tokens);
  });

  it('without steering gives an answer of the same meaning, every token sampled', async () => {
    const { answer } = await decode({ steer: false });
    expect(JSON.parse(answer.text)).toEqual({ status: 'done', code: 3, tags: ['a', 'b'] });
    expect(answer.steeredTokens).toBe(0);
    expect(answer.stopReason).toBe('grammarComplete');
  });

  it('stops at maxTokens and on abort, keeping the text so far', async () => {
    const short = await decode({ steer: true, maxTokens: 3 });
    expect(short.answer).toMatchObject({ stopReason: 'maxTokens', tokens: 3 });
    expect(short.chunks.join('')).toBe(short.answer.text);
    const controller = new AbortController();
    const stopped = await decode({ steer: true, signal: controller.signal, onToken: () => controller.abort() });
    expect(stopped.answer).toMatchObject({ stopReason: 'abort', tokens: 1 });
  });

  it('without a grammar it runs until maxTokens or the end-of-generation token', async () => {
    const { answer } = await decode({ steer: true, grammar: undefined, matcher: null, maxTokens: 12 });
    expect(['maxTokens', 'eogToken']).toContain(answer.stopReason);
    expect(answer.steeredTokens).toBe(0);
    expect(answer.tokens).toBeLessThanOrEqual(12);
  });

  it('evaluates only what follows the prefix already in the sequence', async () => {
    const sequence = context.getSequence();
    const chat = new LlamaChat({ contextSequence: sequence });
    try {
      const prompt = (question: string) =>
        chat.chatWrapper
          .generateContextState({
            chatHistory: [
              { type: 'system', text: 'Answer with JSON only. '.repeat(10) },
              { type: 'user', text: question },
              { type: 'model', response: [] },
            ],
          })
          .contextText.tokenize(model.tokenizer);
      const base = { sequence, model, grammar: fixed.grammar, steer: true, maxTokens: 64, temperature: 0.8, seed: 1 };
      const first = prompt('First question?');
      await decodeAnswer({ ...base, promptTokens: first, matcher: new GbnfMatcher(fixed.parsed) });
      const afterFirst = sequence.tokenMeter.usedInputTokens;
      const second = prompt('Second question?');
      const answer = await decodeAnswer({ ...base, promptTokens: second, matcher: new GbnfMatcher(fixed.parsed) });
      const shared = second.findIndex((token, index) => token !== first[index]);
      expect(shared).toBeGreaterThan(20);
      // Only the prompt after the shared prefix is evaluated again (the meter counts the answer apart).
      const evaluated = sequence.tokenMeter.usedInputTokens - afterFirst;
      expect(evaluated).toBeGreaterThan(0);
      expect(evaluated).toBeLessThanOrEqual(second.length - shared);
      expect(answer.tokens).toBeGreaterThan(0);
    } finally {
      chat.dispose({ disposeSequence: true });
    }
  });
});
