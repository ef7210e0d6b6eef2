import fs from 'node:fs';
import path from 'node:path';
import { TINY_LLAMA, writeLlamaGguf, type LlamaShape } from './llamaModel';

export interface TinyModelFiles {
  modelPath: string;
  sizeBytes: number;
}

/** Writes the tiny llama GGUF into `dir` (created if needed). */
export function writeTinyModel(
  dir: string,
  fileName = 'tiny-llama.gguf',
  shape: LlamaShape = TINY_LLAMA,
): TinyModelFiles {
  fs.mkdirSync(dir, { recursive: true });
  const modelPath = path.join(dir, fileName);
  const sizeBytes = writeLlamaGguf(modelPath, shape);
  return { modelPath, sizeBytes };
}

/** A file named .gguf that is not one: what a half-finished download or a renamed file looks like. */
export function writeJunkGguf(dir: string, fileName = 'junk.gguf'): string {
  fs.mkdirSync(dir, { recursive: true });
  const junkPath = path.join(dir, fileName);
  fs.writeFileSync(junkPath, 'this is not a model\n'.repeat(20));
  return junkPath;
}

/** A copy of `modelPath` cut to `fraction` of its length: a truncated download. */
export function writeTruncatedCopy(modelPath: string, targetPath: string, fraction = 0.6): string {
  const bytes = fs.readFileSync(modelPath);
  fs.writeFileSync(targetPath, bytes.subarray(0, Math.floor(bytes.length * fraction)));
  return targetPath;
}
