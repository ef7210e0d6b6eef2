import fs from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import type { ActionOutcome, Transition } from '../../../shared/engine/actions';
import { accountTime, checkBudget } from '../../../shared/engine/budget';
import { initialState } from '../../../shared/engine/initialState';
import { applyOutcome } from '../../../shared/engine/machine';
import { nextAction } from '../../../shared/engine/nextAction';
import { WORKFLOWS, type Workflow } from '../../../shared/engine/workflows';
import { isWorkflowName } from '../../../shared/schemas/workflowName';
import type { RunConfig } from '../../../shared/engine/runConfig';
import type { PendingGate, RunState } from '../../../shared/engine/runState';
import { isTerminal, reopenStuck } from '../../../shared/engine/finish';
import { LatheError } from '../../../shared/errors';
import type { LlmEvent, RoleModelConfig } from '../llm/types';
import type { ModelRole } from '../../../shared/schemas/roles';
import { systemClock, type Clock, type EngineDeps } from './engineDeps';
import { executeAction } from './executeAction';
import { finalizeSession } from './finalize';
import { preflightRun } from './preflight';
import type { SharedModelPool } from '../llm/sharedPool';
import { refuseUndone } from './closeRun';
import { RunSession, type RunCallbacks } from './runSession';
import { ensureWritableRepo, hashGoal, newRunId, runDir, RunStore } from './runStore';
import { writeFileAtomic } from '../basics/atomicWrite';
import { EARLIER_RUN_FILE } from './earlierRun';
import { followUpStart } from './followUp';
import { stopRunNow } from './hardStop';
import { diskFull, isDiskFull } from '../fsErrors';
import { whenGitNotFound } from '../git/gitErrors';
import { setUpWorkspace } from './workspaceSetup';

export interface EngineEnv {
  deps: EngineDeps;
  promptsDir: string;
  /** Verifier artifacts live outside the repo (seed 004). */
  artifactRoot: string;
  clock?: Clock;
  /** Ctrl-C, app quit, Stop: the current operation is interrupted and the session stops with a resumable state. */
  signal?: AbortSignal;
  /**
   * Pause: the current operation (a model call, an edit, a test run) finishes and is saved, then the
   * session stops, status `paused`, resumable. A wait at a human gate ends at once (nothing is lost).
   */
  pause?: AbortSignal;
  retryBackoffMs?: number;
  threads?: number;
  callbacks?: RunCallbacks;
  /** `llama:` models shared with the process's other runs (the window, `lathe eval --jobs`). */
  sharedPool?: SharedModelPool;
}

export function workflowOf(config: RunConfig): Workflow {
  if (!isWorkflowName(config.workflow))
    throw new LatheError('UNKNOWN_WORKFLOW', `unknown workflow: ${config.workflow}`);
  return WORKFLOWS[config.workflow];
}

async function existingBranches(repoRoot: string): Promise<Set<string>> {
  return new Set(await git.listBranches({ fs, dir: repoRoot }).catch(whenGitNotFound([] as string[])));
}

export interface RunHandle {
  runId: string;
  /** Settles when this session of the run ends (finished, stopped, or waiting with nobody to ask). */
  done: Promise<RunState>;
}

/** Starts a new run and drives it to the end of its session. */
/** A new run: its goal and frozen config, and the run it follows up on (its branch then starts at that run's head). */
export interface NewRunRequest {
  repoRoot: string;
  goal: string;
  config: RunConfig;
  followUpOf?: string;
}

export async function startRun(env: EngineEnv, request: NewRunRequest): Promise<RunState> {
  return (await beginRun(env, request)).done;
}

/** Continues a run from its last completed sub-step (seed 003); refuses a changed goal (spec_hash). */
export async function resumeRun(
  env: EngineEnv,
  request: { repoRoot: string; runId: string; goal?: string; timeLimitMs?: number | null },
): Promise<RunState> {
  return (await beginResume(env, request)).done;
}

/**
 * Checks the inputs (goal, models, test command) and that the repo is safe to work on, then records
 * the run; the run id is known before the run is driven. A refused start leaves nothing behind.
 */
