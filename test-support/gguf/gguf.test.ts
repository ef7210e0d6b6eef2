import fs from 'node:fs';
import path from 'node:path';
import {
  getLlama,
  LlamaLogLevel,
  readGgufFileInfo,
  type ControlledEvaluateInputItem,
  type LlamaContextSequence,
  type LlamaModel,
} from 'node-llama-cpp';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../tempRepo';
import { buildByteBpeVocab, byteToUnicodeTable } from './byteBpeVocab';
import { writeGgufFile, meta } from './ggufFile';
import { QWEN2_0_5B, TINY_LLAMA, llamaTensors, writeLlamaGguf } from './llamaModel';
import { dequantizeQ8_0, fromFloat16Bits, quantizeQ8_0, toFloat16Bits } from './quantize';

/** The model's probabilities for the token after `prompt`, by token id. */
async function nextTokenDistribution(
  model: LlamaModel,
  sequence: LlamaContextSequence,
  prompt: string,
): Promise<Map<number, number>> {
  const tokens = model.tokenize(prompt);
  const input: ControlledEvaluateInputItem[] = tokens.map((token, index) =>
    index === tokens.length - 1 ? [token, { generateNext: { probabilities: true } }] : token,
  );
  const output = await sequence.controlledEvaluate(input);
  const probabilities = output[tokens.length - 1]?.next?.probabilities;
  if (!probabilities) throw new Error('no next-token probabilities');
  return new Map([...probabilities].map(([token, p]) => [Number(token), p]));
}

const dir = makeTempDir('lathe-gguf-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('half floats', () => {
  it.each([
    [0, 0x0000],
    [-0, 0x8000],
    [1, 0x3c00],
    [-2, 0xc000],
    [65504, 0x7bff],
    [65520, 0x7c00],
    [2 ** -24, 0x0001],
    [2 ** -14, 0x0400],
    [0.1, 0x2e66],
    [1 + 2 ** -11, 0x3c00],
    [1 + 3 * 2 ** -11, 0x3c02],
    [Infinity, 0x7c00],
  ])('encodes %s as %s (round to nearest even)', (value, bits) => {
    expect(toFloat16Bits(value)).toBe(bits);
  });

  it('round-trips every finite half value', () => {
    for (let bits = 0; bits < 0x7c00; bits += 7) expect(toFloat16Bits(fromFloat16Bits(bits))).toBe(bits);
  });
});

describe('Q8_0 blocks', () => {
  it('stores d = max|x| / 127 as f16, then round-half-away-from-zero int8 quants', () => {
    const values = new Float32Array(32);
    values[0] = 1.27;
    values[1] = -1.27;
    values[2] = 0.025;
    values[3] = -0.025;
    const out = new Uint8Array(34);
    quantizeQ8_0(values, out);
    const view = new DataView(out.buffer);
    expect(view.getUint16(0, true)).toBe(toFloat16Bits(Math.fround(1.27 / 127)));
    expect([view.getInt8(2), view.getInt8(3), view.getInt8(4), view.getInt8(5), view.getInt8(6)]).toEqual([
      127, -127, 3, -3, 0,
    ]);
  });

  it('reconstructs data within half a quantization step plus the f16 rounding of the scale', () => {
    const values = new Float32Array(64 * 32).map((_, i) => Math.sin(i * 12.9898) * (1 + (i % 7)));
    const out = new Uint8Array((values.length / 32) * 34);
    quantizeQ8_0(values, out);
    const back = dequantizeQ8_0(out, values.length);
    for (let block = 0; block < values.length / 32; block++) {
      const slice = values.subarray(block * 32, block * 32 + 32);
      const step = Math.max(...slice.map(Math.abs)) / 127;
      const stored = fromFloat16Bits(toFloat16Bits(step));
      const bound = 0.5 * step + 127 * Math.abs(stored - step) + 1e-6;
      for (let j = 0; j < 32; j++)
        expect(Math.abs((back[block * 32 + j] ?? 0) - (slice[j] ?? 0))).toBeLessThanOrEqual(bound);
    }
  });

  it('leaves an all-zero block at d = 0', () => {
    const out = new Uint8Array(34).fill(9);
    quantizeQ8_0(new Float32Array(32), out);
    expect([...out]).toEqual(new Array<number>(34).fill(0));
  });
});

