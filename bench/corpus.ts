/**
 * `npm run bench:corpus [-- --corpus DIR --tasks GLOB --workflows a,b --formats x,y --model SPEC --jobs N]`:
 * (`--journal FILE` appends each task line as it ends; `--from FILE,…` builds the table from journals,
 * or from `lathe eval --corpus --json` output, instead of running: a later line for the same task × workflow × format replaces an earlier one, so
 * a matrix can run in pieces and a cell can be run again after a fix.)
 * harness fidelity on a real bug-fix corpus — every task × workflow × edit format run by Lathe with
 * (by default) the oracle model, judged by the task's own test command. Prints a table and writes
 * bench/results/corpus.json and corpus.md (`--name NAME`: NAME.json and NAME.md, so another corpus's table
 * never replaces the shared corpus's). Hours on the full corpus: it is not part of `npm run bench`.
 * A verification of a tree already verified in this process is answered from its result (decision 98);
 * `--fresh-verifications` runs every one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { WORKFLOW_NAMES } from '../shared/schemas/workflowName';
import { EditFormatNameSchema } from '../shared/engine/runConfig';
import { sourceAppRoot } from '../electron/core/appRoot';
import {
  findDefaultCorpus,
  loadCorpus,
  runCorpusEval,
  selectCorpusTasks,
  VerificationCache,
  type CorpusTaskLine,
  CorpusTaskLineSchema,
} from '../electron/core/eval/corpus/index';
import { medianTokens } from '../shared/engine/tokenCounts';
import { figure, report } from './lib/results';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    'fresh-verifications': { type: 'boolean' },
    tasks: { type: 'string' },
    workflows: { type: 'string' },
    formats: { type: 'string' },
    model: { type: 'string', default: 'oracle:' },
    jobs: { type: 'string', default: '1' },
    out: { type: 'string' },
    journal: { type: 'string' },
    from: { type: 'string' },
    name: { type: 'string', default: 'corpus' },
  },
});
const appRoot = sourceAppRoot();
const corpusDir = values.corpus ? path.resolve(values.corpus) : findDefaultCorpus(appRoot);
if (!corpusDir) throw new Error('no corpus: pass --corpus DIR or set LATHE_CORPUS');
const corpus = loadCorpus(corpusDir);
const tasks = selectCorpusTasks(corpus, values.tasks);
const workflows = values.workflows ? values.workflows.split(',') : [...WORKFLOW_NAMES];
const formats = (values.formats ? values.formats.split(',') : [...EditFormatNameSchema.options]).map((format) =>
  EditFormatNameSchema.parse(format),
);
const lines: CorpusTaskLine[] = [];
const started = Date.now();
if (values.from) {
  const byCell = new Map<string, CorpusTaskLine>();
  for (const file of values.from.split(',')) {
    for (const text of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!text.trim()) continue;
      const raw: unknown = JSON.parse(text);
      // `lathe eval --corpus --json` output can be read as a journal: its summary line is skipped.
      if (typeof raw === 'object' && raw !== null && !('task' in raw)) continue;
      const line = CorpusTaskLineSchema.parse(raw);
      byCell.set(`${line.task}\u0000${line.workflow}\u0000${line.edit_format}`, line);
    }
  }
  const wanted = new Set(tasks.map((task) => task.id));
  lines.push(
    ...[...byCell.values()].filter(
      (line) =>
        wanted.has(line.task) && workflows.includes(line.workflow) && (formats as string[]).includes(line.edit_format),
    ),
  );
} else {
  await runMatrix();
}

async function runMatrix(): Promise<void> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-bench-corpus-'));
  const verificationCache = values['fresh-verifications']
    ? undefined
    : new VerificationCache(path.join(workDir, 'verifications'));
  try {
    for (const workflow of workflows) {
      for (const editFormat of formats) {
        process.stdout.write(`\n=== ${workflow} × ${editFormat}: ${tasks.length} task(s)\n`);
        const result = await runCorpusEval({
          appRoot,
          corpusDir: corpus.dir,
          tasks,
          workflow,
          editFormat,
          model: values.model,
          timeLimitMs: 30 * 60_000,
          jobs: Number(values.jobs),
          workDir: path.join(workDir, `${workflow}-${editFormat}`),
          outDir: values.out ? path.join(path.resolve(values.out), `${workflow}-${editFormat}`) : null,
          retryBackoffMs: 0,
          verificationCache,
          onTaskLine: (line) => {
            if (values.journal) fs.appendFileSync(values.journal, `${JSON.stringify(line)}\n`);
            process.stdout.write(
              `${line.faithful ? 'GREEN ' : line.green ? 'green*' : 'MISS  '} ${line.task} (${Math.round(line.wall_ms / 100) / 10} s)${line.miss ? ` — ${line.miss}` : ''}\n`,
            );
          },
        });
        lines.push(...result.lines);
      }
    }
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

/** Issue 28's goals: median new-prefill tokens per task, each workflow in its default edit format (oracle, this corpus). */
const PREFILL_GOALS: Record<string, number> = {
  'dev-agent': 8_000,
  supervised: 25_000,
  minimal: 3_685,
  'retry-loop': 15_634,
  'editor-scouts': 16_598,
};
const tokenRows = workflows.flatMap((workflow) => {
  const runs = lines.filter((line) => line.workflow === workflow);
  const medians = medianTokens(runs.flatMap((line) => (line.tokens ? [line.tokens] : [])));
  return medians
    ? [
        {
          workflow,
          formats: [...new Set(runs.map((line) => line.edit_format))],
          runs: runs.length,
          green: runs.filter((line) => line.green).length,
          ...medians,
        },
      ]
    : [];
});

