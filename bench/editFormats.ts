/**
 * `npm run bench:formats [-- --corpus DIR --tasks GLOB]`: is every gold patch of a real bug-fix corpus
 * expressible in each edit format within the schemas' bounds, and what does the answer cost?
 *
 * For each task, the oracle model's writer answer is derived in every format (editAnswer, the code the
 * `oracle:` model uses) and applied by Lathe's own format to the files before the fix; it counts only
 * if that gives the fixed files exactly. Four times, by what the writer is shown of the gold files:
 * - bounds: each file whole (the formats and their schema bounds alone);
 * - listing: the artifacts-only context (contextFiles, seed 000's writer), which cuts a file at 64 KB;
 * - planned: the context engine (budgetedContext) at the default window for a model that states none,
 *   with the gold files named as the task's artifacts (as a Planner names them);
 * - goal only: the same, with no artifacts (single-task workflows: dev-agent, retry-loop, editor-scouts).
 * Prints a table and writes bench/results/edit-formats.json.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { budgetedContext, contextFiles } from '../electron/core/agents/contextFiles';
import { sourceAppRoot } from '../electron/core/appRoot';
import { UNSTATED_CONTEXT_SIZE } from '../electron/core/context/roleBudget';
import { editFormats } from '../electron/core/edits/formats';
import { defaultEditPolicy } from '../electron/core/edits/policy';
import { findDefaultCorpus, loadCorpus, selectCorpusTasks, type CorpusTask } from '../electron/core/eval/corpus/index';
import { DEFAULT_MAX_TOKENS } from '../electron/core/llm/index';
import { editAnswer } from '../electron/core/llm/oracle/editAnswers';
import { parseGoldPatch } from '../electron/core/llm/oracle/goldPatch';
import { visibleFiles } from '../electron/core/llm/oracle/requestView';
import { wholeView, type VisibleFile } from '../electron/core/llm/oracle/visibleFile';
import { createReadOnlyTools } from '../electron/core/tools/readOnlyTools';
import type { EditFormatName } from '../electron/core/edits/types';
import { figure, report } from './lib/results';

const { values } = parseArgs({ options: { corpus: { type: 'string' }, tasks: { type: 'string' } } });
const corpusDir = values.corpus ? path.resolve(values.corpus) : findDefaultCorpus(sourceAppRoot());
if (!corpusDir) throw new Error('no corpus: pass --corpus DIR or set LATHE_CORPUS');
const corpus = loadCorpus(corpusDir);
const tasks = selectCorpusTasks(corpus, values.tasks);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-bench-formats-'));
/** Lathe's own estimate for models without a tokenizer (electron/core/llm/results.ts). */
const tokens = (chars: number) => Math.ceil(chars / 4);
const FORMATS: EditFormatName[] = ['whole-file', 'search-replace', 'unified-diff'];
/** The writer's context budget as buildMessages computes it: the window, less the answer's reserve and the mandatory prompt (~1 180 tokens, from a run's agent_context event). */
const ENGINE_BUDGET = UNSTATED_CONTEXT_SIZE - DEFAULT_MAX_TOKENS - 1_180;
const VIEWS = ['bounds', 'listing', 'planned', 'goal'] as const;
type View = (typeof VIEWS)[number];

interface FormatCell {
  expressible: boolean;
  reason: string | null;
  answer_chars: number;
  answer_tokens: number;
  /** search-replace: blocks, and how many needed lines around the changed ones to be unique. */
  blocks: number;
  grown_blocks: number;
  max_added_lines: number;
}

interface TaskRow {
  task: string;
  files: string[];
  file_chars: number;
  hunks: number;
  /** How each view shows the gold files: whole, part (cut or excerpt), or absent. */
  shown: Record<View, string>;
  cells: Record<View, Record<EditFormatName, FormatCell>>;
}

const bareClones = new Map<string, string>();
function bareOf(task: CorpusTask): string {
  let bare = bareClones.get(task.bundle);
  if (!bare) {
    bare = path.join(scratch, `${task.repo}.git`);
    execFileSync('git', ['clone', '-q', '--bare', path.join(corpus.dir, task.bundle), bare]);
    bareClones.set(task.bundle, bare);
  }
  return bare;
}

