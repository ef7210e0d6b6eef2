import path from 'node:path';
import type { PendingGate, RunState } from '../../../shared/engine/runState';
import { LatheError } from '../../../shared/errors';
import { MAX_STREAM_TAIL_CHARS, type RunPage, type StartRunRequest } from '../../../shared/contract/runRequests';
import type { EventBus } from './eventBus';
import { resolveRunConfig } from '../config/resolveConfig';
import { createDefaultDeps, createEngineEnv } from '../engine/defaultDeps';
import { checkUserEdits } from '../engine/userEdits';
import type { Clock, EngineDeps } from '../engine/engineDeps';
import { beginResume, beginRun, cancelRun, type RunHandle } from '../engine/runner';
import type { GateDecision } from '../engine/runSession';
import { RunStore, runDir } from '../engine/runStore';
import { createSharedModelPool } from '../llm/sharedPool';
import { RunLogCache } from './logCache';
import { RunViewCache } from './runViewCache';
import { eventsAfter, runFigures } from '../../../shared/runView/runFigures';
import { resolveRepoRoot } from '../git/repoStatus';
import type { SettingsStore } from '../settings/settingsStore';

interface ActiveRun {
  repoRoot: string;
  runId: string | null;
  controller: AbortController;
  /** Pause: the session stops after its current operation, resumable. */
  pauser: AbortController;
  /** The gate this session waits on, with the resolver the window's decision settles. */
  waiting: { gateId: string; resolve: (decision: GateDecision) => void } | null;
  /** A decision that arrived for a gate before the engine asked (a resumed run). */
  preDecided: { gateId: string; decision: GateDecision } | null;
  /** Settles when this session ends. */
  done?: Promise<RunState>;
  /** role → what its current model call has streamed so far (tail), so a window that opens mid-call sees it all. */
  streams: Record<string, string>;
}

export interface RunManagerOptions {
  events: EventBus;
  appRoot: string;
  dataDir: string;
  deps?: EngineDeps;
  clock?: Clock;
  retryBackoffMs?: number;
  /** Defaults the window does not send with each run: threads, the shell allowlist. */
  settings?: SettingsStore;
}

const key = (repoRoot: string, runId: string) => `${repoRoot}\0${runId}`;

/**
 * Runs started from the window (Electron or browser): one engine session per run in this process,
 * their events pushed on the contract, human gates answered through `gate/decide`. A gate left
 * pending by a previous process is answered by resuming the run with the decision.
 */
export class RunManager {
  private readonly active = new Map<string, ActiveRun>();
  private readonly logs = new RunLogCache();
  private readonly views = new RunViewCache();
  /** The window's runs share one loaded copy of each `llama:` model file. */
  private readonly models = createSharedModelPool();

  constructor(private readonly options: RunManagerOptions) {}

  isActive(repoRoot: string, runId: string): boolean {
    return this.active.has(key(repoRoot, runId));
  }

  async start(request: StartRunRequest): Promise<{ runId: string }> {
    const repoRoot = await resolveRepoRoot(request.repo);
    const settings = this.options.settings?.read();
    const config = resolveRunConfig(
      { defaultsFile: path.join(this.options.appRoot, 'resources', 'defaults.yaml'), repoRoot },
      {
        workflow: request.workflow,
        model: request.model,
        roleModels: request.roleModels,
        gates: request.gates,
        timeLimitMs: request.timeLimitMs,
        testCommand: request.testCommand,
        allowDirty: request.allowDirty,
        shellAllowlist: settings?.shellAllowlist,
      },
    );
    // beginRun's preflight refuses a blank goal, a role without a usable model or no test command (PREFLIGHT_FAILED).
    const run = this.session(repoRoot);
    const handle = await beginRun(this.env(run), {
      repoRoot,
      goal: request.goal,
      config,
      ...(request.followUpOf === undefined ? {} : { followUpOf: request.followUpOf }),
    });
    return this.track(run, handle);
  }

  async resume(
    repo: string,
    runId: string,
    timeLimitMs?: number | null,
    preDecided: ActiveRun['preDecided'] = null,
    goal?: string,
  ): Promise<{ runId: string }> {
    const repoRoot = await resolveRepoRoot(repo);
    if (this.active.has(key(repoRoot, runId)))
      throw new LatheError('RUN_ACTIVE', `run ${runId} is already running`, { run_id: runId });
    const run = this.session(repoRoot);
    run.preDecided = preDecided;
    const handle = await beginResume(this.env(run), { repoRoot, runId, timeLimitMs, goal });
    return this.track(run, handle);
  }

  /** Asks the run to stop after its current operation (a model call, an edit, a test run), resumable. */
  async pause(repo: string, runId: string): Promise<{ pausing: boolean }> {
    const run = this.active.get(key(await resolveRepoRoot(repo), runId));
    if (!run) return { pausing: false };
    run.pauser.abort();
    return { pausing: true };
  }

  /** Interrupts the run if it is going on (the current operation too), then ends it for good. */
  async cancel(repo: string, runId: string): Promise<{ status: string }> {
    const repoRoot = await resolveRepoRoot(repo);
    const run = this.active.get(key(repoRoot, runId));
    if (run) {
      run.controller.abort();
      // catch-ok: the run's own end reported its failure; cancelling only waits for it
      await run.done?.catch(() => undefined);
    }
    const state = await cancelRun(this.env(this.session(repoRoot)), { repoRoot, runId });
    this.options.events.emit('run/status', { run_id: runId, repo: repoRoot, status: state.status, active: false });
    return { status: state.status };
  }

