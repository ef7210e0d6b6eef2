import { getLlama, LlamaLogLevel, type Llama } from 'node-llama-cpp';
import { LatheError } from '../../../../shared/errors';
import { physicalCoreCount } from './cores';

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
    // Every context's evaluation shares these (node-llama-cpp splits them among contexts evaluating
    // at once): its default of at least 4 oversubscribes a 2-core machine when two runs generate.
    maxThreads: physicalCoreCount(),
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

/** A context asking for more threads than the shared budget (an explicit `threads`) raises the budget. */
export function reserveThreads(llama: Llama, threads: number): void {
  if (llama.maxThreads !== 0 && threads > llama.maxThreads) llama.maxThreads = threads;
}

export function defaultThreads(llama: Llama): number {
  return Math.max(1, llama.cpuMathCores || physicalCoreCount());
}
