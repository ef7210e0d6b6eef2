import path from 'node:path';
import type { GateMode } from '../../../shared/schemas/gates';
import type { RunConfig } from '../../../shared/engine/runConfig';
import type { RunState } from '../../../shared/engine/runState';
import { runTokenCounts, type TokenCounts } from '../../../shared/engine/tokenCounts';
import type { RunLogEvent } from '../../../shared/schemas/run';
import { resolveRunConfig, type ConfigOverrides } from '../config/resolveConfig';
import { createEngineEnv } from '../engine/defaultDeps';
import type { EngineDeps } from '../engine/engineDeps';
import { startRun, type EngineEnv } from '../engine/runner';
import { approveReviewedGate } from '../engine/runSession';
import { type TransientEvent } from '../../../shared/schemas/run';
import type { SharedModelPool } from '../llm/sharedPool';
import { RunOperations } from '../runs/runOperations';
import { copyTree } from './files';
import { runHead } from './taskRepo';

/** The settings both eval drivers (the bundled suite, a corpus task) read the same way. */
export interface EvalRunSettings {
  appRoot: string;
  workflow: string;
  /** `--config FILE`: layered over each task repository's configuration (e.g. another edit format). */
  configFile?: string;
  timeLimitMs: number | null;
  threads?: number;
  signal?: AbortSignal;
  retryBackoffMs?: number;
  deps?: EngineDeps;
  onRunEvent?: (taskId: string, event: RunLogEvent) => void;
  onTransient?: (taskId: string, event: TransientEvent) => void;
}

export function modelForTask(spec: string, taskId: string): string {
  return spec.replaceAll('{task}', taskId);
}

/** Nobody is there to answer a human gate during an eval: the Supervisor decides instead. */
export function unattendedGates(config: RunConfig): RunConfig {
  const gates = Object.fromEntries(
    Object.entries(config.gates).map(([kind, mode]) => [kind, mode === 'human' || mode === 'both' ? 'auto' : mode]),
  ) as Record<keyof RunConfig['gates'], GateMode>;
  return { ...config, gates };
}

/** A task repository's configuration under the app defaults and `--config`, with the driver's overrides and no human gate. */
export function evalRunConfig(
  settings: EvalRunSettings,
  repoDir: string,
  overrides: Omit<ConfigOverrides, 'workflow'>,
): RunConfig {
  const config = resolveRunConfig(
    {
      defaultsFile: path.join(settings.appRoot, 'resources', 'defaults.yaml'),
      repoRoot: repoDir,
      configFile: settings.configFile,
    },
    { workflow: settings.workflow, ...overrides },
  );
  return unattendedGates(config);
}

export interface EvalRunRequest {
  taskId: string;
  repoDir: string;
  /** The commit the run starts from: the head of a run that committed nothing. */
  baseCommit: string;
  goal: string;
  config: RunConfig;
  /** Verifier artifacts and the rest of the engine's scratch space. */
  dataDir: string;
  /** Where the run folder is copied once the run ends; null keeps no copy. */
  copyTo: string | null;
  /** In place of `settings.deps` (a driver may wrap them). */
  deps?: EngineDeps;
  sharedPool?: SharedModelPool;
}

export interface EvalRun {
  env: EngineEnv;
  state: RunState;
  runDir: string;
  /** The run branch's head, or the base commit where the run left no branch. */
  head: string;
  wallMs: number;
  tokens: TokenCounts;
  /** Takes the run branch away so the repository is as before; false where the run made no workspace. */
  undo: () => Promise<boolean>;
}

/** One real run for an eval driver: the engine env, the run, its folder copied and its head found; judging is the driver's. */
export async function startEvalRun(settings: EvalRunSettings, request: EvalRunRequest): Promise<EvalRun> {
  const env = createEngineEnv({
    appRoot: settings.appRoot,
    dataDir: request.dataDir,
    signal: settings.signal,
    threads: settings.threads,
    retryBackoffMs: settings.retryBackoffMs,
    deps: request.deps ?? settings.deps,
    sharedPool: request.sharedPool,
    callbacks: {
      onEvent: (event) => settings.onRunEvent?.(request.taskId, event),
      onTransient: (event) => settings.onTransient?.(request.taskId, event),
      // The gates are never human here (unattendedGates); this only keeps a run from hanging.
      decideGate: approveReviewedGate,
    },
  });
  const started = Date.now();
  const state = await startRun(env, { repoRoot: request.repoDir, goal: request.goal, config: request.config });
  const wallMs = Date.now() - started;
  const runDir = path.join(request.repoDir, '.lathe', 'runs', state.run_id);
  if (request.copyTo) copyTree(runDir, request.copyTo);
  const head = await runHead(request.repoDir, state.branch, request.baseCommit);
  const undo = async () => {
    if (!state.workspace) return false;
    await new RunOperations(env.deps, env.artifactRoot, () => false).undo(request.repoDir, state.run_id);
    return true;
  };
  return { env, state, runDir, head, wallMs, tokens: runTokenCounts(state.metrics), undo };
}

/** The run fields both drivers' reports hold. */
export function runBasics(state: RunState) {
  return {
    run_id: state.run_id,
    status: state.result?.status ?? state.status,
    exit_code: state.result?.exit_code ?? null,
    reason: state.result?.reason ?? null,
    branch: state.branch,
    commits: state.commits.length,
  };
}
