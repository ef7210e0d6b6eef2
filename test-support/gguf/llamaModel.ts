import { buildByteBpeVocab, CHATML_TEMPLATE } from './byteBpeVocab';
import {
  meta,
  tensorByteLength,
  writeGgufFile,
  type GgmlTypeName,
  type GgufMetadataValue,
  type GgufTensor,
} from './ggufFile';
import { hashSeed, quantizeQ8_0, seededRandom, toFloat16Bits } from './quantize';

/** The shape of a llama-family decoder; the same writer makes the test model and the bench model. */
export interface LlamaShape {
  architecture: 'llama' | 'qwen2';
  name: string;
  vocabSize: number;
  embedding: number;
  layers: number;
  heads: number;
  kvHeads: number;
  feedForward: number;
  contextLength: number;
  /** Type of the 2-D weight matrices; norms and biases are always F32. */
  weightType: GgmlTypeName;
  /** Qwen2 ties the output head to the token embedding and has q/k/v biases. */
  tiedEmbeddings: boolean;
  seed: number;
}

/** ~0.5 MB, written in milliseconds: the model every inference test loads. */
export const TINY_LLAMA: LlamaShape = {
  architecture: 'llama',
  name: 'lathe-tiny-llama',
  vocabSize: 512,
  embedding: 64,
  layers: 2,
  heads: 4,
  kvHeads: 2,
  feedForward: 128,
  contextLength: 2048,
  weightType: 'F32',
  tiedEmbeddings: false,
  seed: 1,
};

/** Qwen2-0.5B's published shape, Q8_0: what a user's smallest real model costs on this CPU. */
export const QWEN2_0_5B: LlamaShape = {
  architecture: 'qwen2',
  name: 'lathe-bench-qwen2-0.5b-shaped',
  vocabSize: 151936,
  embedding: 896,
  layers: 24,
  heads: 14,
  kvHeads: 2,
  feedForward: 4864,
  contextLength: 32768,
  weightType: 'Q8_0',
  tiedEmbeddings: true,
  seed: 2,
};

const FILE_TYPE: Record<GgmlTypeName, number> = { F32: 0, F16: 1, Q8_0: 7 };

function randomTensor(shape: LlamaShape, name: string, dims: number[], type: GgmlTypeName, scale: number): GgufTensor {
  return {
    name,
    dims,
    type,
    writeData(sink) {
      const random = seededRandom(hashSeed(name, shape.seed));
      const rowLength = dims[0] ?? 1;
      const rows = dims.slice(1).reduce((product, dim) => product * dim, 1);
      const rowsPerChunk = Math.max(1, Math.floor((1 << 20) / rowLength));
      const values = new Float32Array(rowLength * rowsPerChunk);
      for (let row = 0; row < rows; row += rowsPerChunk) {
        const count = Math.min(rowsPerChunk, rows - row) * rowLength;
        const chunk = values.subarray(0, count);
        // Uniform in [-scale·√3, scale·√3]: standard deviation `scale`.
        for (let i = 0; i < count; i++) chunk[i] = (random() * 2 - 1) * scale * 1.7320508;
        sink(encode(chunk, type));
      }
    },
  };
}

function constantTensor(name: string, dims: number[], value: number): GgufTensor {
  return {
    name,
    dims,
    type: 'F32',
    writeData(sink) {
      sink(new Uint8Array(new Float32Array(dims.reduce((p, d) => p * d, 1)).fill(value).buffer));
    },
  };
}

function encode(values: Float32Array, type: GgmlTypeName): Uint8Array {
  if (type === 'F32')
    return new Uint8Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength));
  if (type === 'F16') {
    const out = new Uint16Array(values.length);
    for (let i = 0; i < values.length; i++) out[i] = toFloat16Bits(values[i] ?? 0);
    return new Uint8Array(out.buffer);
  }
  const out = new Uint8Array(tensorByteLength([values.length], 'Q8_0'));
  quantizeQ8_0(values, out);
  return out;
}

