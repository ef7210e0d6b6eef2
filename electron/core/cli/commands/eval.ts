import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isWorkflowName, WORKFLOW_NAMES } from '../../../../shared/schemas/workflowName';
import type { RunConfig } from '../../../../shared/engine/runConfig';
import { rolesUsed } from '../../../../shared/engine/rolesUsed';
import { sourceAppRoot } from '../../appRoot';
import { parseDuration } from '../../config/duration';
import { checkModelAssignments, modelAssignments, PreflightError } from '../../engine/preflight';
import { workflowOf } from '../../engine/runner';
import {
  defaultSuiteDir,
  formatDurationMs,
  formatSummaryTable,
  loadEvalSuite,
  outcomeLabel,
  runEval,
  selectTasks,
  taskRunConfig,
  type EvalReport,
  type EvalTask,
  type EvalTaskResult,
} from '../../eval/index';
import { specFilePath } from '../../llm/index';
import type { PreflightProblem } from '../../../../shared/schemas/preflight';
import { parseCommandArgs, UsageError, wantsHelp, type CliIo, type Command, type ParsedOptions } from '../command';
import { ExitCode } from '../exitCodes';
import { parseRoleModels } from './run';
import { ProgressPrinter } from '../progress';
import { corpusEvalCommand, type CorpusEvalFlags } from './evalCorpus';

const usage = `Usage: lathe eval --model SPEC [--workflow NAME] [--tasks GLOB] [--jobs N] [--out DIR] [options]
       lathe eval --list [--tasks GLOB]
       lathe eval --corpus DIR [--tasks ID,…] --model SPEC --workflow NAME [--edit-format F] [--json]

Runs Lathe's task suite (bug fixes, small features and refactors in Python/pytest and JavaScript/node
--test) on a model and workflow. Each task runs in a fresh git repository; afterwards its hidden
acceptance tests, which the agents never see, run on what the run committed. Prints a table and
writes eval-report.json and eval-report.md (docs/eval.md explains every field).
  --model SPEC            every role's model: llama:PATH.gguf, ollama:NAME, openai:URL#MODEL or
                          replay:FILE.json; {task} in the spec is replaced by each task's id
  --role-model ROLE=SPEC  one role's model (planner, coder, tester, supervisor, scout, editor); repeatable
  --workflow NAME         ${WORKFLOW_NAMES.join(' | ')} (default: minimal)
  --tasks GLOB            task ids to run: * and ? wildcards, comma-separated (e.g. 'py-*,js-chunk')
  --jobs N                tasks at a time (default 1; the jobs share one loaded copy of a llama: model, and take turns at the tests)
  --out DIR               report folder (default: ./lathe-eval-<timestamp>)
  --config FILE           configuration over every task (e.g. policies.edit_format: whole-file)
  --time-limit DURATION   each task's run limit (default 30m)
  --threads N             CPU threads for llama models (default: physical cores)
  --suite DIR             another task suite folder (default: the bundled resources/eval)
  --keep                  keep each task's repository for inspection (the folder is printed)
  --verbose               print every run's progress, each line prefixed with the task id
  --json                  print the report JSON instead of the table
  --list                  list the suite's tasks and exit

Real repositories (--corpus DIR: a tasks.json of bug-fix tasks with git bundles, docs/eval.md): each task
is materialised offline and set up once (cached), run by Lathe, then judged by the task's own test
command run bare on the run branch and on the fixed tree (the gold patch applied). The run is undone
afterwards unless --keep. \`--model oracle:\` answers every role from each task's gold patch.
  --corpus DIR            the corpus folder
  --edit-format F         whole-file | search-replace | unified-diff (default: the workflow's)
  --cache DIR             where prepared task repositories are kept (default: LATHE_CORPUS_CACHE or a temp folder)
  --json                  one JSON line per task, then a summary line {"tasks", "green", "faithful", "damaging", …}
  --faults KIND[:RATE],…  spoil the oracle's writer answers as a 7B model does (oracle: writer models only):
                          elide, reindent, near-miss-search, diff-header, diff-whitespace, wrong-path,
                          test-path, unrelated-change, no-op, cut-off, repeat, or mixed (every kind but
                          repeat at 0.3); RATE (default 1) is the chance a step's first answer carries it
  --fault-seed N          the seed of every fault decision (default 1)
  --feedback-check        keep a defect in later answers until the writer's feedback names it
  --reuse-verifications   answer a verification of a tree already verified in this eval (same files, same
                          command) from that result: a fault matrix's runs mostly verify the same few trees
Exit codes: 0 every task was judged (solved or not) — with --corpus: every task green, 1 interrupted — with
--corpus: a task not green, 2 a task could not be judged, 64 usage error.`;