function show(task: CorpusTask, commit: string, file: string): string | null {
  try {
    return execFileSync('git', ['--git-dir', bareOf(task), 'show', `${commit}:${file}`], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return null;
  }
}

function shownAs(view: VisibleFile | undefined): string {
  return !view ? 'absent' : view.whole ? 'whole' : 'part';
}

async function measure(
  format: EditFormatName,
  task: CorpusTask,
  visible: ReadonlyMap<string, VisibleFile>,
  before: Record<string, string | null>,
  after: Record<string, string | null>,
): Promise<FormatCell> {
  const parsed = parseGoldPatch(task.gold_patch);
  const empty = { answer_chars: 0, answer_tokens: 0, blocks: 0, grown_blocks: 0, max_added_lines: 0 };
  if (!parsed.ok) return { expressible: false, reason: parsed.message, ...empty };
  const answer = editAnswer(format, parsed.patch.files, visible);
  if (!answer.ok) return { expressible: false, reason: answer.reason, ...empty };
  const chars = JSON.stringify(answer.proposal).length;
  const cost = {
    answer_chars: chars,
    answer_tokens: tokens(chars),
    blocks: answer.blocks.length,
    grown_blocks: answer.blocks.filter((block) => block.addedContextLines > 0).length,
    max_added_lines: Math.max(0, ...answer.blocks.map((block) => block.addedContextLines)),
  };
  try {
    const planned = await editFormats[format].plan(
      answer.proposal,
      { read: async (file) => before[file] ?? null },
      defaultEditPolicy(),
    );
    const written = { ...before, ...Object.fromEntries(planned.changes.map((change) => [change.path, change.after])) };
    const wrong = Object.keys(after).filter((file) => (written[file] ?? null) !== after[file]);
    return wrong.length === 0
      ? { expressible: true, reason: null, ...cost }
      : { expressible: false, reason: `Lathe wrote ${wrong.join(', ')} differently from the fix`, ...cost };
  } catch (error) {
    return {
      expressible: false,
      reason: `Lathe rejected it: ${error instanceof Error ? error.message : String(error)}`,
      ...cost,
    };
  }
}

const rows: TaskRow[] = [];
try {
  for (const task of tasks) {
    const parsed = parseGoldPatch(task.gold_patch);
    const files = parsed.ok ? parsed.patch.files.map((file) => file.path) : task.gold_files;
    const before = Object.fromEntries(files.map((file) => [file, show(task, task.parent_commit, file)]));
    const after = Object.fromEntries(files.map((file) => [file, show(task, task.fix_commit, file)]));
    const whole = new Map(
      Object.entries(before).flatMap(([file, content]) => (content === null ? [] : [[file, wholeView(content)]])),
    );
    // The starting tree: the fix commit's, with the gold files as they were before the fix.
    const dir = path.join(scratch, 'tree', task.id);
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('sh', ['-c', `git --git-dir "$0" archive ${task.fix_commit} | tar -x -C "$1"`, bareOf(task), dir]);
    for (const [file, content] of Object.entries(before)) {
      if (content === null) fs.rmSync(path.join(dir, file), { force: true });
      else fs.writeFileSync(path.join(dir, file), content);
    }
    const tools = createReadOnlyTools(dir);
    const views: Record<View, Map<string, VisibleFile>> = {
      bounds: whole,
      listing: visibleFiles(await contextFiles(tools, { artifacts: files, feedback: null, includeAll: false })),
      planned: visibleFiles(
        (await budgetedContext(tools, dir, { goal: task.goal, artifacts: files }, ENGINE_BUDGET, {})).items,
      ),
      goal: visibleFiles((await budgetedContext(tools, dir, { goal: task.goal }, ENGINE_BUDGET, {})).items),
    };
    const row: TaskRow = {
      task: task.id,
      files,
      file_chars: Object.values(before).reduce((sum, content) => sum + (content?.length ?? 0), 0),
      hunks: parsed.ok ? parsed.patch.files.reduce((sum, file) => sum + file.hunks.length, 0) : 0,
      shown: Object.fromEntries(
        VIEWS.map((view) => [view, files.map((file) => shownAs(views[view].get(file))).join('+')]),
      ) as Record<View, string>,
      cells: Object.fromEntries(VIEWS.map((view) => [view, {}])) as TaskRow['cells'],
    };
    for (const view of VIEWS)
      for (const format of FORMATS) row.cells[view][format] = await measure(format, task, views[view], before, after);
    rows.push(row);
  }
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}

const median = (numbers: number[]) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : (sorted[Math.floor((sorted.length - 1) / 2)] ?? 0);
};
const count = (predicate: (row: TaskRow) => boolean) => rows.filter(predicate).length;
const cellText = (cell: FormatCell) => (cell.expressible ? `✓ ${cell.answer_tokens}` : '✗');
const marks = (row: TaskRow, view: View) =>
  FORMATS.map((format) => (row.cells[view][format].expressible ? '✓' : '✗')).join(' ');
