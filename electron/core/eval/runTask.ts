import fs from 'node:fs';
import path from 'node:path';
import type { RunConfig } from '../../../shared/engine/runConfig';
import type { RunState } from '../../../shared/engine/runState';
import { LatheError } from '../../../shared/errors';
import type { RunLogEvent } from '../../../shared/schemas/run';
import { parseDuration } from '../config/duration';
import { splitCommand, type ConfigOverrides } from '../config/resolveConfig';
import type { SharedModelPool } from '../llm/sharedPool';
import { readLog } from '../engine/runStore';
import { runHiddenTests } from './hiddenTests';
import { laptopMinutes } from '../../../shared/engine/laptopTime';
import { NO_TOKENS, type TokenCounts } from '../../../shared/engine/tokenCounts';
import { outcomeOfSummary, outcomeOfVerify, roleQuality, runCounts } from './metrics';
import type { EvalTaskResult } from './reportSchema';
import { evalRunConfig, modelForTask, runBasics, startEvalRun, type EvalRunSettings } from './evalRun';
import { createTaskRepo } from './taskRepo';
import type { EvalTask } from './taskSuite';

export interface EvalTaskSettings extends EvalRunSettings {
  /** Every role's model; `{task}` is replaced by the task id (one replay transcript per task). */
  model?: string;
  roleModels?: ConfigOverrides['roleModels'];
  /** Per task, unless the task's hints set its own. */
  timeLimitMs: number | null;
  /** The report folder: each task's run folder and hidden-test log are copied to `tasks/<id>/`. */
  outDir: string;
  /** Where the task repositories are made (a temp folder each). */
  workRoot: string;
  keepWork?: boolean;
  hiddenTestTimeoutMs?: number;
  /** One pool for every job: a `llama:` model is loaded once, not once per job. */
  sharedPool?: SharedModelPool;
}

export function taskRunConfig(task: EvalTask, repoDir: string, settings: EvalTaskSettings): RunConfig {
  const roleModels = Object.fromEntries(
    Object.entries(settings.roleModels ?? {}).map(([role, spec]) => [role, modelForTask(spec, task.id)]),
  );
  return evalRunConfig(settings, repoDir, {
    model: settings.model === undefined ? undefined : modelForTask(settings.model, task.id),
    roleModels,
    timeLimitMs:
      task.hints.time_limit !== undefined
        ? parseDuration(task.hints.time_limit, `${task.id}: hints.time_limit`)
        : settings.timeLimitMs,
    testCommand: task.hints.test_command === undefined ? undefined : splitCommand(task.hints.test_command),
  });
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
    const config = {
      ...configured,
      workspace: {
        ...configured.workspace,
        worktree_root: configured.workspace.worktree_root ?? path.join(work, 'worktrees'),
      },
    };
    const dataDir = path.join(work, 'data');
    const runCopy = path.join(taskOut, 'run');
    const run = await startEvalRun(settings, {
      taskId: task.id,
      repoDir,
      baseCommit,
      goal: task.goal,
      config,
      dataDir,
      copyTo: runCopy,
      sharedPool: settings.sharedPool,
    });
    fs.mkdirSync(taskOut, { recursive: true });
    const { state, head } = run;
    const log = readLog(path.join(run.runDir, 'log.jsonl'));
    const partial = {
      ...emptyResult(task),
      ...measured(state, log, run.tokens),
      run: runRecord(state, baseCommit, head),
      wall_ms: run.wallMs,
      files: { run_dir: relative(settings.outDir, runCopy), hidden_log: null },
    };
    if (settings.signal?.aborted) return { ...partial, outcome: 'interrupted', solved: false };
    // A run ended by an infrastructure error (a model that cannot load, a failed git step) says nothing
    // about the model's skill: the task could not be judged.
    if (state.result?.code)
      return {
        ...partial,
        outcome: 'error',
        solved: false,
        error: { code: state.result.code, message: state.result.reason },
      };

    const hidden = await runHiddenTests({
      task,
      repoDir,
      commit: head,
      artifactRoot: path.join(dataDir, 'artifacts'),
      timeoutMs: settings.hiddenTestTimeoutMs ?? 120_000,
      signal: settings.signal,
    });
    const hiddenLog = path.join(taskOut, 'hidden-tests.log');
    fs.copyFileSync(hidden.logPath, hiddenLog);
    const result = {
      ...partial,
      hidden_tests: outcomeOfVerify(hidden),
      files: { ...partial.files, hidden_log: relative(settings.outDir, hiddenLog) },
    };
    if (settings.signal?.aborted) return { ...result, outcome: 'interrupted', solved: false };
    if (hidden.status === 'INFRA_ERROR')
      return {
        ...result,
        outcome: 'error',
        solved: false,
        error: { code: 'HIDDEN_TESTS_INFRA_ERROR', message: hidden.reason ?? 'the hidden tests could not run' },
      };
    return { ...result, outcome: hidden.status === 'PASS' ? 'solved' : 'unsolved', solved: hidden.status === 'PASS' };
  } catch (error) {
    const failure = LatheError.from(error);
    return {
      ...emptyResult(task),
      outcome: 'error',
      solved: false,
      error: { code: failure.code, message: failure.message },
    };
  } finally {
    if (!settings.keepWork) fs.rmSync(work, { recursive: true, force: true });
  }
}

function measured(state: RunState, log: RunLogEvent[], tokens: TokenCounts) {
  const roles = roleQuality(log, state.metrics);
  return {
    ...runCounts(state),
    roles,
    tokens: { ...tokens, completion: tokens.generated, total: tokens.prompt + tokens.generated },
    laptop_minutes: laptopMinutes(tokens),
    visible_tests: outcomeOfSummary(state.last_test),
  };
}

function runRecord(state: RunState, baseCommit: string, head: string): EvalTaskResult['run'] {
  // The report's field order: the shared fields with this suite's two commits before the count.
  const { commits, ...basics } = runBasics(state);
  return { ...basics, base_commit: baseCommit, head_commit: head, commits };
}

function relative(from: string, to: string): string {
  return path.relative(from, to).split(path.sep).join('/');
}
