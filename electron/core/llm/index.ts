/** Lathe's local inference layer: the engine talks to models only through `createModelRouter`. */
export * from './types';
export { createSharedModelPool, type SharedModelPool } from './sharedPool';
export {
  createModelRouter,
  type LatheModelRouter,
  type LatheModelRouterOptions,
  type LlamaRouterTuning,
} from './router';
export {
  parseModelSpec,
  isLoopbackHost,
  isBareOracleSpec,
  oracleSpecFor,
  expandHome,
  specFilePath,
  OLLAMA_BASE_URL,
  type ModelSpec,
  type ModelSpecProblem,
  type ModelSpecResult,
  type ParseSpecOptions,
} from './modelSpec';
export { loadGoldPatch, parseGoldPatch, type GoldPatch, type GoldPatchResult } from './oracle/goldPatch';
export {
  assertBoundedSchema,
  findUnboundedFields,
  grammarForSchema,
  compileJsonSchemaGrammar,
  zodToJsonSchema,
  type CompiledGrammar,
} from './grammar';
export { inspectGguf, type ModelEntry, type ArchitectureCheck, type InspectOptions } from './library/inspectGguf';
export { scanModelFolders, defaultModelFolders, importModel, type ImportOptions } from './library/modelLibrary';
export { parseReplayFile, type ReplayEntry } from './providers/replayFile';
export { CONTEXT_MARKER, fitContext, insertContext, type FitOptions, type FitResult } from './contextFit';
export { physicalCoreCount } from './llama/cores';
export { DEFAULT_CONTEXT_SIZE, DEFAULT_IDLE_UNLOAD_MS } from './llama/defaults';
export { DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE } from './providers/provider';
