import { createCallSignal } from './callSignal';
import type { LlamaModelPool } from './llama/modelPool';
import { parseModelSpec, type ModelSpec } from './modelSpec';
import type { LlamaSampling } from './providers/llamaProvider';
import { OpenAiProvider } from './providers/openaiProvider';
import { faultSpecSuffix } from './oracle/faults/faultSpec';
import { OracleProvider } from './providers/oracleProvider';
import { DEFAULT_MAX_TOKENS, type Provider, type ProviderCall } from './providers/provider';
import { ReplayProvider } from './providers/replayProvider';
import { failure } from './results';
import type { ModelRouterOptions } from './routerOptions';
import { estimateCounter, SERVER_ESTIMATE_MARGIN } from './promptCounter';
import {
  MODEL_ROLES,
  type GenerateRequest,
  type GenerateResult,
  type LlmEvent,
  type ModelRole,
  type ModelRouter,
  type PromptCounter,
  type RoleModelConfig,
} from './types';

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

function providerKey(spec: ModelSpec): string {
  switch (spec.kind) {
    case 'llama':
      return `llama:${spec.modelPath}`;
    case 'replay':
      return `replay:${spec.filePath}`;
    case 'oracle':
      // Spoiled and perfect answers from one patch are two models, each with its own per-run state.
      return `oracle:${spec.patchPath}${spec.faults ? faultSpecSuffix(spec.faults) : ''}`;
    case 'openai':
      return `openai:${spec.baseUrl}#${spec.model}`;
    default:
      return spec satisfies never;
  }
}

/**
 * Routes each role to its model. Specs are parsed up front; a bad one fails that role's calls with
 * BAD_MODEL_SPEC (never a connection attempt). `generate` never throws.
 */
export function createModelRouter(options: LatheModelRouterOptions): LatheModelRouter {
  const emit = (event: LlmEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      // catch-ok: a listener's bug must not break generation
    }
  };
  // node-llama-cpp is loaded on the first `llama:` call only: a replay or server run never pays its start.
  let pool: Promise<LlamaModelPool> | null = null;
  const shared = options.sharedPool;
  const owner = `router-${++routers}`;
  const llamaPool = () =>
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
        ));
  const providers = new Map<string, Provider>();
  const replays: ReplayProvider[] = [];
  const routes = new Map<ModelRole, { spec: string; parsed: ReturnType<typeof parseModelSpec> }>();
  for (const role of MODEL_ROLES) {
    const config = options.roles[role];
    if (config)
      routes.set(role, {
        spec: config.model,
        parsed: parseModelSpec(config.model, { allowedHosts: options.allowedHosts, cwd: options.cwd }),
      });
  }
  let disposed = false;

  const providerFor = (spec: ModelSpec): Provider => {
    const key = providerKey(spec);
    const existing = providers.get(key);
    if (existing) return existing;
    let provider: Provider;
    if (spec.kind === 'llama')
      provider = lazyLlamaProvider(spec.spec, spec.modelPath, llamaPool, options.llama ?? {}, owner);
    else if (spec.kind === 'openai')
      provider = new OpenAiProvider(spec.baseUrl, spec.model, serverToken(options.serverTokenEnv));
    else if (spec.kind === 'oracle') provider = new OracleProvider(spec.patchPath, spec.faults);
    else {
      const replay = new ReplayProvider(spec.filePath, options.replayConsumed);
      replays.push(replay);
      provider = replay;
    }
    providers.set(key, provider);
    return provider;
  };

  return {
    async generate<T>(request: GenerateRequest<T>): Promise<GenerateResult<T>> {
      if (disposed) return failure<T>('PROVIDER_ERROR', 'the model router was disposed', { retryable: false });
      const route = routes.get(request.role);
      const roleConfig = options.roles[request.role];
      const config =
        roleConfig && request.maxTokens !== undefined
          ? { ...roleConfig, maxTokens: Math.max(request.maxTokens, roleConfig.maxTokens ?? DEFAULT_MAX_TOKENS) }
          : roleConfig;
      if (!route || !config) return failure<T>('BAD_MODEL_SPEC', `no model is assigned to the ${request.role} role`);
      if (!route.parsed.ok) return failure<T>('BAD_MODEL_SPEC', route.parsed.message);
      const callSignal = createCallSignal(request.signal, request.timeoutMs);
      const call: ProviderCall<T> = {
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
      try {
        return await providerFor(route.parsed.value).generate(call);
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
        return (await providerFor(route.parsed.value).counter?.(role, config)) ?? null;
      } catch {
        // catch-ok: Planning falls back to the estimate; the call itself reports why the model cannot load.
        return null;
      }
    },

    replayConsumed() {
      const merged: Partial<Record<ModelRole, number>> = { ...options.replayConsumed };
      for (const replay of replays) Object.assign(merged, replay.consumed());
      return merged;
    },

    async dispose() {
      if (disposed) return;
      disposed = true;
      // A shared pool outlives this router: only its contexts go; the models stay for other runs until idle.
      if (pool) await (shared ? (await pool).releaseOwner(owner) : (await pool).dispose());
      await Promise.allSettled([...providers.values()].map((provider) => provider.dispose()));
    },
  };
}

let routers = 0;

function lazyLlamaProvider(
  spec: string,
  modelPath: string,
  pool: () => Promise<LlamaModelPool>,
  sampling: LlamaSampling,
  owner: string,
): Provider {
  let provider: Promise<Provider> | null = null;
  const load = () =>
    (provider ??= Promise.all([import('./providers/llamaProvider'), pool()]).then(
      ([{ LlamaProvider }, loadedPool]) => new LlamaProvider(spec, modelPath, loadedPool, sampling, owner),
    ));
  return {
    async generate<T>(call: ProviderCall<T>): Promise<GenerateResult<T>> {
      return (await load()).generate(call);
    },
    async counter(role: ModelRole, config: RoleModelConfig) {
      return (await load()).counter?.(role, config) ?? null;
    },
    async dispose() {
      if (provider) await (await provider).dispose();
    },
  };
}

/** The bearer token for model servers, read from the environment at each call (absent: none is sent). */
function serverToken(envName: string | undefined): { envName: string; read: () => string | undefined } | undefined {
  if (!envName) return undefined;
  return { envName, read: () => process.env[envName]?.trim() || undefined };
}
