import type { LlamaModelPool } from './llama/modelPool';
import type { ModelSpec } from './modelSpec';
import { faultSpecSuffix } from './oracle/faults/faultSpec';
import type { LlamaSampling } from './providers/llamaProvider';
import { OpenAiProvider } from './providers/openaiProvider';
import { OracleProvider } from './providers/oracleProvider';
import type { Provider, ProviderCall } from './providers/provider';
import { ReplayProvider } from './providers/replayProvider';
import type { GenerateResult, RoleModelConfig } from './types';
import type { ModelRole } from '../../../shared/schemas/roles';

/** What a router's providers are made with, beyond each one's spec. */
export interface ProviderSettings {
  llamaPool: () => Promise<LlamaModelPool>;
  llama: LlamaSampling;
  /** The pool owner whose contexts a `llama:` provider holds (the router). */
  owner: string;
  serverTokenEnv: string | undefined;
  replayConsumed: Partial<Record<ModelRole, number>> | undefined;
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

/** One provider per model, made on its first use and shared by every role that names that model. */
export class ProviderCache {
  private readonly providers = new Map<string, Provider>();
  private readonly replays: ReplayProvider[] = [];

  constructor(private readonly settings: ProviderSettings) {}

  providerFor(spec: ModelSpec): Provider {
    const key = providerKey(spec);
    const existing = this.providers.get(key);
    if (existing) return existing;
    const provider = this.newProvider(spec);
    this.providers.set(key, provider);
    return provider;
  }

  private newProvider(spec: ModelSpec): Provider {
    const settings = this.settings;
    if (spec.kind === 'llama')
      return lazyLlamaProvider(spec.spec, spec.modelPath, settings.llamaPool, settings.llama, settings.owner);
    if (spec.kind === 'openai')
      return new OpenAiProvider(spec.baseUrl, spec.model, serverToken(settings.serverTokenEnv));
    if (spec.kind === 'oracle') return new OracleProvider(spec.patchPath, spec.faults);
    const replay = new ReplayProvider(spec.filePath, settings.replayConsumed);
    this.replays.push(replay);
    return replay;
  }

  /** Replay entries consumed per role: those given at the start, then what each replay model read. */
  replayConsumed(): Partial<Record<ModelRole, number>> {
    const merged: Partial<Record<ModelRole, number>> = { ...this.settings.replayConsumed };
    for (const replay of this.replays) Object.assign(merged, replay.consumed());
    return merged;
  }

  async dispose(): Promise<void> {
    await Promise.allSettled([...this.providers.values()].map((provider) => provider.dispose()));
  }
}

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
