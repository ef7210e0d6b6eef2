import { GgufInsights, InsufficientMemoryError, readGgufFileInfo, type Llama, type LlamaModel } from 'node-llama-cpp';
import { LatheError } from '../../../../shared/errors';
import { inspectGguf } from '../library/inspectGguf';
import type { ModelRole } from '../../../../shared/schemas/roles';
import type { LlmEvent } from '../types';
import { availableMemoryBytes, estimateCpuMemory, formatBytes } from './memory';
import { RoleSession } from './roleSession';
import { chooseContextSize, type WindowChoice } from './contextChoice';
import { DEFAULT_CONTEXT_SIZE, DEFAULT_IDLE_UNLOAD_MS } from './defaults';
import { defaultThreads, recentLlamaLogs, reserveThreads, sharedLlama } from './runtime';

export interface PoolOptions {
  threads?: number;
  idleUnloadMs?: number;
  emit: (event: LlmEvent) => void;
  /** Free memory probe; tests replace it to exercise the refusal path. */
  availableMemory?: () => number;
}

export interface LoadedModel {
  spec: string;
  modelPath: string;
  llama: Llama;
  model: LlamaModel;
  insights: GgufInsights;
  /** The window of a role whose config names none, and why. */
  defaultWindow: WindowChoice;
  /** Per router (one run) and role: two runs on one model each keep their own context and prefix. */
  sessions: Map<string, RoleSession>;
  active: number;
  lastUsed: number;
  idleTimer: NodeJS.Timeout | null;
  /** Per-model values providers compute once (token bias tables). */
  cache: Map<string, unknown>;
}

/**
 * One loaded instance per model file, shared by every role routed to it, and by every router (run)
 * given the same pool (`createSharedModelPool`); each run's role gets its own context. Memory is
 * estimated before anything loads; idle models and contexts are unloaded first when something new
 * does not fit, and after `idleUnloadMs` unused.
 */
export class LlamaModelPool {
  private readonly models = new Map<string, LoadedModel>();
  private readonly loading = new Map<string, Promise<LoadedModel>>();
  private disposed = false;

  constructor(private readonly options: PoolOptions) {}

  /** `emit` receives the load's progress when this call is the one that loads the file. */
  async acquire(
    spec: string,
    modelPath: string,
    contextSize: number | undefined,
    emit: (event: LlmEvent) => void = this.options.emit,
  ): Promise<LoadedModel> {
    if (this.disposed) throw new LatheError('MODEL_LOAD_FAILED', 'the model router was disposed');
    const existing = this.models.get(modelPath);
    const loaded = existing ?? (await this.loadOnce(spec, modelPath, contextSize, emit));
    loaded.active++;
    loaded.lastUsed = Date.now();
    if (loaded.idleTimer) clearTimeout(loaded.idleTimer);
    loaded.idleTimer = null;
    return loaded;
  }

  release(loaded: LoadedModel): void {
    loaded.active = Math.max(0, loaded.active - 1);
    loaded.lastUsed = Date.now();
    if (loaded.active > 0 || this.disposed || !this.models.has(loaded.modelPath)) return;
    const idleMs = this.options.idleUnloadMs ?? DEFAULT_IDLE_UNLOAD_MS;
    loaded.idleTimer = setTimeout(() => {
      if (loaded.active === 0) void this.unload(loaded, 'idle');
    }, idleMs);
    loaded.idleTimer.unref();
  }

  threadsFor(llama: Llama): number {
    const threads = this.options.threads ?? defaultThreads(llama);
    reserveThreads(llama, threads);
    return threads;
  }

