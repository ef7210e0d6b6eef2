/**
 * `npm run bench:formats [-- --corpus DIR --tasks GLOB]`: is every gold patch of a real bug-fix corpus
 * expressible in each edit format within the schemas' bounds, and what does the answer cost?
 *
 * For each task, the oracle model's writer answer is derived in every format (editAnswer, the code the
 * `oracle:` model uses) and applied by Lathe's own format to the files before the fix; it counts only
 * if that gives the fixed files exactly. Twice: with each gold file shown whole ("bounds"), and with the
 * Coder's context as Lathe builds it today for the task's artifacts ("context": contextFiles, which cuts
 * a file at 64 KB). Prints a table and writes bench/results/edit-formats.json.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { contextFiles } from '../electron/core/agents/contextFiles';
import { sourceAppRoot } from '../electron/core/appRoot';
import { editFormats } from '../electron/core/edits/formats';
import { defaultEditPolicy } from '../electron/core/edits/policy';
import { findDefaultCorpus, loadCorpus, selectCorpusTasks, type CorpusTask } from '../electron/core/eval/corpus/index';
import { DEFAULT_MAX_TOKENS } from '../electron/core/llm/index';
import { editAnswer, type VisibleFile } from '../electron/core/llm/oracle/editAnswers';
import { parseGoldPatch } from '../electron/core/llm/oracle/goldPatch';
import { visibleFiles } from '../electron/core/llm/oracle/requestView';
import { createReadOnlyTools } from '../electron/core/tools/readOnlyTools';
import type { EditFormatName } from '../electron/core/workspace/types';
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

interface FormatCell {
  expressible: boolean;
  reason: string | null;
  answer_chars: number;
  answer_tokens: number;
  /** search-replace: blocks, and how many had to grow beyond the hunk's own lines to be unique. */
  blocks: number;
  grown_blocks: number;
  max_added_lines: number;
}

interface TaskRow {
  task: string;
  files: string[];
  file_chars: number;
  hunks: number;
  bounds: Record<EditFormatName, FormatCell>;
  context: Record<EditFormatName, FormatCell>;
}