describe('byte-level BPE vocabulary', () => {
  it('has a token for every byte, valid merges in order, and the ChatML specials', () => {
    const vocab = buildByteBpeVocab(600);
    expect(vocab.tokens).toHaveLength(600);
    expect(new Set(vocab.tokens).size).toBe(600);
    expect(vocab.tokens.slice(0, 256)).toEqual(byteToUnicodeTable());
    const position = new Map(vocab.tokens.map((token, index) => [token, index]));
    for (const merge of vocab.merges) {
      const [left, right] = merge.split(' ');
      const merged = position.get(`${left}${right}`);
      expect(merged).toBeDefined();
      expect(position.get(left ?? '')).toBeLessThan(merged ?? 0);
      expect(position.get(right ?? '')).toBeLessThan(merged ?? 0);
    }
    expect(vocab.tokens.slice(-3)).toEqual(['<|endoftext|>', '<|im_start|>', '<|im_end|>']);
    expect(vocab.tokenTypes.slice(-3)).toEqual([3, 3, 3]);
    expect(vocab.merges[0]).toBe('Ġ Ġ');
  });

  it('reaches the Qwen2 vocabulary size', () => {
    const vocab = buildByteBpeVocab(QWEN2_0_5B.vocabSize);
    expect(vocab.tokens).toHaveLength(151_936);
    expect(vocab.merges).toHaveLength(151_936 - 256 - 3);
  });
});

