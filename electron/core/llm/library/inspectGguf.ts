import fs from 'node:fs';
import path from 'node:path';
import type { GgufFileInfo, Llama } from 'node-llama-cpp';
import type * as LlamaCpp from 'node-llama-cpp';
import { tensorBytes } from './tensorSizes';

/** One GGUF file as the model library lists it; `status: 'rejected'` always carries a reason. */
export interface ModelEntry {
  path: string;
  fileName: string;
  status: 'ok' | 'rejected';
  reason: string | null;
  sizeBytes: number;
  /** `general.name`, else the file name without `.gguf`. */
  name: string;
  architecture: string | null;
  parameters: number | null;
  /** `Q8_0`, `Q4_K_M`, `F16`, … from `general.file_type`, else the dominant tensor type. */
  quantization: string | null;
  contextLength: number | null;
  chatTemplate: string | null;
}

const SKIPPED_KEYS = [
  'tokenizer.ggml.tokens',
  'tokenizer.ggml.token_type',
  'tokenizer.ggml.merges',
  'tokenizer.ggml.scores',
];

/** Whether the bundled llama.cpp can run an architecture; null when the binary cannot be asked. */
export type ArchitectureCheck = (architecture: string) => boolean | null;

export interface InspectOptions {
  /** The process's llama.cpp binding; without it, node-llama-cpp loads its addon without a backend. */
  llama?: Llama;
  /** Replaces asking llama.cpp (tests). */
  isArchitectureSupported?: ArchitectureCheck;
}

/** Asks the bundled llama.cpp whether it knows the architecture; no model is loaded. */
async function bundledLlamaSupports(info: GgufFileInfo, llama: Llama | undefined): Promise<boolean | null> {
  try {
    const { GgufInsights } = await import('node-llama-cpp');
    return (await GgufInsights.from(info, llama)).isSupportedByLlamaCpp;
  } catch {
    // catch-ok: support unknown (null): loading the model says why it cannot
    return null;
  }
}

