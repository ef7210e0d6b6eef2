import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QWEN2_0_5B, writeLlamaGguf } from '../../test-support/gguf';

/** Bump when the generator's output changes, so a stale cached file is rewritten. */
const GENERATOR_VERSION = 1;

export function benchCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.LATHE_BENCH_CACHE ? path.resolve(env.LATHE_BENCH_CACHE) : path.join(os.homedir(), '.cache', 'lathe-bench');
}

/**
 * The 0.5B-Qwen2-shaped Q8_0 GGUF (deterministic weights), written once outside the repository and
 * reused. Written to a temporary name and renamed, so an interrupted write never leaves a bad cache.
 */
export function ensureBenchModel(log: (line: string) => void): { modelPath: string; writtenMs: number | null } {
  const dir = benchCacheDir();
  const modelPath = path.join(dir, `qwen2-0.5b-shaped-q8_0-v${GENERATOR_VERSION}.gguf`);
  if (fs.existsSync(modelPath)) return { modelPath, writtenMs: null };
  fs.mkdirSync(dir, { recursive: true });
  log(`writing ${modelPath} (once; about 530 MB)…`);
  const started = Date.now();
  const partial = `${modelPath}.partial-${process.pid}`;
  try {
    writeLlamaGguf(partial, QWEN2_0_5B);
    fs.renameSync(partial, modelPath);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return { modelPath, writtenMs: Date.now() - started };
}
