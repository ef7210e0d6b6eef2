/**
 * Does every role's first prompt fit a small window, counted by a real model's tokenizer? (issue 28,
 * item 4; decision 92). The bench GGUF (0.5B-Qwen2-shaped, byte-level vocabulary) is loaded for its
 * tokenizer and chat template only (`vocabOnly`). Two tables:
 *  - each workflow's roles: the fixed part of the prompt (system prompt, rules, edit format, answer
 *    schema), full and short, in the model's tokens and by the 4-characters estimate;
 *  - each corpus task × workflow × role: the first prompt as a run builds it at the window (planned
 *    with the model's tokenizer), then fitted as the llama provider fits it; overflows must be 0.
 * Usage: npm run bench:window -- [--corpus DIR] [--tasks PATTERN] [--window 4096] [--json]
 * Writes bench/results/window.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { getLlama } from 'node-llama-cpp';
import { WORKFLOWS } from '../shared/engine/workflows';
import { WORKFLOW_NAMES } from '../shared/schemas/workflowName';
import { configFromWorkflow } from '../shared/engine/configFromWorkflow';
import { initialState } from '../shared/engine/initialState';
import { systemPrompt } from '../electron/core/agents/buildMessages';
import { PromptLibrary } from '../electron/core/agents/promptLibrary';
import { agentSpecFor } from '../electron/core/agents/registry';
import { type AgentContext } from '../electron/core/agents/agentContext';
import { getEditFormat } from '../electron/core/edits/formats';
import {
  findDefaultCorpus,
  loadCorpus,
  selectCorpusTasks,
  defaultCorpusCache,
  type Corpus,
  type CorpusTask,
} from '../electron/core/eval/corpus/index';
import { modelCounter } from '../electron/core/llm/llama/modelCounter';
import { estimateTokens } from '../electron/core/llm/results';
import type { PromptCounter } from '../electron/core/llm/types';
import { ensureBenchModel } from './llm/benchModel';
import { failingOutput } from './context/failingOutput';
import { firstPrompt, ROLE_CALLS, taskRepo } from './window/firstPrompt';
import { estimateError } from './window/estimateError';
import { machine } from './lib/results';

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number);
};

type Row = Record<string, unknown>;

/** Table 1: the fixed part of every workflow's roles, full and short, in the model's tokens and by the estimate. */
function fixedParts(counter: PromptCounter, prompts: PromptLibrary): Row[] {
  const fixed: Row[] = [];
  for (const workflowName of WORKFLOW_NAMES) {
    const workflow = WORKFLOWS[workflowName];
    const config = configFromWorkflow(workflow);
    for (const { purpose, modelRole } of ROLE_CALLS[workflowName]) {
      const spec = agentSpecFor(purpose, workflow);
      if (!spec) continue;
      const state = initialState({
        runId: '20260101T000000Z',
        goal: 'fixed part',
        goalHash: 'bench',
        config,
        now: new Date(0).toISOString(),
        nowMs: 0,
      });
      const ctx = {
        state,
        workflow,
        prompts,
        editFormat: getEditFormat(config.edit_format),
      } as unknown as AgentContext;
      const schema = spec.schema(ctx);
      const full = systemPrompt(spec, ctx, schema, 'full');
      const short = systemPrompt(spec, ctx, schema, 'short');
      fixed.push({
        workflow: workflowName,
        role: modelRole,
        purpose,
        full_tokens: counter.countText(full),
        short_tokens: counter.countText(short),
        full_estimate: estimateTokens(full),
        short_estimate: estimateTokens(short),
      });
    }
  }
  return fixed;
}

/** Table 2: every corpus task's first prompt per workflow and role, fitted at the window. */
async function taskCells(
  corpus: Corpus,
  tasks: CorpusTask[],
  counter: PromptCounter,
  window: number,
  prompts: PromptLibrary,
): Promise<Row[]> {
  const cacheDir = defaultCorpusCache();
  const cells: Row[] = [];
  for (const task of tasks) {
    const dir = await taskRepo(corpus.dir, task, cacheDir);
    const failing = await failingOutput(corpus.dir, task, { cacheDir });
    for (const workflowName of WORKFLOW_NAMES) {
      for (const call of ROLE_CALLS[workflowName]) {
        const input = { dir, task, workflowName, call, feedback: failing.feedback, counter, window, prompts };
        const cell = await firstPrompt(input);
        // A whole-file writer must be shown and rewrite the whole file: a window smaller than the file cannot hold that in any form (decision 63).
        if (cell.overflow && cell.message?.startsWith('whole-file needs')) {
          cells.push({
            task: task.id,
            workflow: workflowName,
            role: call.modelRole,
            purpose: call.purpose,
            edit_format: 'search-replace',
            whole_file_limit: cell.message,
            ...(await firstPrompt({ ...input, editFormat: 'search-replace' })),
          });
        } else
          cells.push({ task: task.id, workflow: workflowName, role: call.modelRole, purpose: call.purpose, ...cell });
      }
    }
    console.error(`${task.id}: ${cells.filter((cell) => cell.task === task.id && cell.overflow).length} overflows`);
  }
  return cells;
}

