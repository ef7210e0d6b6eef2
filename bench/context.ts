/**
 * Context recall on a real bug-fix corpus: is every gold file (and gold function) in the writer's
 * context, at 4k, 8k and 16k-token windows, with the failing test output and from the goal alone?
 * Today's listing order (baseline) against the ranked, budgeted context; and every role's prompt size
 * and overflows, the Planner's and the Editor's brief's repository map included. Usage:
 *   npm run bench:context -- [--corpus DIR] [--tasks PATTERN] [--json]
 * The last line with --json is the summary object; the table goes to bench/results/context.{json,md}.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildRepoMap, rankFiles, type RepoMap } from '../electron/core/context/index';
import {
  findDefaultCorpus,
  loadCorpus,
  materializeCorpusTask,
  selectCorpusTasks,
  defaultCorpusCache,
  type CorpusTask,
} from '../electron/core/eval/corpus/index';
import { failingOutput } from './context/failingOutput';
import { goldSpans, type GoldSpan } from './context/gold';
import { BENCH_ROLES, rolePrompt, type Mode } from './context/rolePrompt';
import {
  BUDGETS,
  cellKey,
  contextSummary,
  METHODS,
  MODES,
  RANKERS,
  WRITER,
  type BudgetKey,
  type Cell,
  type Cells,
  type Ranks,
} from './context/summary';
import { machine } from './lib/results';

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

async function taskRepo(corpusDir: string, task: CorpusTask, cacheDir: string): Promise<string> {
  const dir = path.join(cacheDir, 'context-repos', `${task.id}-${task.fix_commit.slice(0, 8)}`);
  if (!fs.existsSync(path.join(dir, '.git'))) {
    fs.rmSync(dir, { recursive: true, force: true });
    await materializeCorpusTask(corpusDir, task, dir);
  }
  return dir;
}

function spanText(rows: string[], span: GoldSpan): string {
  return rows.slice(span.start - 1, span.end).join('\n');
}

/** One task's materialised repository, its map and its gold, as every measure of it reads them. */
interface TaskSetup {
  task: CorpusTask;
  dir: string;
  map: RepoMap;
  gold: GoldSpan[];
  /** Each gold file's lines at the starting state. */
  rowsOf: Map<string, string[]>;
}

/** Where each ranker puts the worst-placed gold file, added to `ranks`. */
async function rankGold(setup: TaskSetup, mode: Mode, feedback: string | null, ranks: Ranks): Promise<void> {
  const { task, map } = setup;
  for (const ranker of RANKERS) {
    const order = (await rankFiles(map, { goal: task.goal, feedback }, { method: ranker })).map(
      (entry) => entry.file.path,
    );
    const worst = Math.max(...task.gold_files.map((file) => (order.includes(file) ? order.indexOf(file) + 1 : 9999)));
    (ranks[ranker] ??= { with_failure: [], goal_only: [] })[mode].push(worst);
  }
}

/** The mode's writer at every method and budget: are the gold files and functions in its context? */
async function measureWriter(
  setup: TaskSetup,
  mode: Mode,
  feedback: string | null,
  cells: Cells,
  row: Record<string, unknown>,
): Promise<void> {
  const { task, dir, gold, rowsOf } = setup;
  for (const method of METHODS) {
    for (const [key, size] of Object.entries(BUDGETS) as [BudgetKey, number][]) {
      const prompt = await rolePrompt(dir, WRITER[mode], task.goal, feedback, size, method);
      const inContext = (file: string) =>
        prompt.kept.includes(`file:${file}`) || prompt.kept.includes(`excerpt:${file}`);
      const cell: Cell = {
        file: !prompt.overflow && task.gold_files.every(inContext),
        functions:
          !prompt.overflow &&
          gold.every((span) => prompt.contextText.includes(spanText(rowsOf.get(span.file) ?? [], span))),
        overflow: prompt.overflow,
        promptTokens: prompt.promptTokens,
      };
      cells.set(cellKey(task.id, WRITER[mode], method, key), cell);
      row[`${method}.${mode}.${key}`] =
        `${cell.file ? 'F' : '-'}${cell.functions ? 'f' : '-'}${cell.overflow ? '!' : ''} ${cell.promptTokens}`;
    }
  }
}

