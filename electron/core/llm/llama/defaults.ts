/** The pool's defaults, apart from the pool so that reading them does not load node-llama-cpp. */
export const DEFAULT_CONTEXT_SIZE = 4096;
export const DEFAULT_IDLE_UNLOAD_MS = 10 * 60_000;