const options = {
  model: { type: 'string' },
  'role-model': { type: 'string', multiple: true },
  workflow: { type: 'string' },
  tasks: { type: 'string' },
  jobs: { type: 'string' },
  out: { type: 'string' },
  'time-limit': { type: 'string' },
  config: { type: 'string' },
  threads: { type: 'string' },
  suite: { type: 'string' },
  keep: { type: 'boolean' },
  verbose: { type: 'boolean' },
  json: { type: 'boolean' },
  list: { type: 'boolean' },
  corpus: { type: 'string' },
  'edit-format': { type: 'string' },
  cache: { type: 'string' },
  faults: { type: 'string' },
  'fault-seed': { type: 'string' },
  'feedback-check': { type: 'boolean' },
  'reuse-verifications': { type: 'boolean' },
} as const;

const DEFAULT_TIME_LIMIT_MS = 30 * 60_000;

function positiveInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new UsageError(`${flag} must be a positive whole number`);
  return number;
}

/** Relative model and transcript paths are the user's, from where they ran the command (`~` is home). */
function absoluteSpec(spec: string, cwd: string): string {
  const match = /^(llama|replay|oracle):(.+)$/.exec(spec);
  return match ? `${match[1]}:${specFilePath((match[2] ?? '').trim(), cwd)}` : spec;
}

/**
 * Every model every task would use passes the run preflight's model check (parses, host allowed, a
 * GGUF header or replay file that reads): nothing starts otherwise, and no task is judged on a model
 * that could never load.
 */
async function checkModels(
  tasks: readonly EvalTask[],
  configFor: (task: EvalTask) => RunConfig,
  cwd: string,
): Promise<void> {
  const problems: PreflightProblem[] = [];
  const checked = new Set<string>();
  for (const task of tasks) {
    const config = configFor(task);
    const fresh = modelAssignments(workflowOf(config), config).assigned.filter(
      (assignment) => !checked.has(assignment.spec),
    );
    for (const assignment of fresh) checked.add(assignment.spec);
    for (const problem of await checkModelAssignments(fresh, { cwd }))
      problems.push({ ...problem, message: `${problem.message}, needed for task ${task.id}` });
  }
  if (problems.length > 0) throw new PreflightError(problems);
}

function timestamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
}

function listTasks(io: CliIo, tasks: readonly EvalTask[]): number {
  const width = Math.max(...tasks.map((task) => task.id.length));
  for (const task of tasks)
    io.out(`${task.id.padEnd(width)}  ${task.language.padEnd(10)}  ${task.kind.padEnd(8)}  ${task.title}`);
  io.out('');
  io.out(
    `${tasks.length} task(s): ${tasks.filter((task) => task.language === 'python').length} Python, ${tasks.filter((task) => task.language === 'javascript').length} JavaScript`,
  );
  return ExitCode.success;
}

type EvalValues = ParsedOptions<typeof options>['values'];

function roleModelSpecs(values: EvalValues, cwd: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(parseRoleModels(values['role-model'])).map(([role, spec]) => [role, absoluteSpec(spec, cwd)]),
  );
}

function timeLimitOf(values: EvalValues): number {
  return values['time-limit'] === undefined
    ? DEFAULT_TIME_LIMIT_MS
    : parseDuration(values['time-limit'], '--time-limit');
}

