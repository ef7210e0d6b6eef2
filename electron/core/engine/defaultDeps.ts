import path from 'node:path';
import { createModelRouter } from '../llm/index';
import {
  applyEditSet,
  createGitFacade,
  createReadOnlyTools,
  defaultEditPolicy,
  detectTestCommand,
  getEditFormat,
  markArtifactsRetained,
  runWorkspaceSetup,
  verify,
} from '../workspace/index';
import { releaseIfRetained } from '../verifier/artifacts';
import type { SharedModelPool } from '../llm/sharedPool';
import type { EngineDeps } from './engineDeps';
import { queuedVerify } from './verifyQueue';
import type { EngineEnv } from './runner';
import type { RunCallbacks } from './runSession';
import type { Clock } from './engineDeps';

/** The real layers: isomorphic-git/native git, the sandboxed Verifier, edit formats and the model router. */
export function createDefaultDeps(): EngineDeps {
  return {
    git: createGitFacade(),
    // One process's runs take turns at the tests: two suites at once on a small machine only slow both.
    verify: queuedVerify(verify),
    detectTestCommand,
    getEditFormat,
    defaultEditPolicy,
    applyEditSet,
    createTools: createReadOnlyTools,
    createModels: createModelRouter,
    setupWorkspace: runWorkspaceSetup,
    retainArtifacts: markArtifactsRetained,
    releaseArtifacts: releaseIfRetained,
  };
}

export interface EngineEnvOptions {
  /** Where prompts/ and resources/ live. */
  appRoot: string;
  /** Settings and Verifier artifacts (outside any repo). */
  dataDir: string;
  signal?: AbortSignal;
  /** Pause after the current operation (resumable); see EngineEnv.pause. */
  pause?: AbortSignal;
  callbacks?: RunCallbacks;
  threads?: number;
  clock?: Clock;
  retryBackoffMs?: number;
  deps?: EngineDeps;
  sharedPool?: SharedModelPool;
}

export function createEngineEnv(options: EngineEnvOptions): EngineEnv {
  return {
    deps: options.deps ?? createDefaultDeps(),
    promptsDir: path.join(options.appRoot, 'prompts'),
    artifactRoot: path.join(options.dataDir, 'artifacts'),
    signal: options.signal,
    pause: options.pause,
    callbacks: options.callbacks,
    threads: options.threads,
    clock: options.clock,
    retryBackoffMs: options.retryBackoffMs,
    sharedPool: options.sharedPool,
  };
}