const faithful = lines.filter((line) => line.faithful).length;
const misses = lines.filter((line) => !line.faithful);
const cells = workflows.flatMap((workflow) =>
  formats.map((format) => ({
    workflow,
    format,
    lines: lines.filter((line) => line.workflow === workflow && line.edit_format === format),
  })),
);
report({
  bench: values.name,
  figures: [
    figure('corpus_runs', 'task × workflow × format runs', lines.length, 'runs'),
    figure(
      'corpus_green',
      'runs green (complete, tests pass bare on the run branch)',
      lines.filter((line) => line.green).length,
      'runs',
    ),
    figure(
      'corpus_fidelity',
      'harness fidelity (green, and Lathe counts = bare counts on the fixed tree)',
      lines.length === 0 ? 0 : Math.round((faithful / lines.length) * 1000) / 10,
      '%',
      { min: 100 },
    ),
    ...tokenRows.map((row) =>
      figure(
        `prefill_median_${row.workflow}`,
        `median new-prefill tokens per task, ${row.workflow} (${row.formats.join(', ')})`,
        row.prefill,
        'tokens',
        PREFILL_GOALS[row.workflow] === undefined ? undefined : { max: PREFILL_GOALS[row.workflow] },
      ),
    ),
    figure(
      'corpus_minutes',
      values.from ? "run time (sum over the journals' runs)" : 'wall time',
      Math.round((values.from ? lines.reduce((sum, line) => sum + line.wall_ms, 0) : Date.now() - started) / 6000) / 10,
      'min',
    ),
  ],
  details: {
    corpus: corpus.dir,
    model: values.model,
    tasks: tasks.map((task) => task.id),
    workflows,
    formats,
    median_tokens: tokenRows,
    cells: cells.map((cell) => ({
      workflow: cell.workflow,
      format: cell.format,
      runs: cell.lines.length,
      faithful: cell.lines.filter((line) => line.faithful).length,
    })),
    lines,
  },
});

const mark = (line: CorpusTaskLine | undefined) => (!line ? '–' : line.faithful ? '✓' : line.green ? '≈' : '✗');
const md = [
  `# Harness fidelity on the corpus (${values.model})`,
  '',
  `${lines.length} runs: ${faithful} faithful (${lines.length === 0 ? 0 : Math.round((faithful / lines.length) * 1000) / 10}%), ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}).`,
  "✓ green and faithful · ≈ green, but Lathe's counts differ from the bare run · ✗ not green",
  '',
  `| task | ${cells.map((cell) => `${cell.workflow} ${cell.format}`).join(' | ')} |`,
  `| --- | ${cells.map(() => ':-:').join(' | ')} |`,
  ...tasks.map(
    (task) =>
      `| ${task.id} | ${cells.map((cell) => mark(cell.lines.find((line) => line.task === task.id))).join(' | ')} |`,
  ),
  '',
  '## Tokens (median per task; estimated for oracle and replay)',
  '',
  '| workflow | formats | runs | green | prompt | cached | prefill | generated | calls |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ...tokenRows.map(
    (row) =>
      `| ${row.workflow} | ${row.formats.join(', ')} | ${row.runs} | ${row.green} | ${row.prompt} | ${row.cached} | ${row.prefill} | ${row.generated} | ${row.calls} |`,
  ),
  '',
  misses.length === 0 ? 'No misses.' : '## Misses',
  ...misses.map((line) => `- ${line.task} · ${line.workflow} · ${line.edit_format}: ${line.miss ?? 'not green'}`),
  '',
];
fs.writeFileSync(
  path.join(path.dirname(new URL(import.meta.url).pathname), 'results', `${values.name}.md`),
  md.join('\n'),
);