function corpusFlags(values: EvalValues, corpus: string, cwd: string): CorpusEvalFlags {
  return {
    corpus,
    tasks: values.tasks,
    model: values.model === undefined ? undefined : absoluteSpec(values.model, cwd),
    roleModels: roleModelSpecs(values, cwd),
    workflow: values.workflow,
    editFormat: values['edit-format'],
    configFile: values.config,
    jobs: positiveInteger(values.jobs, '--jobs') ?? 1,
    threads: positiveInteger(values.threads, '--threads'),
    timeLimitMs: timeLimitOf(values),
    out: values.out,
    cache: values.cache,
    keep: values.keep === true,
    json: values.json === true,
    faults: values.faults,
    faultSeed: values['fault-seed'],
    feedbackCheck: values['feedback-check'] === true,
    reuseVerifications: values['reuse-verifications'] === true,
  };
}

function rejectCorpusOnlyFlags(values: EvalValues): void {
  if (values['edit-format'] !== undefined || values.cache !== undefined || values['reuse-verifications'])
    throw new UsageError(
      '--edit-format, --cache and --reuse-verifications go with --corpus (the bundled suite takes --config FILE)',
    );
  if (values.faults !== undefined || values['fault-seed'] !== undefined || values['feedback-check'])
    throw new UsageError('--faults, --fault-seed and --feedback-check go with --corpus and --model oracle:');
}

function suiteTasks(suite: readonly EvalTask[], pattern: string | undefined): EvalTask[] {
  try {
    return selectTasks(suite, pattern);
  } catch (error) {
    throw new UsageError(`--tasks: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** What every task of a suite eval shares, checked before any task starts. */
interface SuiteEvalPlan {
  settings: {
    appRoot: string;
    workflow: string;
    model: string | undefined;
    roleModels: Record<string, string>;
    timeLimitMs: number;
    configFile: string | undefined;
  };
  jobs: number;
  threads: number | undefined;
  editFormat: RunConfig['edit_format'];
}

async function planSuiteEval(
  values: EvalValues,
  tasks: readonly EvalTask[],
  appRoot: string,
  cwd: string,
): Promise<SuiteEvalPlan> {
  const workflow = values.workflow ?? 'minimal';
  if (!isWorkflowName(workflow)) throw new UsageError(`unknown workflow '${workflow}' (${WORKFLOW_NAMES.join(', ')})`);
  const roleModels = roleModelSpecs(values, cwd);
  const model = values.model === undefined ? undefined : absoluteSpec(values.model, cwd);
  const jobs = positiveInteger(values.jobs, '--jobs') ?? 1;
  const threads = positiveInteger(values.threads, '--threads');
  const timeLimitMs = timeLimitOf(values);
  const configFile = values.config === undefined ? undefined : path.resolve(cwd, values.config);
  const settings = { appRoot, workflow, model, roleModels, timeLimitMs, configFile };
  const firstTask = tasks[0] as EvalTask;
  const config = taskRunConfig(firstTask, firstTask.repoDir, { ...settings, outDir: '', workRoot: '' });
  const missing = rolesUsed(workflowOf(config), config).filter((role) => !config.models[role]);
  if (missing.length > 0)
    throw new UsageError(
      `no model for ${missing.join(', ')}: pass --model SPEC (see \`lathe models\`) or --role-model ROLE=SPEC`,
    );
  await checkModels(tasks, (task) => taskRunConfig(task, task.repoDir, { ...settings, outDir: '', workRoot: '' }), cwd);
  return { settings, jobs, threads, editFormat: config.edit_format };
}

/** The first Ctrl-C (or SIGTERM) stops the eval gently; a second one quits at once. */
function stopOnInterrupt(io: CliIo): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  let interrupts = 0;
  const onInterrupt = () => {
    if (++interrupts > 1) process.exit(130);
    io.err(
      '\nstopping: the running tasks stop after their current step, the rest are skipped (Ctrl-C again to quit at once)…',
    );
    controller.abort();
  };
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onInterrupt);
  return {
    signal: controller.signal,
    release: () => {
      process.off('SIGINT', onInterrupt);
      process.off('SIGTERM', onInterrupt);
    },
  };
}