/** The GGUF header and tensor table, or why it cannot be read (cut off, or not parseable). */
async function readHeader(absolute: string, llamaCpp: typeof LlamaCpp): Promise<GgufFileInfo | { reason: string }> {
  try {
    return await llamaCpp.readGgufFileInfo(absolute, {
      sourceType: 'filesystem',
      logWarnings: false,
      ignoreKeys: SKIPPED_KEYS,
      spliceSplitFiles: false,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const truncated =
      /out of range|outside|beyond|end of (the )?(file|buffer)|ERR_OUT_OF_RANGE|RangeError/i.test(message) ||
      error instanceof RangeError;
    return {
      reason: truncated
        ? 'truncated: the file ends inside its header'
        : `unreadable GGUF header (${message.slice(0, 200)})`,
    };
  }
}

type Tensors = NonNullable<GgufFileInfo['tensorInfo']>;

/** What the header says of the model: architecture, name, context, chat template, size and quantization. */
function withHeaderFacts(
  entry: ModelEntry,
  info: GgufFileInfo,
  tensors: Tensors,
  llamaCpp: typeof LlamaCpp,
): ModelEntry {
  const general = info.metadata?.general;
  const trainContext = info.architectureMetadata?.context_length;
  const template = info.metadata?.tokenizer?.chat_template;
  return {
    ...entry,
    architecture: typeof general?.architecture === 'string' ? general.architecture : null,
    name: typeof general?.name === 'string' && general.name.trim() !== '' ? general.name.trim() : entry.name,
    contextLength: typeof trainContext === 'number' ? trainContext : null,
    chatTemplate: typeof template === 'string' ? template : null,
    parameters: tensors.reduce(
      (sum, tensor) => sum + tensor.dimensions.reduce<number>((product, dim) => product * Number(dim), 1),
      0,
    ),
    quantization: quantizationName(info, llamaCpp),
  };
}

/** The bytes the tensor table says the weights reach to. */
function weightsEnd(tensors: Tensors): number {
  return Math.max(
    ...tensors.map((tensor) => {
      const bytes = tensorBytes(tensor.ggmlType, tensor.dimensions) ?? 1;
      return Number(tensor.fileOffset) + bytes;
    }),
  );
}

/** Why the file cannot serve as a chat model, first reason first; null when it can. */
async function whyRejected(
  entry: ModelEntry,
  info: GgufFileInfo,
  tensors: Tensors,
  options: InspectOptions,
): Promise<string | null> {
  if (info.version < 2 || info.version > 3) return `unsupported GGUF version ${info.version}`;
  if (entry.architecture === null) return 'no general.architecture in the metadata';
  if (tensors.length === 0) return 'no weights (a vocabulary-only or adapter file)';
  if (tensors.some((tensor) => tensor.name === '' || tensor.dimensions.length === 0))
    return 'corrupt tensor table in the header';
  if (isSplitPart(entry.path, info)) return 'a later part of a split model; open the first part (-00001-of-…)';
  const needed = weightsEnd(tensors);
  if (needed > entry.sizeBytes && Number(info.splicedParts ?? 1) <= 1 && !/-00001-of-\d{5}\.gguf$/i.test(entry.path))
    return `truncated: the weights need ${needed} bytes but the file has ${entry.sizeBytes} (an unfinished download?)`;
  const supported = options.isArchitectureSupported
    ? options.isArchitectureSupported(entry.architecture)
    : await bundledLlamaSupports(info, options.llama);
  if (supported === false) return `architecture '${entry.architecture}' is not supported by the bundled llama.cpp`;
  if (/^(bert|nomic-bert|jina-bert|t5encoder)/.test(entry.architecture))
    return `'${entry.architecture}' is an embedding model, not a chat model`;
  return null;
}

/**
 * Reads a GGUF's metadata and tensor table without loading weights. Never throws: a file that is not a
 * GGUF, is truncated or is unusable comes back rejected with a reason a user can act on.
 */
export async function inspectGguf(filePath: string, options: InspectOptions = {}): Promise<ModelEntry> {
  const absolute = path.resolve(filePath);
  const entry: ModelEntry = {
    path: absolute,
    fileName: path.basename(absolute),
    status: 'rejected',
    reason: null,
    sizeBytes: 0,
    name: path.basename(absolute).replace(/\.gguf$/i, ''),
    architecture: null,
    parameters: null,
    quantization: null,
    contextLength: null,
    chatTemplate: null,
  };
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(absolute);
  } catch (error) {
    return { ...entry, reason: `cannot read the file (${errorCode(error)})` };
  }
  if (!stat.isFile()) return { ...entry, reason: 'not a regular file' };
  entry.sizeBytes = stat.size;
  const start = await readMagic(absolute);
  if ('errno' in start) return { ...entry, reason: `cannot read the file (${start.errno})` };
  if (start.magic !== 'GGUF')
    return { ...entry, reason: `not a GGUF file (it starts with ${JSON.stringify(start.magic)}, not "GGUF")` };
  const problem = fixedHeaderProblem(start.header, stat.size);
  if (problem) return { ...entry, reason: problem };

  // Loaded here, not at the top: importing node-llama-cpp costs half a second at every CLI start.
  const llamaCpp = await import('node-llama-cpp');
  const info = await readHeader(absolute, llamaCpp);
  if ('reason' in info) return { ...entry, reason: info.reason };
  // The reader pads a short read with zeros instead of failing, so check where the header ended.
  if ((info.infoEndOffset ?? 0) > stat.size)
    return { ...entry, reason: `truncated: the file ends inside its header (${stat.size} bytes)` };
  const tensors = info.fullTensorInfo ?? info.tensorInfo ?? [];
  const described = withHeaderFacts(entry, info, tensors, llamaCpp);
  const reason = await whyRejected(described, info, tensors, options);
  return reason === null ? { ...described, status: 'ok' } : { ...described, reason };
}

function quantizationName(info: GgufFileInfo, { GgufFileType, GgmlType }: typeof LlamaCpp): string | null {
  const fileType = info.metadata?.general?.file_type;
  if (typeof fileType === 'number' && GgufFileType[fileType] !== undefined) {
    return GgufFileType[fileType].replace(/^MOSTLY_/, '').replace(/^ALL_/, '');
  }
  const counts = new Map<number, number>();
  for (const tensor of info.tensorInfo ?? []) {
    const elements = tensor.dimensions.reduce<number>((product, dim) => product * Number(dim), 1);
    counts.set(tensor.ggmlType, (counts.get(tensor.ggmlType) ?? 0) + elements);
  }
  const dominant = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  return dominant === undefined ? null : (GgmlType[dominant] ?? null);
}

function isSplitPart(filePath: string, info: GgufFileInfo): boolean {
  const match = /-(\d{5})-of-(\d{5})\.gguf$/i.exec(filePath);
  const split: unknown = (info.metadata as unknown as Record<string, unknown>).split;
  const splitNo = typeof split === 'object' && split !== null && 'no' in split ? split.no : undefined;
  return (match !== null && match[1] !== '00001') || (typeof splitNo === 'number' && splitNo > 0);
}

/** The GGUF fixed header: magic, version, tensor count, metadata key count (24 bytes, little-endian). */
const FIXED_HEADER_BYTES = 24;
/** The least bytes one tensor entry (name length and a 1-byte name, dims, one dim, type, offset) and one key take. */
const MIN_TENSOR_ENTRY_BYTES = 8 + 1 + 4 + 8 + 4 + 8;
const MIN_KEY_BYTES = 8 + 1 + 4 + 1;

/**
 * Why the fixed header cannot start a readable GGUF, or null: node-llama-cpp's reader pads a short read
 * with zeros and trusts the counts, so an unknown version or counts the file cannot hold (a junk file
 * that happens to start with "GGUF") made it spin for minutes and gigabytes instead of failing.
 */
function fixedHeaderProblem(header: Buffer, sizeBytes: number): string | null {
  if (header.length < FIXED_HEADER_BYTES) return `truncated: the file ends inside its header (${sizeBytes} bytes)`;
  const version = header.readUInt32LE(4);
  if (version < 1 || version > 3) return `unsupported GGUF version ${version}`;
  const tensors = header.readBigUInt64LE(8);
  const keys = header.readBigUInt64LE(16);
  const least = tensors * BigInt(MIN_TENSOR_ENTRY_BYTES) + keys * BigInt(MIN_KEY_BYTES) + BigInt(FIXED_HEADER_BYTES);
  if (least > BigInt(sizeBytes))
    return `truncated: the header lists ${tensors} tensor(s) and ${keys} metadata key(s), more than a ${sizeBytes}-byte file can hold`;
  return null;
}

async function readMagic(filePath: string): Promise<{ magic: string; header: Buffer } | { errno: string }> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(filePath, 'r');
    const buffer = Buffer.alloc(FIXED_HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, FIXED_HEADER_BYTES, 0);
    const header = buffer.subarray(0, bytesRead);
    return { magic: header.subarray(0, 4).toString('latin1'), header };
  } catch (error) {
    // Said as the stat failure above is: EACCES, EIO…
    return { errno: errorCode(error) };
  } finally {
    await handle?.close();
  }
}

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : String(error);
}