const table = [
  [
    'task',
    'file KB',
    'hunks',
    'whole-file',
    'search-replace',
    'unified-diff',
    'grown',
    'listing',
    'planned',
    'goal only',
  ],
  ...rows.map((row) => [
    row.task,
    (row.file_chars / 1024).toFixed(1),
    String(row.hunks),
    cellText(row.cells.bounds['whole-file']),
    cellText(row.cells.bounds['search-replace']),
    cellText(row.cells.bounds['unified-diff']),
    `${row.cells.bounds['search-replace'].grown_blocks}/${row.cells.bounds['search-replace'].blocks}`,
    `${marks(row, 'listing')} (${row.shown.listing})`,
    `${marks(row, 'planned')} (${row.shown.planned})`,
    `${marks(row, 'goal')} (${row.shown.goal})`,
  ]),
];
const widths = table[0]?.map((_, column) => Math.max(...table.map((line) => line[column]?.length ?? 0))) ?? [];
process.stdout.write(
  '\nanswer tokens (≈ characters / 4) per format within the bounds; ✗ = not expressible. Contexts: WF SR UD (how the gold file is shown)\n',
);
for (const line of table)
  process.stdout.write(`${line.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}\n`);
const misses = rows.flatMap((row) =>
  VIEWS.flatMap((view) =>
    FORMATS.flatMap((format) =>
      row.cells[view][format].expressible ? [] : [`${row.task} ${format} (${view}): ${row.cells[view][format].reason}`],
    ),
  ),
);
if (misses.length > 0) process.stdout.write(`\n${misses.join('\n')}\n`);

const VIEW_LABELS: Record<View, string> = {
  bounds: 'within the bounds',
  listing: 'from the artifacts-only context',
  planned: 'from the context engine, artifacts named',
  goal: 'from the context engine, goal only',
};
const figures = FORMATS.flatMap((format) => {
  const cells = rows.map((row) => row.cells.bounds[format]);
  return [
    ...VIEWS.map((view) =>
      figure(
        `${format}_${view}`,
        `${format}: expressible ${VIEW_LABELS[view]}`,
        count((row) => row.cells[view][format].expressible),
        `of ${rows.length}`,
      ),
    ),
    figure(
      `${format}_median_tokens`,
      `${format}: median answer`,
      median(cells.map((cell) => cell.answer_tokens)),
      'tokens',
    ),
    figure(
      `${format}_max_tokens`,
      `${format}: largest answer`,
      Math.max(0, ...cells.map((cell) => cell.answer_tokens)),
      'tokens',
    ),
    figure(
      `${format}_over_max_tokens`,
      `${format}: answers over the default maxTokens (${DEFAULT_MAX_TOKENS})`,
      cells.filter((cell) => cell.answer_tokens > DEFAULT_MAX_TOKENS).length,
      `of ${rows.length}`,
    ),
  ];
});
figures.push(
  figure(
    'sr_grown_blocks',
    'search-replace blocks whose changed lines needed context to be unique',
    rows.reduce((sum, row) => sum + row.cells.bounds['search-replace'].grown_blocks, 0),
    `of ${rows.reduce((sum, row) => sum + row.cells.bounds['search-replace'].blocks, 0)}`,
  ),
);
figures.push(
  figure(
    'sr_max_context_lines',
    'search-replace: most context lines a block needed',
    Math.max(0, ...rows.map((row) => row.cells.bounds['search-replace'].max_added_lines)),
    'lines',
  ),
);
figures.push(
  figure(
    'median_file_tokens',
    'median gold file size (what every format must read)',
    median(rows.map((row) => tokens(row.file_chars))),
    'tokens',
  ),
);
report({ bench: 'edit-formats', figures, details: { corpus: corpus.dir, engine_budget_tokens: ENGINE_BUDGET, rows } });