export async function beginRun(env: EngineEnv, request: NewRunRequest): Promise<RunHandle> {
  const workflow = workflowOf(request.config);
  await preflightRun(request, workflow, {
    detectTestCommand: (dir) => env.deps.detectTestCommand(dir),
    allowedHosts: request.config.model_access.allow_hosts,
  });
  const repoCheck = await env.deps.git.preflight(request.repoRoot);
  if (repoCheck.isomorphicUnsafeReason && !repoCheck.nativeGit) {
    throw new LatheError('ISOMORPHIC_UNSAFE', repoCheck.isomorphicUnsafeReason, { repo: request.repoRoot });
  }
  if (repoCheck.dirtyPaths.length > 0 && !request.config.allow_dirty) {
    throw new LatheError(
      'DIRTY_WORKTREE',
      `the repository has ${repoCheck.dirtyPaths.length} uncommitted change(s); commit or stash them, or pass --allow-dirty to carry on without touching them`,
      {
        paths: repoCheck.dirtyPaths.slice(0, 50),
      },
    );
  }
  // The parent is read (and refused) before anything is created: a refused follow-up leaves nothing behind.
  const followUp =
    request.followUpOf === undefined ? null : await followUpStart(env.deps.git, request.repoRoot, request.followUpOf);
  ensureWritableRepo(request.repoRoot);
  const clock = env.clock ?? systemClock;
  const now = clock.now();
  const branches = await existingBranches(request.repoRoot);
  const runId = newRunId(request.repoRoot, now, (candidate) =>
    branches.has(`${request.config.branch_prefix}/${candidate}`),
  );
  let store: RunStore;
  let state = initialState({
    runId,
    goal: request.goal,
    goalHash: hashGoal(request.goal),
    config: request.config,
    now: now.toISOString(),
    nowMs: now.getTime(),
    ...(followUp ? { followUp: { runId: followUp.runId, startCommit: followUp.startCommit } } : {}),
  });
  try {
    store = RunStore.create(request.repoRoot, runId, env.callbacks?.onEvent);
    // Saved before the first event, so a run killed at any point has a state to resume from.
    store.saveState(state);
    // Frozen now: the agents read the parent as it was when the follow-up began, even once it is pruned.
    if (followUp) writeFileAtomic(path.join(store.dir, EARLIER_RUN_FILE), followUp.earlier);
    const parent = followUp ? { follow_up_of: followUp.runId, start_commit: followUp.startCommit } : {};
    store.append(
      {
        role: 'engine',
        type: 'run_started',
        data: {
          goal: request.goal,
          workflow: workflow.name,
          seed: workflow.seed,
          branch_prefix: request.config.branch_prefix,
          models: request.config.models,
          ...parent,
        },
      },
      now,
    );
    state = { ...state, log_seq: store.lastSeq };
    store.saveState(state);
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    // Nothing was recorded that a resume could use: the run's folder goes, and the run never was.
    fs.rmSync(runDir(request.repoRoot, runId), { recursive: true, force: true });
    const full = diskFull(error, runDir(request.repoRoot, runId));
    throw new LatheError('DISK_FULL', `cannot start: ${full.message}; nothing was created`, full.data);
  }
  return { runId, done: drive(env, store, state, workflow, request.repoRoot) };
}

export async function beginResume(
  env: EngineEnv,
  request: { repoRoot: string; runId: string; goal?: string; timeLimitMs?: number | null },
): Promise<RunHandle> {
  const { store, state: saved } = RunStore.open(request.repoRoot, request.runId, env.callbacks?.onEvent, {
    reserve: true,
  });
  if (request.goal !== undefined && hashGoal(request.goal) !== saved.goal_hash) {
    throw new LatheError(
      'GOAL_CHANGED',
      `run ${request.runId} was started with a different goal; start a new run instead`,
      { run_id: request.runId },
    );
  }
  refuseUndone(saved);
  // A stuck run nobody closed (merged or undone) waits for a person's fix: resuming verifies again.
  const stuck = saved.status === 'stuck' && !saved.closed;
  if (saved.phase === 'finished' && !stuck) return { runId: saved.run_id, done: Promise.resolve(saved) };
  const workflow = workflowOf(saved.config);
  const orphaned = store.lastSeq > saved.log_seq ? { from: saved.log_seq + 1, to: store.lastSeq } : null;
  const config =
    request.timeLimitMs === undefined ? saved.config : { ...saved.config, time_limit_ms: request.timeLimitMs };
  let state: RunState = { ...(stuck ? reopenStuck(saved, workflow) : saved), config, status: 'running', result: null };
  store.append(
    {
      role: 'engine',
      type: 'run_resumed',
      data: { phase: state.phase, previous_status: saved.status, state_seq: saved.log_seq, orphaned_events: orphaned },
    },
    (env.clock ?? systemClock).now(),
  );
  if (state.workspace) {
    const workspace = await env.deps.git.reopenRun(state.workspace);
    // A person resolved the stuck report, perhaps with a commit of their own on the run branch: verify that.
    state = { ...state, workspace, ...(stuck ? { head: await env.deps.git.headOf(workspace) } : {}) };
    // A worktree recreated on resume lost what setup made; the saved state stays as it was if setup fails.
    const setup = await setUpWorkspace(env.deps, state, workspace, {
      log: (event) => store.append(event, (env.clock ?? systemClock).now()),
      runDir: store.dir,
      signal: env.signal,
    });
    if (setup.failure) throw setup.failure;
  }
  state = { ...state, log_seq: store.lastSeq };
  store.saveState(state);
  return { runId: saved.run_id, done: drive(env, store, state, workflow, request.repoRoot) };
}

