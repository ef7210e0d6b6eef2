import { createCallSignal } from './callSignal';
import type { LlamaModelPool } from './llama/modelPool';
import { parseModelSpec } from './modelSpec';
import type { LlamaSampling } from './providers/llamaProvider';
import { DEFAULT_MAX_TOKENS, type ProviderCall } from './providers/provider';
import { ProviderCache } from './routerProviders';
import { failure } from './results';
import type { ModelRouterOptions } from './routerOptions';
import { estimateCounter, SERVER_ESTIMATE_MARGIN } from './promptCounter';
import {
  type GenerateRequest,
  type GenerateResult,
  type LlmEvent,
  type ModelRouter,
  type PromptCounter,
  type RoleModelConfig,
} from './types';
import { MODEL_ROLES, type ModelRole } from '../../../shared/schemas/roles';

/** Settings beyond the fixed router contract: sampling and test hooks for `llama:` models. */
export interface LlamaRouterTuning extends LlamaSampling {
  /** Free-memory probe for the fit check (bytes); tests use it to exercise the refusal. */
  availableMemory?: () => number;
}

export interface LatheModelRouterOptions extends ModelRouterOptions {
  llama?: LlamaRouterTuning;
  /** Where relative `llama:`/`replay:` paths resolve (default: the process cwd). */
  cwd?: string;
}

export interface LatheModelRouter extends ModelRouter {
  promptCounter(role: ModelRole): Promise<PromptCounter | null>;
  /** Replay entries consumed per role so far: persist it, pass it back as `replayConsumed` to resume. */
  replayConsumed(): Partial<Record<ModelRole, number>>;
}

type Route = { spec: string; parsed: ReturnType<typeof parseModelSpec> };

/** A listener's bug must not break generation. */
function guardedEmitter(onEvent: ((event: LlmEvent) => void) | undefined): (event: LlmEvent) => void {
  return (event) => {
    try {
      onEvent?.(event);
    } catch {
      // catch-ok: a listener's bug must not break generation
    }
  };
}

/** Each assigned role's spec, parsed up front. */
function roleRoutes(options: LatheModelRouterOptions): Map<ModelRole, Route> {
  const routes = new Map<ModelRole, Route>();
  for (const role of MODEL_ROLES) {
    const config = options.roles[role];
    if (config)
      routes.set(role, {
        spec: config.model,
        parsed: parseModelSpec(config.model, { allowedHosts: options.allowedHosts, cwd: options.cwd }),
      });
  }
  return routes;
}

/**
 * node-llama-cpp is loaded on the first `llama:` call only: a replay or server run never pays its start.
 * `release` lets go of what this router holds in it.
 */
function lazyModelPool(
  options: LatheModelRouterOptions,
  emit: (event: LlmEvent) => void,
  owner: string,
): { get: () => Promise<LlamaModelPool>; release: () => Promise<void> } {
  let pool: Promise<LlamaModelPool> | null = null;
  const shared = options.sharedPool;
  return {
    get: () =>
      (pool ??= shared
        ? shared.pool()
        : import('./llama/modelPool').then(
            ({ LlamaModelPool }) =>
              new LlamaModelPool({
                threads: options.threads,
                idleUnloadMs: options.idleUnloadMs,
                emit,
                availableMemory: options.llama?.availableMemory,
              }),
          )),
    // A shared pool outlives this router: only its contexts go; the models stay for other runs until idle.
    release: async () => {
      if (pool) await (shared ? (await pool).releaseOwner(owner) : (await pool).dispose());
    },
  };
}

/** The role's model settings for one call: a request may ask for a larger answer than the role's default. */
function callConfig(
  roleConfig: RoleModelConfig | undefined,
  maxTokens: number | undefined,
): RoleModelConfig | undefined {
  return roleConfig && maxTokens !== undefined
    ? { ...roleConfig, maxTokens: Math.max(maxTokens, roleConfig.maxTokens ?? DEFAULT_MAX_TOKENS) }
    : roleConfig;
}

function providerCall<T>(
  request: GenerateRequest<T>,
  route: Route,
  config: RoleModelConfig,
  callSignal: ReturnType<typeof createCallSignal>,
  emit: (event: LlmEvent) => void,
): ProviderCall<T> {
  return {
    request,
    role: request.role,
    config,
    spec: route.spec,
    callSignal,
    emit,
    emitToken(text) {
      // Text held back for stop-trigger detection is flushed after a stop; it was never "streamed".
      if (callSignal.signal.aborted) return;
      try {
        request.onToken?.(text);
      } catch {
        // catch-ok: a streaming consumer's bug must not break generation
      }
      emit({ type: 'token', role: request.role, text });
    },
  };
}

/**
 * Routes each role to its model. Specs are parsed up front; a bad one fails that role's calls with
 * BAD_MODEL_SPEC (never a connection attempt). `generate` never throws.
 */
export function createModelRouter(options: LatheModelRouterOptions): LatheModelRouter {
  const emit = guardedEmitter(options.onEvent);
  const owner = `router-${++routers}`;
  const pool = lazyModelPool(options, emit, owner);
  const providers = new ProviderCache({
    llamaPool: pool.get,
    llama: options.llama ?? {},
    owner,
    serverTokenEnv: options.serverTokenEnv,
    replayConsumed: options.replayConsumed,
  });
  const routes = roleRoutes(options);
  let disposed = false;

  return {
    async generate<T>(request: GenerateRequest<T>): Promise<GenerateResult<T>> {
      if (disposed) return failure<T>('PROVIDER_ERROR', 'the model router was disposed', { retryable: false });
      const route = routes.get(request.role);
      const config = callConfig(options.roles[request.role], request.maxTokens);
      if (!route || !config) return failure<T>('BAD_MODEL_SPEC', `no model is assigned to the ${request.role} role`);
      if (!route.parsed.ok) return failure<T>('BAD_MODEL_SPEC', route.parsed.message);
      const callSignal = createCallSignal(request.signal, request.timeoutMs);
      try {
        return await providers
          .providerFor(route.parsed.value)
          .generate(providerCall(request, route, config, callSignal, emit));
      } catch (error) {
        return failure<T>(
          'PROVIDER_ERROR',
          `unexpected failure: ${error instanceof Error ? error.message : String(error)}`,
        );
      } finally {
        callSignal.dispose();
      }
    },

    specFor(role) {
      return routes.get(role)?.spec ?? null;
    },

    async promptCounter(role) {
      const route = routes.get(role);
      const config = options.roles[role];
      if (disposed || !route || !config || !route.parsed.ok) return null;
      if (route.parsed.value.kind === 'openai') return estimateCounter(SERVER_ESTIMATE_MARGIN);
      try {
        return (await providers.providerFor(route.parsed.value).counter?.(role, config)) ?? null;
      } catch {
        // catch-ok: Planning falls back to the estimate; the call itself reports why the model cannot load.
        return null;
      }
    },

    replayConsumed() {
      return providers.replayConsumed();
    },

    async dispose() {
      if (disposed) return;
      disposed = true;
      await pool.release();
      await providers.dispose();
    },
  };
}

let routers = 0;