/** The cells summed up per workflow · role · purpose. */
function perRoleRows(cells: Row[]) {
  const byRole = new Map<string, Row[]>();
  for (const cell of cells) {
    const key = `${String(cell.workflow)} · ${String(cell.role)} · ${String(cell.purpose)}`;
    byRole.set(key, [...(byRole.get(key) ?? []), cell]);
  }
  return [...byRole].map(([key, list]) => {
    const measured = list.filter((cell) => typeof cell.prompt_tokens === 'number');
    const prompt = measured.map((cell) => cell.prompt_tokens as number);
    const code = measured.map((cell) => (cell.context_tokens as number) ?? 0);
    return {
      call: key,
      tasks: list.length,
      measured: measured.length,
      overflows: list.filter((cell) => cell.overflow === true).length,
      short_form: measured.filter((cell) => cell.form === 'short').length,
      whole_file_limit: list.filter((cell) => typeof cell.whole_file_limit === 'string').length,
      prompt_p50: quantile(prompt, 0.5),
      prompt_max: quantile(prompt, 1),
      context_p50: quantile(code, 0.5),
      errors: [
        ...new Set(list.map((cell) => cell.error).filter((value): value is string => typeof value === 'string')),
      ],
    };
  });
}

type WindowResult = {
  window: number;
  tasks: number;
  overflows: number;
  whole_file_limit: number;
  fixed: Row[];
  per_role: ReturnType<typeof perRoleRows>;
  estimate_error: ReturnType<typeof estimateError>;
  cells: Row[];
};

/** Both tables in Markdown, then the estimate's error and the overflow count. */
function printTables(result: WindowResult, out: string): void {
  console.log(
    `Fixed part of each role's prompt (system prompt, rules, edit format, answer schema), bench GGUF tokens (estimate):`,
  );
  console.log('| workflow | role · purpose | full | short |\n|---|---|---|---|');
  for (const row of result.fixed)
    console.log(
      `| ${String(row.workflow)} | ${String(row.role)} · ${String(row.purpose)} | ${String(row.full_tokens)} (${String(row.full_estimate)}) | ${String(row.short_tokens)} (${String(row.short_estimate)}) |`,
    );
  console.log(
    `\nFirst prompt of each role at a ${result.window}-token window, ${result.tasks} corpus tasks, counted with the bench GGUF's tokenizer and chat template (answer reserve included in the window):`,
  );
  console.log(
    '| workflow · role · purpose | measured | overflows | short form | whole-file cannot fit (measured as search-replace) | prompt p50 / max | context p50 |\n|---|---|---|---|---|---|---|',
  );
  for (const row of result.per_role)
    console.log(
      `| ${row.call} | ${row.measured}/${row.tasks} | ${row.overflows} | ${row.short_form} | ${row.whole_file_limit} | ${row.prompt_p50} / ${row.prompt_max} | ${row.context_p50} |${row.errors.length > 0 ? ` not measured: ${row.errors[0]}` : ''}`,
    );
  console.log(
    `\nEstimate (4 characters a token) against the bench tokenizer on the corpus's source files: ${JSON.stringify(result.estimate_error)}`,
  );
  console.log(
    `overflows: ${result.overflows} of ${result.cells.length} prompts (${result.whole_file_limit} whole-file prompts whose file alone exceeds the window, measured as search-replace); written ${path.relative(process.cwd(), out)}`,
  );
}

async function main(): Promise<void> {
  const window = Number(argument('window') ?? 4096);
  const corpusDir =
    argument('corpus') ?? findDefaultCorpus(path.resolve(import.meta.dirname, '..')) ?? '/work/shared/corpus';
  const corpus = loadCorpus(corpusDir);
  const tasks = selectCorpusTasks(corpus, argument('tasks'));
  const { modelPath } = ensureBenchModel((line) => console.error(line));
  const llama = await getLlama({ build: 'never', gpu: false });
  const model = await llama.loadModel({ modelPath, vocabOnly: true, gpuLayers: 0 });
  const counter = modelCounter(model, window);
  const prompts = new PromptLibrary(path.resolve(import.meta.dirname, '../prompts'));

  const fixed = fixedParts(counter, prompts);
  const cells = await taskCells(corpus, tasks, counter, window, prompts);
  const codeFiles = tasks.map((task) =>
    path.join(defaultCorpusCache(), 'context-repos', `${task.id}-${task.fix_commit.slice(0, 8)}`),
  );
  const error = estimateError(codeFiles, (text) => counter.countText(text));
  await model.dispose();

  const perRole = perRoleRows(cells);
  const overflows = cells.filter((cell) => cell.overflow === true).length;
  const wholeFileLimit = cells.filter((cell) => typeof cell.whole_file_limit === 'string').length;
  const result = {
    at: new Date().toISOString(),
    machine: machine(),
    window,
    model: path.basename(modelPath),
    corpus: corpus.dir,
    tasks: tasks.length,
    overflows,
    whole_file_limit: wholeFileLimit,
    fixed,
    per_role: perRole,
    estimate_error: error,
    cells,
  };
  const out = path.resolve(import.meta.dirname, 'results', 'window.json');
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  printTables(result, out);
  if (process.argv.includes('--json'))
    console.log(
      JSON.stringify({
        window,
        tasks: tasks.length,
        prompts: cells.length,
        overflows,
        whole_file_limit: wholeFileLimit,
        estimate_error: error,
      }),
    );
  if (overflows > 0) process.exitCode = 1;
}

await main();