function roleConfigs(config: RunConfig): Partial<Record<ModelRole, RoleModelConfig>> {
  const roles: Partial<Record<ModelRole, RoleModelConfig>> = {};
  for (const [role, model] of Object.entries(config.models) as [ModelRole, RunConfig['models'][ModelRole]][]) {
    if (!model) continue;
    roles[role] = {
      model: model.model,
      contextSize: model.context_size,
      temperature: model.temperature,
      maxTokens: model.max_tokens,
      promptLookup: model.prompt_lookup,
    };
  }
  return roles;
}

function modelRouter(
  env: EngineEnv,
  initial: RunState,
  onEvent: (event: LlmEvent) => void,
): ReturnType<EngineDeps['createModels']> {
  return env.deps.createModels({
    roles: roleConfigs(initial.config),
    threads: env.threads,
    onEvent,
    replayConsumed: initial.model_calls as Partial<Record<ModelRole, number>>,
    allowedHosts: initial.config.model_access.allow_hosts,
    serverTokenEnv: initial.config.model_access.token_env,
    sharedPool: env.sharedPool,
  });
}

function newSession(
  env: EngineEnv,
  run: {
    store: RunStore;
    router: ReturnType<EngineDeps['createModels']>;
    workflow: Workflow;
    repoRoot: string;
    signal: AbortSignal;
    clock: Clock;
    initial: RunState;
  },
): RunSession {
  return new RunSession({
    deps: env.deps,
    workflow: run.workflow,
    store: run.store,
    router: run.router,
    repoRoot: run.repoRoot,
    artifactRoot: env.artifactRoot,
    signal: run.signal,
    clock: run.clock,
    callbacks: env.callbacks ?? {},
    retryBackoffMs: env.retryBackoffMs ?? 500,
    promptsDir: env.promptsDir,
    elapsedBeforeMs: run.initial.elapsed_ms,
    pause: env.pause,
    tokenEnv: run.initial.config.model_access.token_env,
  });
}

/**
 * The pending gate is saved before anyone hears of it: whoever sees the event (and a restart after it)
 * finds the run waiting for that gate.
 */
function announceGate(store: RunStore, state: RunState, gate: PendingGate, clock: Clock): RunState {
  const pending = store.append({ role: 'engine', type: 'gate_pending', data: { ...gate } }, clock.now(), {
    announce: false,
  });
  const waiting: RunState = { ...state, status: 'waiting_for_gate', log_seq: store.lastSeq };
  store.saveState(waiting);
  store.announce(pending);
  return waiting;
}

/** What a turn with no action to run comes to: a spent budget, a pause, or a stop. */
function noActionOutcome(budget: ReturnType<typeof checkBudget>, paused: boolean, session: RunSession): ActionOutcome {
  if (budget.kind === 'step') return { kind: 'step_budget_exhausted', reason: budget.reason };
  if (budget.kind === 'execution') return { kind: 'execution_budget_exhausted', reason: budget.reason };
  if (paused) return { kind: 'stopped', reason: 'paused' };
  return { kind: 'stopped', reason: session.stopReason(), ...(budget.kind !== 'ok' ? { detail: budget.reason } : {}) };
}

/** The model layer's events: a dropped context is logged as a warning, the rest shown live. */
function forwardLlmEvent(session: RunSession | null, event: LlmEvent): void {
  if (event.type === 'context_dropped')
    session?.log({
      role: 'engine',
      type: 'warning',
      data: {
        message: `context dropped for ${event.role}: ${event.ids.join(', ')}`,
        ids: event.ids,
        reason: event.reason,
      },
    });
  // Tokens reach the window through the agent call's own onToken; forwarding them here too doubled them.
  else if (event.type !== 'model_unloaded' && event.type !== 'token') session?.transient(event);
}

/** A transition's events go to the log (a plan's also to its snapshot), then its state is saved. */
function recordTransition(store: RunStore, transition: Transition, session: RunSession, clock: Clock): RunState {
  for (const event of transition.events) {
    store.append(event, clock.now());
    if (event.type === 'plan' && typeof event.data.plan_id === 'string')
      store.savePlanSnapshot(event.data.plan_id, event.data);
  }
  const state: RunState = { ...transition.state, log_seq: store.lastSeq, elapsed_ms: session.elapsedMs() };
  store.saveState(state);
  return state;
}