export function llamaMetadata(shape: LlamaShape): Array<[string, GgufMetadataValue]> {
  const vocab = buildByteBpeVocab(shape.vocabSize);
  const arch = shape.architecture;
  return [
    ['general.architecture', meta.str(arch)],
    ['general.name', meta.str(shape.name)],
    ['general.file_type', meta.u32(FILE_TYPE[shape.weightType])],
    ['general.quantization_version', meta.u32(2)],
    [`${arch}.context_length`, meta.u32(shape.contextLength)],
    [`${arch}.embedding_length`, meta.u32(shape.embedding)],
    [`${arch}.block_count`, meta.u32(shape.layers)],
    [`${arch}.feed_forward_length`, meta.u32(shape.feedForward)],
    [`${arch}.attention.head_count`, meta.u32(shape.heads)],
    [`${arch}.attention.head_count_kv`, meta.u32(shape.kvHeads)],
    [`${arch}.attention.layer_norm_rms_epsilon`, meta.f32(1e-6)],
    [`${arch}.rope.freq_base`, meta.f32(1_000_000)],
    ['tokenizer.ggml.model', meta.str('gpt2')],
    ['tokenizer.ggml.pre', meta.str('qwen2')],
    ['tokenizer.ggml.tokens', meta.strings(vocab.tokens)],
    ['tokenizer.ggml.token_type', meta.i32s(vocab.tokenTypes)],
    ['tokenizer.ggml.merges', meta.strings(vocab.merges)],
    ['tokenizer.ggml.bos_token_id', meta.u32(vocab.specialIds.endOfText)],
    ['tokenizer.ggml.eos_token_id', meta.u32(vocab.specialIds.imEnd)],
    ['tokenizer.ggml.padding_token_id', meta.u32(vocab.specialIds.endOfText)],
    ['tokenizer.ggml.add_bos_token', meta.bool(false)],
    ['tokenizer.chat_template', meta.str(CHATML_TEMPLATE)],
  ];
}

export function llamaTensors(shape: LlamaShape): GgufTensor[] {
  const { embedding: n, feedForward: ff, vocabSize: vocab, weightType: type } = shape;
  const headDim = n / shape.heads;
  const kv = headDim * shape.kvHeads;
  const tensors: GgufTensor[] = [randomTensor(shape, 'token_embd.weight', [n, vocab], type, 2 / Math.sqrt(n))];
  for (let layer = 0; layer < shape.layers; layer++) {
    const blk = `blk.${layer}`;
    tensors.push(
      constantTensor(`${blk}.attn_norm.weight`, [n], 1),
      randomTensor(shape, `${blk}.attn_q.weight`, [n, n], type, 1 / Math.sqrt(n)),
      randomTensor(shape, `${blk}.attn_k.weight`, [n, kv], type, 1 / Math.sqrt(n)),
      randomTensor(shape, `${blk}.attn_v.weight`, [n, kv], type, 1 / Math.sqrt(n)),
      randomTensor(shape, `${blk}.attn_output.weight`, [n, n], type, 1 / Math.sqrt(n)),
      constantTensor(`${blk}.ffn_norm.weight`, [n], 1),
      randomTensor(shape, `${blk}.ffn_gate.weight`, [n, ff], type, 1 / Math.sqrt(n)),
      randomTensor(shape, `${blk}.ffn_up.weight`, [n, ff], type, 1 / Math.sqrt(n)),
      randomTensor(shape, `${blk}.ffn_down.weight`, [ff, n], type, 1 / Math.sqrt(ff)),
    );
    if (shape.architecture === 'qwen2') {
      tensors.push(
        randomTensor(shape, `${blk}.attn_q.bias`, [n], 'F32', 0.02),
        randomTensor(shape, `${blk}.attn_k.bias`, [kv], 'F32', 0.02),
        randomTensor(shape, `${blk}.attn_v.bias`, [kv], 'F32', 0.02),
      );
    }
  }
  tensors.push(constantTensor('output_norm.weight', [n], 1));
  if (!shape.tiedEmbeddings) tensors.push(randomTensor(shape, 'output.weight', [n, vocab], type, 2 / Math.sqrt(n)));
  return tensors;
}

/** Writes a loadable llama-family GGUF with deterministic weights; returns its size in bytes. */
export function writeLlamaGguf(filePath: string, shape: LlamaShape = TINY_LLAMA): number {
  return writeGgufFile(filePath, llamaMetadata(shape), llamaTensors(shape));
}