  /** The role's context on this model for one router (`owner`), created (after a memory check) on first use. */
  async session(
    loaded: LoadedModel,
    role: ModelRole,
    contextSize: number | undefined,
    owner = '',
    promptLookup = false,
  ): Promise<RoleSession> {
    const sessionKey = `${owner}\0${role}${promptLookup ? '\0lookup' : ''}`;
    const existing = loaded.sessions.get(sessionKey);
    if (existing) return existing;
    const size =
      contextSize !== undefined ? resolveContextSize(loaded.insights, contextSize) : loaded.defaultWindow.contextSize;
    if (loaded.llama.gpu === false) {
      const need = estimateCpuMemory(loaded.insights, size, false);
      await this.ensureMemory(need.contextBytes, `a ${size}-token context for ${role} on ${loaded.spec}`, loaded);
    }
    let context;
    try {
      context = await loaded.model.createContext({
        contextSize: size,
        sequences: 1,
        threads: this.threadsFor(loaded.llama),
      });
    } catch (error) {
      throw loadError(error, `could not create a ${size}-token context for ${role} on ${loaded.spec}`);
    }
    const session = new RoleSession(role, loaded.model, context, sessionKey, promptLookup);
    loaded.sessions.set(sessionKey, session);
    return session;
  }

  /** A router is done: its contexts go, the models stay for other routers until idle. */
  async releaseOwner(owner: string): Promise<void> {
    for (const loaded of this.models.values()) {
      for (const [sessionKey, session] of [...loaded.sessions]) {
        if (!sessionKey.startsWith(`${owner}\0`)) continue;
        loaded.sessions.delete(sessionKey);
        // catch-ok: releasing memory on the way out: a session that cannot be disposed goes with its model
        await session.dispose().catch(() => undefined);
      }
    }
  }

  private loadOnce(
    spec: string,
    modelPath: string,
    contextSize: number | undefined,
    emit: (event: LlmEvent) => void,
  ): Promise<LoadedModel> {
    let pending = this.loading.get(modelPath);
    if (!pending) {
      pending = this.load(spec, modelPath, contextSize, emit).finally(() => this.loading.delete(modelPath));
      this.loading.set(modelPath, pending);
    }
    return pending;
  }

  private async load(
    spec: string,
    modelPath: string,
    contextSize: number | undefined,
    emit: (event: LlmEvent) => void,
  ): Promise<LoadedModel> {
    const llama = await sharedLlama();
    const entry = await inspectGguf(modelPath, { llama });
    if (entry.status === 'rejected')
      throw new LatheError('MODEL_LOAD_FAILED', `cannot load ${entry.fileName}: ${entry.reason}`, { path: modelPath });
    const info = await readGgufFileInfo(modelPath, { sourceType: 'filesystem', logWarnings: false });
    const insights = await GgufInsights.from(info, llama);
    // Chosen once per load, before the weights take memory, so every role of the model gets the same window.
    const window = defaultWindow(insights, this.available());
    if (llama.gpu === false) {
      const need = estimateCpuMemory(
        insights,
        contextSize !== undefined ? resolveContextSize(insights, contextSize) : window.contextSize,
        true,
      );
      await this.ensureMemory(
        need.weightsBytes + need.contextBytes,
        `${entry.fileName} (weights ${formatBytes(need.weightsBytes)} + context ${formatBytes(need.contextBytes)})`,
      );
    }
    const started = Date.now();
    let model: LlamaModel;
    // llama.cpp reports per tensor (hundreds of calls); a progress bar needs whole percents.
    let lastReported = -1;
    const onLoadProgress = (progress: number) => {
      const percent = Math.floor(progress * 100);
      if (percent === lastReported) return;
      lastReported = percent;
      emit({ type: 'model_load_progress', model: spec, progress: percent / 100 });
    };
    try {
      model = await llama.loadModel({ modelPath, gpuLayers: llama.gpu === false ? 0 : 'auto', onLoadProgress });
    } catch (error) {
      throw loadError(error, `llama.cpp could not load ${entry.fileName}`);
    }
    if (this.disposed) {
      await model.dispose();
      throw new LatheError('MODEL_LOAD_FAILED', 'the model router was disposed while the model loaded');
    }
    const loaded: LoadedModel = {
      spec,
      modelPath,
      llama,
      model,
      insights,
      defaultWindow: window,
      sessions: new Map(),
      active: 0,
      lastUsed: Date.now(),
      idleTimer: null,
      cache: new Map(),
    };
    this.models.set(modelPath, loaded);
    emit({ type: 'model_loaded', model: spec, loadMs: Date.now() - started });
    return loaded;
  }