/** `--verbose`: one progress printer per task, its lines prefixed with the task id. */
function taskPrinters(io: CliIo): (taskId: string) => ProgressPrinter {
  const printers = new Map<string, ProgressPrinter>();
  return (taskId) => {
    let printer = printers.get(taskId);
    if (!printer)
      printers.set(
        taskId,
        (printer = new ProgressPrinter({ ...io, status: undefined, out: (line) => io.out(`[${taskId}] ${line}`) })),
      );
    return printer;
  };
}

function taskDoneLine(result: EvalTaskResult, done: number, total: number): string {
  const extra = result.outcome === 'error' ? ` — ${result.error?.message ?? ''}` : '';
  return `[${done}/${total}] ${result.id}: ${outcomeLabel(result)} (run ${result.run?.status ?? '-'}, ${result.attempts} attempt(s), ${formatDurationMs(result.wall_ms)})${extra}`;
}

function printReport(io: CliIo, report: EvalReport, outDir: string, json: boolean): void {
  if (json) {
    io.out(JSON.stringify(report, null, 2));
    return;
  }
  io.out('');
  for (const line of formatSummaryTable(report)) io.out(line);
  io.out('');
  io.out(`report: ${path.join(outDir, 'eval-report.md')} (and eval-report.json)`);
}

async function runSuiteEval(
  values: EvalValues,
  suiteDir: string,
  tasks: readonly EvalTask[],
  plan: SuiteEvalPlan,
  io: CliIo,
): Promise<number> {
  const { settings, jobs } = plan;
  const outDir = path.resolve(io.cwd, values.out ?? `lathe-eval-${timestamp(new Date())}`);
  const workRoot = values.keep ? fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-eval-work-')) : os.tmpdir();
  const interrupt = stopOnInterrupt(io);
  const printerFor = taskPrinters(io);
  if (!values.json)
    io.out(
      `Lathe eval — ${tasks.length} task(s), workflow ${settings.workflow}, ${settings.model ? `model ${settings.model}` : 'models per role'}, ${jobs} job(s)\nreport folder: ${outDir}${values.keep ? `\ntask repositories: ${workRoot}` : ''}\n`,
    );
  try {
    const report = await runEval({
      ...settings,
      tasks,
      jobs,
      threads: plan.threads,
      outDir,
      workRoot,
      keepWork: values.keep === true,
      suiteDir,
      tasksPattern: values.tasks ?? null,
      editFormat: plan.editFormat,
      signal: interrupt.signal,
      onRunEvent: values.verbose ? (taskId, event) => printerFor(taskId).onEvent(event) : undefined,
      onTaskStart: (task, index) => values.json || io.status?.(`[${index + 1}/${tasks.length}] ${task.id} running…`),
      onTaskDone: (result, done, total) => values.json || io.out(taskDoneLine(result, done, total)),
    });
    printReport(io, report, outDir, values.json === true);
    if (report.interrupted) return ExitCode.goalNotMet;
    return report.summary.errors > 0 ? ExitCode.infraError : ExitCode.success;
  } finally {
    interrupt.release();
  }
}

export const evalCommand: Command = {
  name: 'eval',
  summary: 'measure a model and workflow on the task suite (hidden acceptance tests)',
  usage,
  async run(args, io) {
    if (wantsHelp(args)) return (io.out(usage), ExitCode.success);
    const { values } = parseCommandArgs(args, options);
    if (values.corpus !== undefined) return corpusEvalCommand(corpusFlags(values, values.corpus, io.cwd), io);
    rejectCorpusOnlyFlags(values);
    const appRoot = sourceAppRoot();
    const suiteDir = values.suite ? path.resolve(io.cwd, values.suite) : defaultSuiteDir(appRoot);
    const tasks = suiteTasks(loadEvalSuite(suiteDir), values.tasks);
    if (values.list) return listTasks(io, tasks);
    const plan = await planSuiteEval(values, tasks, appRoot, io.cwd);
    return runSuiteEval(values, suiteDir, tasks, plan, io);
  },
};