  async decideGate(
    repo: string,
    runId: string,
    gateId: string,
    decision: GateDecision,
  ): Promise<{ accepted: boolean; resumed: boolean }> {
    const repoRoot = await resolveRepoRoot(repo);
    const run = this.active.get(key(repoRoot, runId));
    // Edits are checked before the decision goes anywhere: a refused one is the caller's error, and the gate stays pending.
    if (decision.approved && decision.edits?.length) {
      const saved = RunStore.readState(repoRoot, runId);
      if (saved.gate?.gate_id === gateId) await checkUserEdits(this.deps(), saved, decision.edits);
    }
    if (run) {
      if (run.waiting?.gateId !== gateId) return { accepted: false, resumed: false };
      const { resolve } = run.waiting;
      run.waiting = null;
      resolve(decision);
      return { accepted: true, resumed: false };
    }
    const state = RunStore.readState(repoRoot, runId);
    if (state.phase === 'finished' || state.gate?.gate_id !== gateId) return { accepted: false, resumed: false };
    await this.resume(repoRoot, runId, undefined, { gateId, decision });
    return { accepted: true, resumed: true };
  }

  async page(repo: string, runId: string, afterSeq: number, limit: number): Promise<RunPage> {
    const repoRoot = await resolveRepoRoot(repo);
    const state = RunStore.readState(repoRoot, runId);
    const file = path.join(runDir(repoRoot, runId), 'log.jsonl');
    const log = this.logs.read(file);
    const all = log.filter((event) => event.seq > afterSeq);
    const events = all.slice(0, limit);
    const more = all.length > events.length;
    const run = this.active.get(key(repoRoot, runId));
    // The projection as of the log's end, sent with the page that reaches it.
    const view = more ? null : this.views.viewOf(file, log);
    return {
      state,
      events,
      lastSeq: events.at(-1)?.seq ?? afterSeq,
      more,
      active: Boolean(run),
      streams: { ...run?.streams },
      view,
      figures: view ? runFigures(view, state, eventsAfter(log, state.log_seq)) : null,
    };
  }

  /** How many runs this process is driving now. */
  activeCount(): number {
    return this.active.size;
  }

  /** Stops every session (app quit) and resolves once each has saved its resumable state. */
  async stopAll(): Promise<void> {
    const sessions = [...this.active.values()];
    for (const run of sessions) run.controller.abort();
    // catch-ok: each run's own end reported its failure; stopping only waits for them
    await Promise.all(sessions.map((run) => run.done?.catch(() => undefined)));
    await this.models.dispose();
  }

  private defaultDeps: EngineDeps | null = null;

  private deps(): EngineDeps {
    this.defaultDeps ??= this.options.deps ?? createDefaultDeps();
    return this.defaultDeps;
  }

  private session(repoRoot: string): ActiveRun {
    return {
      repoRoot,
      runId: null,
      controller: new AbortController(),
      pauser: new AbortController(),
      waiting: null,
      preDecided: null,
      streams: {},
    };
  }

  private env(run: ActiveRun) {
    const { events } = this.options;
    return createEngineEnv({
      threads: this.options.settings?.read().threads ?? undefined,
      appRoot: this.options.appRoot,
      dataDir: this.options.dataDir,
      deps: this.options.deps,
      clock: this.options.clock,
      retryBackoffMs: this.options.retryBackoffMs,
      sharedPool: this.models,
      signal: run.controller.signal,
      pause: run.pauser.signal,
      callbacks: {
        onEvent: (event) => {
          if (event.type === 'agent_call') delete run.streams[event.role];
          events.emit('run/event', event);
        },
        onTransient: (event) => {
          if (event.type === 'token')
            run.streams[event.role] = ((run.streams[event.role] ?? '') + event.text).slice(-MAX_STREAM_TAIL_CHARS);
          if (run.runId) events.emit('run/transient', { run_id: run.runId, event });
        },
        decideGate: (gate: PendingGate) => this.waitForDecision(run, gate),
      },
    });
  }

  private waitForDecision(run: ActiveRun, gate: PendingGate): Promise<GateDecision> {
    if (run.preDecided?.gateId === gate.gate_id) {
      const { decision } = run.preDecided;
      run.preDecided = null;
      return Promise.resolve(decision);
    }
    if (run.runId)
      this.options.events.emit('run/status', {
        run_id: run.runId,
        repo: run.repoRoot,
        status: 'waiting_for_gate',
        active: true,
      });
    return new Promise((resolve, reject) => {
      run.waiting = { gateId: gate.gate_id, resolve };
      run.controller.signal.addEventListener(
        'abort',
        () => reject(new LatheError('ABORTED', 'stopped while waiting at a gate')),
        { once: true },
      );
    });
  }

  private track(run: ActiveRun, handle: RunHandle): { runId: string } {
    run.runId = handle.runId;
    run.done = handle.done;
    const runKey = key(run.repoRoot, handle.runId);
    this.active.set(runKey, run);
    this.options.events.emit('run/status', {
      run_id: handle.runId,
      repo: run.repoRoot,
      status: 'running',
      active: true,
    });
    handle.done
      .then((state) =>
        this.options.events.emit('run/status', {
          run_id: handle.runId,
          repo: run.repoRoot,
          status: state.status,
          active: false,
        }),
      )
      // A session ended by an error may still have saved where it stopped (a full disk: aborted, resumable).
      .catch(() =>
        this.options.events.emit('run/status', {
          run_id: handle.runId,
          repo: run.repoRoot,
          status: savedStatus(run.repoRoot, handle.runId) ?? 'failed',
          active: false,
        }),
      )
      .finally(() => this.active.delete(runKey));
    return { runId: handle.runId };
  }
}

function savedStatus(repoRoot: string, runId: string): RunState['status'] | null {
  try {
    const state = RunStore.readState(repoRoot, runId);
    return state.status === 'running' ? null : state.status;
  } catch {
    // catch-ok: No state to read (the run never recorded one): the session simply failed.
    return null;
  }
}