  private available(): number {
    return (this.options.availableMemory ?? availableMemoryBytes)();
  }

  /** Frees idle contexts, then idle models, until `bytes` fit; refuses with INSUFFICIENT_MEMORY otherwise. */
  private async ensureMemory(bytes: number, what: string, keep?: LoadedModel): Promise<void> {
    const available = () => this.available();
    const idleSessions = [...this.models.values()]
      .flatMap((loaded) => [...loaded.sessions.values()].map((session) => ({ loaded, session })))
      .filter(({ session }) => !session.busy)
      .sort((a, b) => a.session.lastUsed - b.session.lastUsed);
    for (const { loaded, session } of idleSessions) {
      if (bytes <= available()) return;
      loaded.sessions.delete(session.key);
      await session.dispose();
    }
    const idleModels = [...this.models.values()]
      .filter((loaded) => loaded.active === 0 && loaded !== keep)
      .sort((a, b) => a.lastUsed - b.lastUsed);
    for (const loaded of idleModels) {
      if (bytes <= available()) return;
      await this.unload(loaded, 'switch');
    }
    const free = available();
    if (bytes > free) {
      throw new LatheError(
        'INSUFFICIENT_MEMORY',
        `${what} needs about ${formatBytes(bytes)} of memory but only ${formatBytes(free)} is available; close other programs, use a smaller quantization or a smaller contextSize`,
        {
          requiredBytes: bytes,
          availableBytes: free,
        },
      );
    }
  }

  async unload(loaded: LoadedModel, reason: 'idle' | 'switch' | 'dispose'): Promise<void> {
    if (this.models.get(loaded.modelPath) !== loaded) return;
    this.models.delete(loaded.modelPath);
    if (loaded.idleTimer) clearTimeout(loaded.idleTimer);
    // catch-ok: releasing memory on unload: a session that cannot be disposed goes with its model
    for (const session of loaded.sessions.values()) await session.dispose().catch(() => undefined);
    loaded.sessions.clear();
    // catch-ok: releasing memory on unload: the model is forgotten either way, and unloading must not fail a run
    await loaded.model.dispose().catch(() => undefined);
    this.options.emit({ type: 'model_unloaded', model: loaded.spec, reason });
  }

  loadedModels(): LoadedModel[] {
    return [...this.models.values()];
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.allSettled([...this.loading.values()]);
    for (const loaded of [...this.models.values()]) await this.unload(loaded, 'dispose');
  }
}

/** The role's window: its configured size, else the default for this model and machine (`chooseContextSize`). */
export function resolveContextSize(
  insights: GgufInsights,
  requested: number | undefined,
  availableBytes: number = availableMemoryBytes(),
): number {
  if (requested !== undefined) return Math.max(64, Math.floor(requested));
  return defaultWindow(insights, availableBytes).contextSize;
}

export function defaultWindow(insights: GgufInsights, availableBytes: number): WindowChoice {
  return chooseContextSize({
    trainedContext: insights.trainContextSize ?? null,
    weightsBytes: estimateCpuMemory(insights, DEFAULT_CONTEXT_SIZE, true).weightsBytes,
    contextBytes: (size) => estimateCpuMemory(insights, size, false).contextBytes,
    availableBytes,
  });
}

function loadError(error: unknown, what: string): LatheError {
  if (error instanceof LatheError) return error;
  if (error instanceof InsufficientMemoryError)
    return new LatheError('INSUFFICIENT_MEMORY', `${what}: ${error.message}`);
  const message = error instanceof Error ? error.message : String(error);
  const logs = recentLlamaLogs().slice(-3).join(' | ');
  return new LatheError('MODEL_LOAD_FAILED', `${what}: ${message}${logs ? ` (llama.cpp: ${logs})` : ''}`);
}
