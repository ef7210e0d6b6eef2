/**
 * `npm run bench:corpus [-- --corpus DIR --tasks GLOB --workflows a,b --formats x,y --model SPEC --jobs N]`:
 * (`--journal FILE` appends each task line as it ends; `--from FILE,…` builds the table from journals
 * instead of running: a later line for the same task × workflow × format replaces an earlier one, so
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
import { WORKFLOW_NAMES } from '../shared/engine/workflows';
import { EditFormatNameSchema } from '../shared/engine/runConfig';
import { sourceAppRoot } from '../electron/core/appRoot';
import { findDefaultCorpus, loadCorpus, runCorpusEval, selectCorpusTasks, VerificationCache, type CorpusTaskLine, CorpusTaskLineSchema } from '../electron/core/eval/corpus/index';
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
const formats = (values.formats ? values.formats.split(',') : [...EditFormatNameSchema.options]).map((format) => EditFormatNameSchema.parse(format));
const lines: CorpusTaskLine[] = [];
const started = Date.now();
if (values.from) {
  const byCell = new Map<string, CorpusTaskLine>();
  for (const file of values.from.split(',')) {
    for (const text of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!text.trim()) continue;
      const line = CorpusTaskLineSchema.parse(JSON.parse(text));
      byCell.set(`${line.task}\u0000${line.workflow}\u0000${line.edit_format}`, line);
    }
  }
  const wanted = new Set(tasks.map((task) => task.id));
  lines.push(...[...byCell.values()].filter((line) => wanted.has(line.task) && workflows.includes(line.workflow) && (formats as string[]).includes(line.edit_format)));
} else {
  await runMatrix();
}

async function runMatrix(): Promise<void> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-bench-corpus-'));
  const verificationCache = values['fresh-verifications'] ? undefined : new VerificationCache(path.join(workDir, 'verifications'));
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
            process.stdout.write(`${line.faithful ? 'GREEN ' : line.green ? 'green*' : 'MISS  '} ${line.task} (${Math.round(line.wall_ms / 100) / 10} s)${line.miss ? ` — ${line.miss}` : ''}\n`);
          },
        });
        lines.push(...result.lines);
      }
    }
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

const faithful = lines.filter((line) => line.faithful).length;
const misses = lines.filter((line) => !line.faithful);
const cells = workflows.flatMap((workflow) => formats.map((format) => ({ workflow, format, lines: lines.filter((line) => line.workflow === workflow && line.edit_format === format) })));
report({
  bench: values.name,
  figures: [
    figure('corpus_runs', 'task × workflow × format runs', lines.length, 'runs'),
    figure('corpus_green', 'runs green (complete, tests pass bare on the run branch)', lines.filter((line) => line.green).length, 'runs'),
    figure('corpus_fidelity', 'harness fidelity (green, and Lathe counts = bare counts on the fixed tree)', lines.length === 0 ? 0 : Math.round((faithful / lines.length) * 1000) / 10, '%', { min: 100 }),
    figure('corpus_minutes', values.from ? 'run time (sum over the journals\' runs)' : 'wall time', Math.round((values.from ? lines.reduce((sum, line) => sum + line.wall_ms, 0) : Date.now() - started) / 6000) / 10, 'min'),
  ],
  details: { corpus: corpus.dir, model: values.model, tasks: tasks.map((task) => task.id), workflows, formats, cells: cells.map((cell) => ({ workflow: cell.workflow, format: cell.format, runs: cell.lines.length, faithful: cell.lines.filter((line) => line.faithful).length })), lines },
});

const mark = (line: CorpusTaskLine | undefined) => (!line ? '–' : line.faithful ? '✓' : line.green ? '≈' : '✗');
const md = [
  `# Harness fidelity on the corpus (${values.model})`,
  '',
  `${lines.length} runs: ${faithful} faithful (${lines.length === 0 ? 0 : Math.round((faithful / lines.length) * 1000) / 10}%), ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}).`,
  '✓ green and faithful · ≈ green, but Lathe\'s counts differ from the bare run · ✗ not green',
  '',
  `| task | ${cells.map((cell) => `${cell.workflow} ${cell.format}`).join(' | ')} |`,
  `| --- | ${cells.map(() => ':-:').join(' | ')} |`,
  ...tasks.map((task) => `| ${task.id} | ${cells.map((cell) => mark(cell.lines.find((line) => line.task === task.id))).join(' | ')} |`),
  '',
  misses.length === 0 ? 'No misses.' : '## Misses',
  ...misses.map((line) => `- ${line.task} · ${line.workflow} · ${line.edit_format}: ${line.miss ?? 'not green'}`),
  '',
];
fs.writeFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), 'results', `${values.name}.md`), md.join('\n'));
