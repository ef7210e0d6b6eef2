import fs from 'node:fs';
import os from 'node:os';
import { getLlama, LlamaLogLevel, type Llama } from 'node-llama-cpp';
import { LatheError } from '../../../../shared/errors';

let shared: Promise<Llama> | null = null;
const recentLogs: string[] = [];

/**
 * The process-wide llama.cpp binding. `build: 'never'`: a machine without a matching prebuilt binary
 * gets a clear error at once instead of a silent multi-minute source build.
 */
export function sharedLlama(): Promise<Llama> {
  shared ??= getLlama({
    build: 'never',
    gpu: 'auto',
    usePrebuiltBinaries: true,
    skipDownload: true,
    progressLogs: false,
    logLevel: LlamaLogLevel.warn,
    logger: (level, message) => {
      recentLogs.push(`[${level}] ${message.trim()}`);
      if (recentLogs.length > 50) recentLogs.shift();
    },
  }).catch((error: unknown) => {
    shared = null;
    const detail = error instanceof Error ? error.message : String(error);
    throw new LatheError(
      'MODEL_LOAD_FAILED',
      `no usable llama.cpp binary for ${process.platform}-${process.arch} (${detail.split('\n')[0]}); Lathe never compiles llama.cpp at run time — reinstall so the prebuilt @node-llama-cpp package for this platform is present, or use an ollama:/openai: model`,
    );
  });
  return shared;
}

/** The last llama.cpp log lines, attached to load failures. */
export function recentLlamaLogs(): string[] {
  return [...recentLogs];
}

/**
 * Physical cores (hyper-threads share one core's math units, and node-llama-cpp's default of at least 4
 * threads oversubscribes small machines badly).
 */
export function physicalCoreCount(): number {
  try {
    const cpuinfo = fs.readFileSync('/proc/cpuinfo', 'utf8');
    const cores = new Set<string>();
    let physical = '0';
    for (const line of cpuinfo.split('\n')) {
      const [key, value] = line.split(':').map((part) => part.trim());
      if (key === 'physical id') physical = value ?? '0';
      if (key === 'core id') cores.add(`${physical}:${value}`);
    }
    if (cores.size > 0) return cores.size;
  } catch {
    // not Linux: fall back below
  }
  return Math.max(1, os.availableParallelism());
}

export function defaultThreads(llama: Llama): number {
  return Math.max(1, llama.cpuMathCores || physicalCoreCount());
}
