import { medianTokens } from '../../../shared/engine/tokenCounts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APP_VERSION } from '../appVersion';
import { createSharedModelPool } from '../llm/sharedPool';
import { physicalCoreCount } from '../llm/index';
import { rate, sumRoleQuality } from './metrics';
import { EVAL_REPORT_FORMAT, EvalReportSchema, type EvalReport, type EvalTaskResult } from './reportSchema';
import { renderMarkdownReport } from './reportFormat';
import { runEvalTask, type EvalTaskSettings } from './runTask';
import type { EvalTask } from './taskSuite';

export interface EvalOptions extends Omit<EvalTaskSettings, 'workRoot'> {
  tasks: readonly EvalTask[];
  /** Tasks run at the same time (default 1). */
  jobs?: number;
  workRoot?: string;
  tasksPattern?: string | null;
  /** For the report: the edit format the runs use. */
  editFormat?: string | null;
  suiteDir: string;
  onTaskStart?: (task: EvalTask, index: number) => void;
  onTaskDone?: (result: EvalTaskResult, done: number, total: number) => void;
  now?: () => Date;
}

/** Runs every task (`jobs` at a time), then writes eval-report.json and eval-report.md to `outDir`. */
export async function runEval(options: EvalOptions): Promise<EvalReport> {
  const now = options.now ?? (() => new Date());
  const startedAt = now();
  const jobs = Math.max(1, options.jobs ?? 1);
  fs.mkdirSync(options.outDir, { recursive: true });
  const sharedPool = options.sharedPool ?? (jobs > 1 ? createSharedModelPool({ threads: options.threads }) : undefined);
  const settings: EvalTaskSettings = { ...options, sharedPool, workRoot: options.workRoot ?? os.tmpdir() };
  const results: EvalTaskResult[] = new Array(options.tasks.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < options.tasks.length) {
      const index = next++;
      const task = options.tasks[index] as EvalTask;
      if (!options.signal?.aborted) options.onTaskStart?.(task, index);
      const result = await runEvalTask(task, settings);
      results[index] = result;
      options.onTaskDone?.(result, ++done, options.tasks.length);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(jobs, options.tasks.length) }, worker));
  } finally {
    if (sharedPool && !options.sharedPool) await sharedPool.dispose();
  }
  const report = buildReport(options, results, startedAt, now(), jobs);
  writeReport(options.outDir, report);
  return report;
}

function reportSettings(options: EvalOptions, jobs: number): EvalReport['settings'] {
  return {
    workflow: options.workflow,
    model: options.model ?? null,
    role_models: Object.fromEntries(
      Object.entries(options.roleModels ?? {}).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    ),
    config_file: options.configFile ?? null,
    edit_format: options.editFormat ?? null,
    tasks_pattern: options.tasksPattern ?? null,
    jobs,
    time_limit_ms: options.timeLimitMs,
    threads: options.threads ?? null,
    suite_dir: options.suiteDir,
  };
}

function machineFacts(): EvalReport['machine'] {
  return {
    platform: process.platform,
    arch: process.arch,
    cpu_model: os.cpus()[0]?.model.trim() ?? 'unknown',
    logical_cpus: os.availableParallelism(),
    physical_cores: physicalCoreCount(),
    total_memory_bytes: os.totalmem(),
    node: process.version,
  };
}

const countOutcome = (tasks: readonly EvalTaskResult[], outcome: EvalTaskResult['outcome']) =>
  tasks.filter((task) => task.outcome === outcome).length;

/** Tasks and solved tasks per language or kind. */
function tally(
  tasks: readonly EvalTaskResult[],
  key: 'language' | 'kind',
): Record<string, { tasks: number; solved: number }> {
  const groups: Record<string, { tasks: number; solved: number }> = {};
  for (const task of tasks) {
    const group = (groups[task[key]] ??= { tasks: 0, solved: 0 });
    group.tasks++;
    if (task.solved) group.solved++;
  }
  return groups;
}

function reportSummary(tasks: EvalTaskResult[], startedAt: Date, finishedAt: Date): EvalReport['summary'] {
  const solved = countOutcome(tasks, 'solved');
  const unsolved = countOutcome(tasks, 'unsolved');
  const walls = tasks.map((task) => task.wall_ms).sort((a, b) => a - b);
  // Medians over the tasks a run was made for: a task that could not start would pull them to zero.
  const ran = tasks.filter((task) => task.run !== null || task.tokens.calls > 0);
  return {
    tasks: tasks.length,
    solved,
    unsolved,
    errors: countOutcome(tasks, 'error'),
    interrupted: countOutcome(tasks, 'interrupted'),
    solve_rate: rate(solved, unsolved),
    by_language: tally(tasks, 'language'),
    by_kind: tally(tasks, 'kind'),
    roles: sumRoleQuality(tasks.map((task) => task.roles)),
    tokens: {
      prompt: tasks.reduce((sum, task) => sum + task.tokens.prompt, 0),
      completion: tasks.reduce((sum, task) => sum + task.tokens.completion, 0),
      total: tasks.reduce((sum, task) => sum + task.tokens.total, 0),
      cached: tasks.reduce((sum, task) => sum + task.tokens.cached, 0),
      prefill: tasks.reduce((sum, task) => sum + task.tokens.prefill, 0),
    },
    median_tokens: medianTokens(ran.map((task) => task.tokens)),
    median_laptop_minutes: medianLaptopMinutes(ran.map((task) => task.laptop_minutes)),
    attempts: tasks.reduce((sum, task) => sum + task.attempts, 0),
    replans: tasks.reduce((sum, task) => sum + task.replans, 0),
    elapsed_ms: finishedAt.getTime() - startedAt.getTime(),
    task_wall_ms: {
      total: walls.reduce((sum, wall) => sum + wall, 0),
      median: median(walls),
      max: walls.at(-1) ?? 0,
    },
  };
}

export function buildReport(
  options: EvalOptions,
  tasks: EvalTaskResult[],
  startedAt: Date,
  finishedAt: Date,
  jobs: number,
): EvalReport {
  const report: EvalReport = {
    format: EVAL_REPORT_FORMAT,
    lathe_version: APP_VERSION,
    started_at: startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
    interrupted: options.signal?.aborted === true || countOutcome(tasks, 'interrupted') > 0,
    settings: reportSettings(options, jobs),
    machine: machineFacts(),
    summary: reportSummary(tasks, startedAt, finishedAt),
    tasks,
  };
  return EvalReportSchema.parse(report);
}

function medianLaptopMinutes(tasks: readonly Record<string, number>[]): Record<string, number> {
  const profiles = [...new Set(tasks.flatMap((task) => Object.keys(task)))];
  return Object.fromEntries(
    profiles.map((profile) => [profile, median(tasks.map((task) => task[profile] ?? 0).sort((a, b) => a - b))]),
  );
}

function median(sorted: number[]): number {
  if (sorted.length === 0) return 0;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export function writeReport(outDir: string, report: EvalReport): { json: string; markdown: string } {
  const json = path.join(outDir, 'eval-report.json');
  const markdown = path.join(outDir, 'eval-report.md');
  fs.writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(markdown, renderMarkdownReport(report));
  return { json, markdown };
}