const bareClones = new Map<string, string>();
function show(task: CorpusTask, commit: string, file: string): string | null {
  let bare = bareClones.get(task.bundle);
  if (!bare) {
    bare = path.join(scratch, `${task.repo}.git`);
    execFileSync('git', ['clone', '-q', '--bare', path.join(corpus.dir, task.bundle), bare]);
    bareClones.set(task.bundle, bare);
  }
  try {
    return execFileSync('git', ['--git-dir', bare, 'show', `${commit}:${file}`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
}

async function measure(format: EditFormatName, task: CorpusTask, visible: Map<string, VisibleFile>, before: Record<string, string | null>, after: Record<string, string | null>): Promise<FormatCell> {
  const parsed = parseGoldPatch(task.gold_patch);
  const empty = { answer_chars: 0, answer_tokens: 0, blocks: 0, grown_blocks: 0, max_added_lines: 0 };
  if (!parsed.ok) return { expressible: false, reason: parsed.message, ...empty };
  const answer = editAnswer(format, parsed.patch.files, visible);
  if (!answer.ok) return { expressible: false, reason: answer.reason, ...empty };
  const chars = JSON.stringify(answer.proposal).length;
  const cost = { answer_chars: chars, answer_tokens: tokens(chars), blocks: answer.blocks.length, grown_blocks: answer.blocks.filter((block) => block.addedContextLines > 0).length, max_added_lines: Math.max(0, ...answer.blocks.map((block) => block.addedContextLines)) };
  try {
    const planned = await editFormats[format].plan(answer.proposal, { read: async (file) => before[file] ?? null }, defaultEditPolicy());
    const written = { ...before, ...Object.fromEntries(planned.changes.map((change) => [change.path, change.after])) };
    const wrong = Object.keys(after).filter((file) => (written[file] ?? null) !== after[file]);
    return wrong.length === 0 ? { expressible: true, reason: null, ...cost } : { expressible: false, reason: `Lathe wrote ${wrong.join(', ')} differently from the fix`, ...cost };
  } catch (error) {
    return { expressible: false, reason: `Lathe rejected it: ${error instanceof Error ? error.message : String(error)}`, ...cost };
  }
}

const rows: TaskRow[] = [];
try {
  for (const task of tasks) {
    const parsed = parseGoldPatch(task.gold_patch);
    const files = parsed.ok ? parsed.patch.files.map((file) => file.path) : task.gold_files;
    const before = Object.fromEntries(files.map((file) => [file, show(task, task.parent_commit, file)]));
    const after = Object.fromEntries(files.map((file) => [file, show(task, task.fix_commit, file)]));
    const whole = new Map(Object.entries(before).flatMap(([file, content]) => (content === null ? [] : [[file, { content, truncated: false }]])));
    // The Coder's context today: the task's artifacts read the way contextFiles reads them.
    const dir = path.join(scratch, 'context', task.id);
    for (const [file, content] of Object.entries(before)) {
      if (content === null) continue;
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), content);
    }
    const shown = visibleFiles(await contextFiles(createReadOnlyTools(dir), { artifacts: files, feedback: null, includeAll: false }));
    const row: TaskRow = {
      task: task.id,
      files,
      file_chars: Object.values(before).reduce((sum, content) => sum + (content?.length ?? 0), 0),
      hunks: parsed.ok ? parsed.patch.files.reduce((sum, file) => sum + file.hunks.length, 0) : 0,
      bounds: {} as TaskRow['bounds'],
      context: {} as TaskRow['context'],
    };
    for (const format of FORMATS) {
      row.bounds[format] = await measure(format, task, whole, before, after);
      row.context[format] = await measure(format, task, shown, before, after);
    }
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
const table = [
  ['task', 'file KB', 'hunks', 'whole-file', 'search-replace', 'unified-diff', 'grown SR blocks', 'in context today (WF/SR/UD)'],
  ...rows.map((row) => [
    row.task,
    (row.file_chars / 1024).toFixed(1),
    String(row.hunks),
    cellText(row.bounds['whole-file']),
    cellText(row.bounds['search-replace']),
    cellText(row.bounds['unified-diff']),
    `${row.bounds['search-replace'].grown_blocks}/${row.bounds['search-replace'].blocks}`,
    FORMATS.map((format) => (row.context[format].expressible ? '✓' : '✗')).join(' '),
  ]),
];
const widths = table[0]?.map((_, column) => Math.max(...table.map((line) => line[column]?.length ?? 0))) ?? [];
process.stdout.write(`\nanswer tokens (≈ characters / 4) per format; ✗ = not expressible\n`);
for (const line of table) process.stdout.write(`${line.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}\n`);
const misses = rows.flatMap((row) => FORMATS.flatMap((format) => (['bounds', 'context'] as const).flatMap((view) => (row[view][format].expressible ? [] : [`${row.task} ${format} (${view}): ${row[view][format].reason}`]))));
if (misses.length > 0) process.stdout.write(`\n${misses.join('\n')}\n`);

const figures = FORMATS.flatMap((format) => {
  const cells = rows.map((row) => row.bounds[format]);
  return [
    figure(`${format}_expressible`, `${format}: gold patches expressible within the bounds`, count((row) => row.bounds[format].expressible), `of ${rows.length}`),
    figure(`${format}_context_expressible`, `${format}: expressible from the Coder's context today`, count((row) => row.context[format].expressible), `of ${rows.length}`),
    figure(`${format}_median_tokens`, `${format}: median answer`, median(cells.map((cell) => cell.answer_tokens)), 'tokens'),
    figure(`${format}_max_tokens`, `${format}: largest answer`, Math.max(0, ...cells.map((cell) => cell.answer_tokens)), 'tokens'),
    figure(`${format}_over_max_tokens`, `${format}: answers over the default maxTokens (${DEFAULT_MAX_TOKENS})`, cells.filter((cell) => cell.answer_tokens > DEFAULT_MAX_TOKENS).length, `of ${rows.length}`),
  ];
});
figures.push(figure('sr_grown_blocks', 'search-replace blocks that needed more than the hunk’s lines to be unique', rows.reduce((sum, row) => sum + row.bounds['search-replace'].grown_blocks, 0), `of ${rows.reduce((sum, row) => sum + row.bounds['search-replace'].blocks, 0)}`));
figures.push(figure('median_file_tokens', 'median gold file size (what every format must read)', median(rows.map((row) => tokens(row.file_chars))), 'tokens'));
report({ bench: 'edit-formats', figures, details: { corpus: corpus.dir, rows } });