async function drive(
  env: EngineEnv,
  store: RunStore,
  initial: RunState,
  workflow: Workflow,
  repoRoot: string,
): Promise<RunState> {
  const clock = env.clock ?? systemClock;
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort();
  env.signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (env.signal?.aborted) controller.abort();
  let session: RunSession | null = null;
  const router = modelRouter(env, initial, (event) => forwardLlmEvent(session, event));
  session = newSession(env, { store, router, workflow, repoRoot, signal: controller.signal, clock, initial });
  let state = initial;
  const onPause = () =>
    session?.log({
      role: 'user',
      type: 'pause_requested',
      data: { phase: state.phase, step_id: state.current_step_id },
    });
  env.pause?.addEventListener('abort', onPause, { once: true });
  const announced = new Set<string>();
  try {
    while (!isTerminal(state.status)) {
      const remaining = session.remainingMs(state);
      const budget = checkBudget(state, session.elapsedMs());
      if (budget.kind === 'total' || budget.kind === 'planning') session.markTimeExpired();
      const paused = env.pause?.aborted === true && budget.kind === 'ok' && !controller.signal.aborted;
      const action = budget.kind !== 'ok' || controller.signal.aborted || paused ? null : nextAction(state, workflow);
      if (action?.kind === 'finish') break;
      if (action?.kind === 'await_user' && !announced.has(action.gate.gate_id)) {
        announced.add(action.gate.gate_id);
        state = announceGate(store, state, action.gate, clock);
      }
      // Minutes spent waiting for a person at a gate are not the run's time: no deadline while waiting.
      const deadline =
        remaining !== null && remaining > 0 && action?.kind !== 'await_user'
          ? setTimeout(() => (session?.markTimeExpired(), controller.abort()), remaining)
          : null;
      const startedMs = session.elapsedMs();
      const outcome: ActionOutcome =
        action === null ? noActionOutcome(budget, paused, session) : await executeAction(session, action, state);
      if (deadline) clearTimeout(deadline);
      // The effect's time belongs to the phase (and step) it ran in, before the transition moves on.
      const accounted = accountTime(state, state.phase, session.elapsedMs() - startedMs);
      const transition = applyOutcome(accounted, workflow, outcome, clock.now().toISOString());
      state = recordTransition(store, transition, session, clock);
      if (outcome.kind === 'stopped') break;
    }
    state = await finalizeSession(env.deps, store, state, (event) => session?.log(event));
    state = { ...state, log_seq: store.lastSeq };
    store.saveState(state);
    return state;
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    throw stopOnFullDisk(store, repoRoot, state.run_id, diskFull(error, store.dir));
  } finally {
    env.signal?.removeEventListener('abort', onOuterAbort);
    env.pause?.removeEventListener('abort', onPause);
    store.releaseReserve();
    await router.dispose();
  }
}

/**
 * The disk filled up during the session: the reserve makes room to mark the last saved state (the
 * last completed sub-step) stopped, resumable, so the run is not left listed as running; the error
 * says where the disk is full and how to go on once there is space.
 */
function stopOnFullDisk(store: RunStore, repoRoot: string, runId: string, full: LatheError): LatheError {
  store.releaseReserve();
  const resume = `lathe run --repo ${repoRoot} --resume ${runId}`;
  let next: string;
  try {
    const stopped = stopRunNow(repoRoot, runId, `stopped: ${full.message}`);
    const ended = stopped ? null : RunStore.readState(repoRoot, runId);
    next =
      ended?.phase === 'finished'
        ? `run ${runId} had ended (${ended.status}); its report may be missing`
        : `run ${runId} is saved at its last completed sub-step, resumable: once there is space, ${resume}`;
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    next = `run ${runId} could not even record its stop; once there is space, ${resume} continues from its last saved sub-step`;
  }
  return new LatheError('DISK_FULL', `${full.message}; ${next}`, { ...full.data, run_id: runId });
}

/** Ends a run that is not being driven, for good: status aborted, phase finished, report written. */
export async function cancelRun(env: EngineEnv, request: { repoRoot: string; runId: string }): Promise<RunState> {
  const clock = env.clock ?? systemClock;
  const { store, state: saved } = RunStore.open(request.repoRoot, request.runId, env.callbacks?.onEvent);
  if (saved.phase === 'finished') return saved;
  const transition = applyOutcome(saved, workflowOf(saved.config), { kind: 'cancelled' }, clock.now().toISOString());
  for (const event of transition.events) store.append(event, clock.now());
  let state: RunState = { ...transition.state, log_seq: store.lastSeq };
  store.saveState(state);
  state = await finalizeSession(env.deps, store, state, (event) => store.append(event, clock.now()));
  state = { ...state, log_seq: store.lastSeq };
  store.saveState(state);
  return state;
}
