import fs from 'node:fs';
import path from 'node:path';
import type { GateMode } from '../../../shared/schemas/gates';
import type { RunConfig } from '../../../shared/engine/runConfig';
import type { RunState } from '../../../shared/engine/runState';
import { LatheError } from '../../../shared/errors';
import type { RunLogEvent } from '../../../shared/schemas/run';
import { parseDuration } from '../config/duration';
import { resolveRunConfig, splitCommand, type ConfigOverrides } from '../config/resolveConfig';
import { createEngineEnv } from '../engine/defaultDeps';
import type { SharedModelPool } from '../llm/sharedPool';
import type { EngineDeps } from '../engine/engineDeps';
import { startRun } from '../engine/runner';
import { readLog } from '../engine/runStore';
import { approveReviewedGate, type TransientEvent } from '../engine/runSession';
import { copyTree } from './files';
import { runHiddenTests } from './hiddenTests';
import { laptopMinutes } from '../../../shared/engine/laptopTime';
import { NO_TOKENS, runTokenCounts } from '../../../shared/engine/tokenCounts';
import { outcomeOfSummary, outcomeOfVerify, roleQuality, runCounts } from './metrics';
import type { EvalTaskResult } from './reportSchema';
import { createTaskRepo, runHead } from './taskRepo';
import type { EvalTask } from './taskSuite';

export interface EvalTaskSettings {
  appRoot: string;
  workflow: string;
  /** Every role's model; `{task}` is replaced by the task id (one replay transcript per task). */
  model?: string;
  roleModels?: ConfigOverrides['roleModels'];
  /** `--config FILE`: layered over each task repository's configuration (e.g. another edit format). */
  configFile?: string;
  /** Per task, unless the task's hints set its own. */
  timeLimitMs: number | null;
  threads?: number;
  /** The report folder: each task's run folder and hidden-test log are copied to `tasks/<id>/`. */
  outDir: string;
  /** Where the task repositories are made (a temp folder each). */
  workRoot: string;
  keepWork?: boolean;
  signal?: AbortSignal;
  retryBackoffMs?: number;
  hiddenTestTimeoutMs?: number;
  deps?: EngineDeps;
  /** One pool for every job: a `llama:` model is loaded once, not once per job. */
  sharedPool?: SharedModelPool;
  onRunEvent?: (taskId: string, event: RunLogEvent) => void;
  onTransient?: (taskId: string, event: TransientEvent) => void;
}

export function modelForTask(spec: string, taskId: string): string {
  return spec.replaceAll('{task}', taskId);
}

/** Nobody is there to answer a human gate during an eval: the Supervisor decides instead. */
export function unattendedGates(config: RunConfig): RunConfig {
  const gates = Object.fromEntries(Object.entries(config.gates).map(([kind, mode]) => [kind, mode === 'human' || mode === 'both' ? 'auto' : mode])) as Record<keyof RunConfig['gates'], GateMode>;
  return { ...config, gates };
}

export function taskRunConfig(task: EvalTask, repoDir: string, settings: EvalTaskSettings): RunConfig {
  const roleModels = Object.fromEntries(Object.entries(settings.roleModels ?? {}).map(([role, spec]) => [role, modelForTask(spec, task.id)]));
  const config = resolveRunConfig(
    { defaultsFile: path.join(settings.appRoot, 'resources', 'defaults.yaml'), repoRoot: repoDir, configFile: settings.configFile },
    {
      workflow: settings.workflow,
      model: settings.model === undefined ? undefined : modelForTask(settings.model, task.id),
      roleModels,
      timeLimitMs: task.hints.time_limit !== undefined ? parseDuration(task.hints.time_limit, `${task.id}: hints.time_limit`) : settings.timeLimitMs,
      testCommand: task.hints.test_command === undefined ? undefined : splitCommand(task.hints.test_command),
    },
  );
  return unattendedGates(config);
}

const emptyResult = (task: EvalTask): Omit<EvalTaskResult, 'outcome' | 'solved'> => ({
  id: task.id,
  language: task.language,
  kind: task.kind,
  title: task.title,
  run: null,
  hidden_tests: null,
  visible_tests: null,
  attempts: 0,
  replans: 0,
  sub_plans: 0,
  fix_cycles: 0,
  verifications: 0,
  tokens: { ...NO_TOKENS, completion: 0, total: 0 },
  laptop_minutes: laptopMinutes(NO_TOKENS),
  roles: {},
  wall_ms: 0,
  error: null,
  files: { run_dir: null, hidden_log: null },
});