/** The planning roles, from the goal: is every gold file at least named in their map? */
async function measurePlanners(setup: TaskSetup, cells: Cells, row: Record<string, unknown>): Promise<void> {
  const { task, dir } = setup;
  for (const role of BENCH_ROLES.filter((name) => name === 'planner' || name === 'briefer')) {
    for (const method of METHODS) {
      for (const [key, size] of Object.entries(BUDGETS) as [BudgetKey, number][]) {
        const prompt = await rolePrompt(dir, role, task.goal, null, size, method);
        // A path at the start of a line: a summary line, a map entry or a listed path.
        const lines = new Set(prompt.userText.split(/\\n|\n/).map((line) => line.replace(/^"?\s*/, '').split(/\s/)[0]));
        const named = (file: string) => lines.has(file);
        const cell: Cell = {
          file: !prompt.overflow && task.gold_files.every(named),
          functions: false,
          overflow: prompt.overflow,
          promptTokens: prompt.promptTokens,
        };
        cells.set(cellKey(task.id, role, method, key), cell);
        row[`${method}.${role}.${key}`] = `${cell.file ? 'F' : '-'}${cell.overflow ? '!' : ''} ${cell.promptTokens}`;
      }
    }
  }
}

/** Every measure of one task: its cells and ranks added, its row of the per-task table returned. */
async function measureTask(
  corpusDir: string,
  task: CorpusTask,
  cacheDir: string,
  cells: Cells,
  ranks: Ranks,
): Promise<Record<string, unknown>> {
  const dir = await taskRepo(corpusDir, task, cacheDir);
  const map = await buildRepoMap(dir);
  const gold = goldSpans(task, map);
  const rowsOf = new Map(
    task.gold_files.map((file) => [
      file,
      fs.existsSync(path.join(dir, file)) ? fs.readFileSync(path.join(dir, file), 'utf8').split('\n') : [],
    ]),
  );
  const setup: TaskSetup = { task, dir, map, gold, rowsOf };
  const failing = await failingOutput(corpusDir, task, { cacheDir });
  const row: Record<string, unknown> = {
    id: task.id,
    gold_files: task.gold_files,
    gold_functions: gold.map((span) => `${span.file}#${span.name}`),
    failing_status: failing.status,
  };
  for (const mode of MODES) {
    const feedback = mode === 'with_failure' ? failing.feedback : null;
    await rankGold(setup, mode, feedback, ranks);
    await measureWriter(setup, mode, feedback, cells, row);
  }
  await measurePlanners(setup, cells, row);
  return row;
}

async function main(): Promise<void> {
  const corpusDir = argument('corpus') ?? findDefaultCorpus(path.resolve(import.meta.dirname, '..'));
  if (!corpusDir)
    throw new Error('no corpus: pass --corpus DIR (a folder with tasks.json and bundles) or set LATHE_CORPUS');
  const corpus = loadCorpus(corpusDir);
  const tasks = selectCorpusTasks(corpus, argument('tasks'));
  const cacheDir = defaultCorpusCache();
  const cells: Cells = new Map();
  const ranks: Ranks = {};
  const perTask: unknown[] = [];
  for (const task of tasks) {
    const row = await measureTask(corpus.dir, task, cacheDir, cells, ranks);
    perTask.push(row);
    process.stderr.write(`${task.id}: ${JSON.stringify(row)}\n`);
  }

  const summary = contextSummary(tasks, cells, ranks, corpus.dir);
  const table = markdown(summary);
  process.stdout.write(`\n${table}\n`);
  const out = path.resolve(import.meta.dirname, 'results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(
    path.join(out, 'context.json'),
    `${JSON.stringify({ bench: 'context', at: new Date().toISOString(), machine: machine(), summary, tasks: perTask }, null, 2)}\n`,
  );
  fs.writeFileSync(path.join(out, 'context.md'), `# bench:context\n\n${table}\n`);
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(summary)}\n`);
}

type Measured = {
  recall: Record<string, Record<Mode, number>>;
  function_recall: Record<string, Record<Mode, number>>;
  overflows_by_budget: Record<string, number>;
  overflows_by_role: Record<string, Record<string, number>>;
  prompt_tokens: Record<string, Record<string, { p50: number; p95: number }>>;
  map_recall: Record<string, Record<string, number>>;
};
type Summary = Measured & {
  baseline: Measured;
  ranking: Record<string, Record<string, { top1: number; top3: number; top10: number }>>;
  tasks: number;
};

function markdown(summary: Summary): string {
  const lines = [
    `${summary.tasks} tasks. Recall: share of tasks whose gold files (functions) are all in the writer's context (with_failure: the dev-agent Coder given the failing output; goal_only: the editor-scouts Editor). Overflows: CONTEXT_OVERFLOW over every role's prompt (coder, editor, planner, briefer) at that budget.`,
    '',
    '| budget | mode | file recall baseline | file recall new | function recall baseline | function recall new | overflows baseline | overflows new |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const key of Object.keys(BUDGETS)) {
    for (const mode of MODES) {
      const overflowNote =
        mode === 'with_failure'
          ? `${summary.baseline.overflows_by_budget[key]} | ${summary.overflows_by_budget[key]}`
          : '(all roles counted above) | ';
      lines.push(
        `| ${key} | ${mode} | ${summary.baseline.recall[key]?.[mode]} | ${summary.recall[key]?.[mode]} | ${summary.baseline.function_recall[key]?.[mode]} | ${summary.function_recall[key]?.[mode]} | ${overflowNote} |`,
      );
    }
  }
  lines.push(
    '',
    "Per role (coder: with the failing output; editor, planner (the supervised Planner's first plan) and briefer (the editor-scouts Editor's brief): from the goal): prompt tokens, CONTEXT_OVERFLOW count, and for the planning roles the share of tasks whose gold files they see named (a map entry or a listed path).",
    '',
    '| role (mode) | budget | prompt tokens p50 / p95 baseline | new | overflows baseline | new | gold named baseline | new |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const role of Object.keys(summary.prompt_tokens)) {
    for (const key of Object.keys(BUDGETS)) {
      const base = summary.baseline.prompt_tokens[role]?.[key];
      const next = summary.prompt_tokens[role]?.[key];
      const named = summary.map_recall[role]
        ? `${summary.baseline.map_recall[role]?.[key]} | ${summary.map_recall[role]?.[key]}`
        : '– | –';
      lines.push(
        `| ${role} | ${key} | ${base?.p50} / ${base?.p95} | ${next?.p50} / ${next?.p95} | ${summary.baseline.overflows_by_role[role]?.[key]} | ${summary.overflows_by_role[role]?.[key]} | ${named} |`,
      );
    }
  }
  lines.push('', '| ranker | mode | gold file top 1 | top 3 | top 10 |', '|---|---|---|---|---|');
  for (const [ranker, modes] of Object.entries(summary.ranking))
    for (const [mode, value] of Object.entries(modes))
      lines.push(`| ${ranker} | ${mode} | ${value.top1} | ${value.top3} | ${value.top10} |`);
  return lines.join('\n');
}

await main();
