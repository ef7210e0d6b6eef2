import type { LlamaModelPool } from './llama/modelPool';

/**
 * One model pool for several routers in a process (the window's runs, `lathe eval --jobs`): a file
 * is loaded once however many runs use it, each run's roles keep their own contexts, and the runs'
 * evaluations share the machine's threads (node-llama-cpp splits `maxThreads` among contexts that
 * evaluate at once). node-llama-cpp is loaded on first use only.
 */
export interface SharedModelPool {
  pool(): Promise<LlamaModelPool>;
  dispose(): Promise<void>;
}

export function createSharedModelPool(options: { threads?: number; idleUnloadMs?: number } = {}): SharedModelPool {
  let pool: Promise<LlamaModelPool> | null = null;
  return {
    pool: () =>
      (pool ??= import('./llama/modelPool').then(
        ({ LlamaModelPool }) =>
          new LlamaModelPool({ threads: options.threads, idleUnloadMs: options.idleUnloadMs, emit: () => {} }),
      )),
    async dispose() {
      if (pool) await (await pool).dispose();
    },
  };
}