/** One task: a fresh repository, a real run, then the hidden tests on what the run committed. */
export async function runEvalTask(task: EvalTask, settings: EvalTaskSettings): Promise<EvalTaskResult> {
  if (settings.signal?.aborted) return { ...emptyResult(task), outcome: 'interrupted', solved: false };
  const work = fs.mkdtempSync(path.join(settings.workRoot, `lathe-eval-${task.id}-`));
  const taskOut = path.join(settings.outDir, 'tasks', task.id);
  try {
    const { dir: repoDir, baseCommit } = await createTaskRepo(task, path.join(work, task.id));
    const configured = taskRunConfig(task, repoDir, settings);
    // The run's worktree goes beside the task repository, so the work folder holds (and cleanup removes) all of a task.
    const config = { ...configured, workspace: { ...configured.workspace, worktree_root: configured.workspace.worktree_root ?? path.join(work, 'worktrees') } };
    const dataDir = path.join(work, 'data');
    const env = createEngineEnv({
      appRoot: settings.appRoot,
      dataDir,
      signal: settings.signal,
      threads: settings.threads,
      retryBackoffMs: settings.retryBackoffMs,
      deps: settings.deps,
      sharedPool: settings.sharedPool,
      callbacks: {
        onEvent: (event) => settings.onRunEvent?.(task.id, event),
        onTransient: (event) => settings.onTransient?.(task.id, event),
        // The gates are never human here (unattendedGates); this only keeps a run from hanging.
        decideGate: approveReviewedGate,
      },
    });
    const started = Date.now();
    const state = await startRun(env, { repoRoot: repoDir, goal: task.goal, config });
    const wallMs = Date.now() - started;
    const runDir = path.join(repoDir, '.lathe', 'runs', state.run_id);
    const log = readLog(path.join(runDir, 'log.jsonl'));
    fs.mkdirSync(taskOut, { recursive: true });
    copyTree(runDir, path.join(taskOut, 'run'));
    const head = await runHead(repoDir, state.branch, baseCommit);
    const partial = { ...emptyResult(task), ...measured(state, log), run: runRecord(state, baseCommit, head), wall_ms: wallMs, files: { run_dir: relative(settings.outDir, path.join(taskOut, 'run')), hidden_log: null } };
    if (settings.signal?.aborted) return { ...partial, outcome: 'interrupted', solved: false };
    // A run ended by an infrastructure error (a model that cannot load, a failed git step) says nothing
    // about the model's skill: the task could not be judged.
    if (state.result?.code) return { ...partial, outcome: 'error', solved: false, error: { code: state.result.code, message: state.result.reason } };

    const hidden = await runHiddenTests({ task, repoDir, commit: head, artifactRoot: path.join(dataDir, 'artifacts'), timeoutMs: settings.hiddenTestTimeoutMs ?? 120_000, signal: settings.signal });
    const hiddenLog = path.join(taskOut, 'hidden-tests.log');
    fs.copyFileSync(hidden.logPath, hiddenLog);
    const result = { ...partial, hidden_tests: outcomeOfVerify(hidden), files: { ...partial.files, hidden_log: relative(settings.outDir, hiddenLog) } };
    if (settings.signal?.aborted) return { ...result, outcome: 'interrupted', solved: false };
    if (hidden.status === 'INFRA_ERROR') return { ...result, outcome: 'error', solved: false, error: { code: 'HIDDEN_TESTS_INFRA_ERROR', message: hidden.reason ?? 'the hidden tests could not run' } };
    return { ...result, outcome: hidden.status === 'PASS' ? 'solved' : 'unsolved', solved: hidden.status === 'PASS' };
  } catch (error) {
    const failure = LatheError.from(error);
    return { ...emptyResult(task), outcome: 'error', solved: false, error: { code: failure.code, message: failure.message } };
  } finally {
    if (!settings.keepWork) fs.rmSync(work, { recursive: true, force: true });
  }
}

function measured(state: RunState, log: RunLogEvent[]) {
  const roles = roleQuality(log, state.metrics);
  const tokens = runTokenCounts(state.metrics);
  return { ...runCounts(state), roles, tokens: { ...tokens, completion: tokens.generated, total: tokens.prompt + tokens.generated }, laptop_minutes: laptopMinutes(tokens), visible_tests: outcomeOfSummary(state.last_test) };
}

function runRecord(state: RunState, baseCommit: string, head: string): EvalTaskResult['run'] {
  return {
    run_id: state.run_id,
    status: state.result?.status ?? state.status,
    exit_code: state.result?.exit_code ?? null,
    reason: state.result?.reason ?? null,
    branch: state.branch,
    base_commit: baseCommit,
    head_commit: head,
    commits: state.commits.length,
  };
}

function relative(from: string, to: string): string {
  return path.relative(from, to).split(path.sep).join('/');
}