describe('GGUF files', () => {
  it('writes the tiny llama model (~0.5 MB) that node-llama-cpp reads back, byte-identical on every run', async () => {
    const first = path.join(dir, 'a.gguf');
    const second = path.join(dir, 'b.gguf');
    const size = writeLlamaGguf(first, TINY_LLAMA);
    writeLlamaGguf(second, TINY_LLAMA);
    expect(size).toBe(fs.statSync(first).size);
    expect(size).toBeGreaterThan(400_000);
    expect(size).toBeLessThan(700_000);
    expect(fs.readFileSync(first).equals(fs.readFileSync(second))).toBe(true);

    const info = await readGgufFileInfo(first, { sourceType: 'filesystem', logWarnings: false });
    expect(info.version).toBe(3);
    expect(info.metadata.general.architecture).toBe('llama');
    expect(info.metadata.tokenizer.ggml.model).toBe('gpt2');
    expect(info.metadata.tokenizer.ggml.tokens).toHaveLength(TINY_LLAMA.vocabSize);
    expect(info.metadata.tokenizer.chat_template).toContain("'<|im_start|>assistant\\n'");
    const names = (info.tensorInfo ?? []).map((tensor) => tensor.name);
    expect(names).toEqual(llamaTensors(TINY_LLAMA).map((tensor) => tensor.name));
    for (const tensor of info.tensorInfo ?? []) expect(Number(tensor.fileOffset) % 32).toBe(0);
  });

  it('lays out Q8_0 tensors at 34 bytes per 32 weights, with qwen2 biases and tied embeddings', () => {
    const shape = { ...QWEN2_0_5B, vocabSize: 300, embedding: 64, feedForward: 96, layers: 1, heads: 4, kvHeads: 2 };
    const file = path.join(dir, 'q8.gguf');
    const size = writeLlamaGguf(file, shape);
    const names = llamaTensors(shape).map((tensor) => tensor.name);
    expect(names).toContain('blk.0.attn_q.bias');
    expect(names).not.toContain('output.weight');
    const weights = ((64 * 300 + 64 * 64 * 2 + 64 * 32 * 2 + 64 * 96 * 3) / 32) * 34;
    expect(size).toBeGreaterThan(weights);
  });

  // Greedy text is not comparable across quantizations: llama.cpp's AVX2 and AVX-512 kernels round
  // differently, so a near-tie between two tokens can flip on one CPU (an EPYC gave "miac1" where F32 gave
  // "miac v"). What must hold on every CPU is that the next-token distributions nearly agree.
  it(
    'writes Q8_0 and F16 weights llama.cpp reads as the same model as F32 (next-token distributions agree)',
    { timeout: 60_000 },
    async () => {
      const shape = {
        ...QWEN2_0_5B,
        vocabSize: 600,
        embedding: 128,
        feedForward: 256,
        layers: 2,
        heads: 4,
        kvHeads: 2,
        contextLength: 512,
      };
      const llama = await getLlama({ build: 'never', gpu: false, logLevel: LlamaLogLevel.error });
      const prompts = [
        'the cat sat',
        'numbers 1 2 3',
        'hello world',
        'function foo',
        'alpha beta',
        'zz top',
        'import os',
        'why not',
      ];
      const distributions = async (weightType: 'F32' | 'F16' | 'Q8_0') => {
        const file = path.join(dir, `same-${weightType}.gguf`);
        writeLlamaGguf(file, { ...shape, weightType });
        const model = await llama.loadModel({ modelPath: file });
        const context = await model.createContext({ contextSize: 256, threads: 1 });
        const sequence = context.getSequence();
        const result: Map<number, number>[] = [];
        for (const prompt of prompts) {
          await sequence.clearHistory();
          result.push(await nextTokenDistribution(model, sequence, prompt));
        }
        await context.dispose();
        await model.dispose();
        return result;
      };
      const totalVariation = (a: Map<number, number>, b: Map<number, number>) => {
        let sum = 0;
        for (const token of new Set([...a.keys(), ...b.keys()]))
          sum += Math.abs((a.get(token) ?? 0) - (b.get(token) ?? 0));
        return sum / 2;
      };
      const top = (distribution: Map<number, number>, count: number) =>
        [...distribution]
          .sort((x, y) => y[1] - x[1])
          .slice(0, count)
          .map(([token]) => token);
      const reference = await distributions('F32');
      // The model is not degenerate: different prompts lead to different most likely tokens.
      expect(new Set(reference.map((distribution) => top(distribution, 1)[0])).size).toBeGreaterThan(3);
      for (const weightType of ['F16', 'Q8_0'] as const) {
        const other = await distributions(weightType);
        other.forEach((distribution, index) => {
          const expected = reference[index] as Map<number, number>;
          expect(totalVariation(expected, distribution), `${weightType}, prompt ${index}`).toBeLessThan(0.05);
          expect(top(distribution, 3), `${weightType}, prompt ${index}`).toContain(top(expected, 1)[0]);
        });
      }
    },
  );

  it(
    'a model with other weights gives other next-token distributions (the comparison above can fail)',
    { timeout: 60_000 },
    async () => {
      const shape = {
        ...QWEN2_0_5B,
        vocabSize: 600,
        embedding: 128,
        feedForward: 256,
        layers: 2,
        heads: 4,
        kvHeads: 2,
        contextLength: 512,
      };
      const llama = await getLlama({ build: 'never', gpu: false, logLevel: LlamaLogLevel.error });
      const firstDistribution = async (file: string, seed: number | undefined) => {
        writeLlamaGguf(file, { ...shape, weightType: 'F32', ...(seed === undefined ? {} : { seed }) });
        const model = await llama.loadModel({ modelPath: file });
        const context = await model.createContext({ contextSize: 256, threads: 1 });
        const distribution = await nextTokenDistribution(model, context.getSequence(), 'the cat sat');
        await context.dispose();
        await model.dispose();
        return distribution;
      };
      const a = await firstDistribution(path.join(dir, 'seed-default.gguf'), undefined);
      const b = await firstDistribution(path.join(dir, 'seed-other.gguf'), 12345);
      let sum = 0;
      for (const token of new Set([...a.keys(), ...b.keys()]))
        sum += Math.abs((a.get(token) ?? 0) - (b.get(token) ?? 0));
      expect(sum / 2).toBeGreaterThan(0.05);
    },
  );

  it('refuses Q8_0 rows that are not a multiple of 32', () => {
    expect(() =>
      writeGgufFile(
        path.join(dir, 'bad.gguf'),
        [['general.architecture', meta.str('llama')]],
        [{ name: 't', dims: [20, 2], type: 'Q8_0', writeData: () => undefined }],
      ),
    ).toThrow(/multiple of 32/);
  });
});
