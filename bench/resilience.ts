/**
 * `npm run bench:resilience [-- --corpus DIR --tasks GLOB --kinds a,b --workflows a,b --formats x,y --jobs N --seed N]`:
 * trust under a fallible model — the oracle's writer answers spoiled by each fault kind (docs/eval.md,
 * "Faults"), in each workflow and edit format the kind applies to, without and with --feedback-check,
 * plus `mixed` (every kind but repeat at 0.3). Per cell: runs green, runs that left damage on their
 * branch, mean writer answers, and for `repeat` the most identical answers seen in one step (goal ≤ 3).
 * `--journal FILE` appends each task line as it ends (and a run already in it is not run again: the matrix
 * resumes); `--from FILE,…` builds the tables from journals
 * instead of running (a later line for the same task and cell replaces an earlier one), so the matrix
 * runs in pieces. Writes bench/results/resilience.json and resilience.md. Hours on the whole corpus:
 * not part of `npm run bench`. A verification of a tree already verified in this process is answered
 * from its result (decision 98: most runs verify the same few trees); `--fresh-verifications` runs every one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { EditFormatNameSchema } from '../shared/engine/runConfig';
import { sourceAppRoot } from '../electron/core/appRoot';
import { isDamaging } from '../electron/core/eval/corpus/damage';
import {
  CorpusTaskLineSchema,
  findDefaultCorpus,
  loadCorpus,
  runCorpusEval,
  selectCorpusTasks,
  VerificationCache,
  type CorpusTaskLine,
} from '../electron/core/eval/corpus/index';
import { FAULT_FORMATS, FAULT_KINDS, MIXED, parseFaultList } from '../electron/core/llm/oracle/faults/faultSettings';
import { figure, report } from './lib/results';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    'fresh-verifications': { type: 'boolean' },
    tasks: { type: 'string' },
    kinds: { type: 'string' },
    workflows: { type: 'string' },
    formats: { type: 'string' },
    jobs: { type: 'string', default: '1' },
    seed: { type: 'string', default: '1' },
    journal: { type: 'string' },
    from: { type: 'string' },
    baseline: { type: 'string' },
  },
});
const WORKFLOWS = ['dev-agent', 'supervised', 'editor-scouts'];
const corpusDir = values.corpus ? path.resolve(values.corpus) : findDefaultCorpus(sourceAppRoot());
if (!corpusDir) throw new Error('no corpus: pass --corpus DIR or set LATHE_CORPUS');
const corpus = loadCorpus(corpusDir);
const tasks = selectCorpusTasks(corpus, values.tasks);
const kinds = values.kinds ? values.kinds.split(',') : [...FAULT_KINDS, MIXED];
for (const kind of kinds)
  if (kind !== MIXED && !(FAULT_KINDS as readonly string[]).includes(kind))
    throw new Error(`unknown fault kind '${kind}' (${FAULT_KINDS.join(', ')}, ${MIXED})`);
const workflows = values.workflows ? values.workflows.split(',') : WORKFLOWS;
const formats = (values.formats ? values.formats.split(',') : [...EditFormatNameSchema.options]).map((format) =>
  EditFormatNameSchema.parse(format),
);
const seed = Number(values.seed);

interface Cell {
  kind: string;
  workflow: string;
  format: string;
  check: boolean;
}
const cells: Cell[] = kinds.flatMap((kind) =>
  workflows.flatMap((workflow) =>
    formats
      .filter((format) => kind === MIXED || FAULT_FORMATS[kind as keyof typeof FAULT_FORMATS].includes(format))
      .flatMap((format) => [false, true].map((check) => ({ kind, workflow, format, check }))),
  ),
);
const cellKey = (cell: Cell) => `${cell.kind}\u0000${cell.workflow}\u0000${cell.format}\u0000${cell.check}`;
/** A line's cell: one kind, or `mixed` when it ran with several. */
const cellOf = (line: CorpusTaskLine): Cell | null => {
  if (!line.faults) return null;
  const kind = line.faults.kinds.includes(',') ? MIXED : (line.faults.kinds.split(':')[0] ?? '');
  return { kind, workflow: line.workflow, format: line.edit_format, check: line.faults.feedback_check };
};

const lines: CorpusTaskLine[] = [];
const started = Date.now();
if (values.from) {
  const byRun = new Map<string, CorpusTaskLine>();
  for (const file of values.from.split(',')) {
    for (const text of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!text.trim()) continue;
      const line = CorpusTaskLineSchema.parse(JSON.parse(text));
      const cell = cellOf(line);
      if (cell) byRun.set(`${line.task}\u0000${cellKey(cell)}`, line);
    }
  }
  const wanted = new Set(tasks.map((task) => task.id));
  const inMatrix = new Set(cells.map(cellKey));
  lines.push(
    ...[...byRun.values()].filter((line) => wanted.has(line.task) && inMatrix.has(cellKey(cellOf(line) as Cell))),
  );
} else {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-bench-resilience-'));
  const verificationCache = values['fresh-verifications']
    ? undefined
    : new VerificationCache(path.join(workDir, 'verifications'));
  // A journal that already holds runs of this matrix (same seed) is resumed: those runs are kept, not run again.
  const done = new Map<string, CorpusTaskLine>();
  if (values.journal && fs.existsSync(values.journal)) {
    for (const text of fs.readFileSync(values.journal, 'utf8').split('\n')) {
      if (!text.trim()) continue;
      const line = CorpusTaskLineSchema.parse(JSON.parse(text));
      const cell = cellOf(line);
      if (cell && line.faults?.seed === seed) done.set(`${line.task}\u0000${cellKey(cell)}`, line);
    }
  }
  try {
    for (const [index, cell] of cells.entries()) {
      const parsed = parseFaultList(cell.kind);
      if (!parsed.ok) throw new Error(parsed.message);
      const kept = tasks.flatMap((task) => done.get(`${task.id}\u0000${cellKey(cell)}`) ?? []);
      lines.push(...kept);
      const toRun = tasks.filter((task) => !done.has(`${task.id}\u0000${cellKey(cell)}`));
      process.stdout.write(
        `\n=== [${index + 1}/${cells.length}] ${cell.kind} × ${cell.workflow} × ${cell.format}${cell.check ? ' × feedback-check' : ''}: ${toRun.length} task(s)${kept.length > 0 ? ` (${kept.length} from the journal)` : ''}\n`,
      );
      if (toRun.length === 0) continue;
      const result = await runCorpusEval({
        appRoot: sourceAppRoot(),
        corpusDir: corpus.dir,
        tasks: toRun,
        workflow: cell.workflow,
        editFormat: EditFormatNameSchema.parse(cell.format),
        model: 'oracle:',
        faults: { faults: parsed.value, seed, feedbackCheck: cell.check },
        timeLimitMs: 30 * 60_000,
        jobs: Number(values.jobs),
        workDir: path.join(workDir, String(index)),
        outDir: null,
        retryBackoffMs: 0,
        verificationCache,
        onTaskLine: (line) => {
          if (values.journal) fs.appendFileSync(values.journal, `${JSON.stringify(line)}\n`);
          const damage = isDamaging(line.damage) ? ` damage ${JSON.stringify(line.damage)}` : '';
          process.stdout.write(
            `${line.green ? 'green ' : 'MISS  '} ${line.task} (${line.attempts ?? 0} answers, faults ${line.faults_applied.join('+') || 'none applied'}, ${Math.round(line.wall_ms / 100) / 10} s)${damage}\n`,
          );
        },
      });
      lines.push(...result.lines);
    }
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

/**
 * The unspoiled oracle's matrix (bench:corpus): a run whose task × workflow × format the perfect model
 * does not solve either (more-itertools' 42k-token file in whole-file) is no measure of recovery, so
 * its misses are counted apart.
 */
const baselineFile =
  values.baseline ?? path.join(path.dirname(new URL(import.meta.url).pathname), 'results', 'corpus.json');
const unspoiledGreen = new Map<string, boolean>();
if (fs.existsSync(baselineFile)) {
  const details = (JSON.parse(fs.readFileSync(baselineFile, 'utf8')) as { details?: { lines?: unknown[] } }).details;
  for (const raw of details?.lines ?? []) {
    const line = CorpusTaskLineSchema.parse(raw);
    unspoiledGreen.set(`${line.task}\u0000${line.workflow}\u0000${line.edit_format}`, line.green);
  }
}
const solvedUnspoiled = (line: CorpusTaskLine) =>
  unspoiledGreen.get(`${line.task}\u0000${line.workflow}\u0000${line.edit_format}`) !== false;

const rows = cells
  .map((cell) => ({
    cell,
    lines: lines.filter((line) => {
      const other = cellOf(line);
      return other !== null && cellKey(other) === cellKey(cell);
    }),
  }))
  .filter((row) => row.lines.length > 0)
  .map(({ cell, lines: runs }) => ({
    ...cell,
    runs: runs.length,
    applied: runs.filter((line) => line.faults_applied.length > 0).length,
    green: runs.filter((line) => line.green).length,
    solvable: runs.filter(solvedUnspoiled).length,
    green_solvable: runs.filter((line) => line.green && solvedUnspoiled(line)).length,
    damaging: runs.filter((line) => isDamaging(line.damage)).length,
    mean_attempts: Math.round((runs.reduce((sum, line) => sum + (line.attempts ?? 0), 0) / runs.length) * 10) / 10,
    most_identical: Math.max(...runs.map((line) => line.most_identical_answers)),
  }));
const repeats = rows.filter((row) => row.kind === 'repeat');
// `repeat` gives the same spoiled answer every time: it is meant to end, not to end green (its goal is ≤ 3 answers).
const recoverable = lines.filter((line) => cellOf(line)?.kind !== 'repeat');
const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);
report({
  bench: 'resilience',
  figures: [
    figure('resilience_runs', 'task × cell runs', lines.length, 'runs'),
    figure(
      'resilience_green',
      'runs green but repeat (complete, tests pass bare, no test lost)',
      percent(recoverable.filter((line) => line.green).length, recoverable.length),
      '%',
    ),
    figure(
      'resilience_green_solvable',
      'runs green but repeat, where the unspoiled oracle is green',
      percent(
        recoverable.filter((line) => line.green && solvedUnspoiled(line)).length,
        recoverable.filter(solvedUnspoiled).length,
      ),
      '%',
      { min: 100 },
    ),
    figure(
      'resilience_damaging',
      'runs that left damage on their branch',
      lines.filter((line) => isDamaging(line.damage)).length,
      'runs',
      { max: 0 },
    ),
    ...(repeats.length > 0
      ? [
          figure(
            'resilience_repeat_identical',
            'most identical writer answers in one step (repeat)',
            Math.max(...repeats.map((row) => row.most_identical)),
            'answers',
            { max: 3 },
          ),
        ]
      : []),
    figure(
      'resilience_minutes',
      values.from ? "run time (sum over the journals' runs)" : 'wall time',
      Math.round((values.from ? lines.reduce((sum, line) => sum + line.wall_ms, 0) : Date.now() - started) / 6000) / 10,
      'min',
    ),
  ],
  details: {
    corpus: corpus.dir,
    seed,
    tasks: tasks.map((task) => task.id),
    kinds,
    workflows,
    formats,
    cells: rows,
    lines,
  },
});

const verificationsRan = lines.reduce((sum, line) => sum + (line.verifications?.ran ?? 0), 0);
const verificationsReused = lines.reduce((sum, line) => sum + (line.verifications?.reused ?? 0), 0);
const md = [
  '# Trust under a fallible model: the oracle spoiled (bench:resilience)',
  '',
  `${lines.length} runs on ${new Set(lines.map((line) => line.task)).size} task(s), seed ${seed}, ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}).`,
  `Lathe's verifications: ${verificationsRan} ran the tests, ${verificationsReused} were answered from an identical tree's (decision 98; runs before it ran all).`,
  'green: complete, the tests pass bare on the run branch and none was lost · damaging: the branch carries a placeholder, an unrelated hunk, a weakened test or a stray file · applied: runs whose first writer answer carried the fault · answers: mean writer answers per run · identical: the most byte-identical answers in one step (repeat; goal ≤ 3)',
  '',
  `green (solvable): of the runs whose task × workflow × format the unspoiled oracle solves (${path.basename(baselineFile)}), those green — the rest share the perfect model's miss.`,
  '',
  '| fault | workflow | format | feedback-check | applied | green | green (solvable) | damaging | answers | identical |',
  '| --- | --- | --- | :-: | --: | --: | --: | --: | --: | --: |',
  ...rows.map(
    (row) =>
      `| ${row.kind} | ${row.workflow} | ${row.format} | ${row.check ? 'yes' : 'no'} | ${row.applied}/${row.runs} | ${row.green}/${row.runs} | ${row.green_solvable}/${row.solvable} | ${row.damaging} | ${row.mean_attempts} | ${row.kind === 'repeat' ? row.most_identical : '–'} |`,
  ),
  '',
];
const solvableMisses = recoverable.filter((line) => !line.green && solvedUnspoiled(line));
if (solvableMisses.length > 0) {
  md.push(
    'Misses where the unspoiled oracle is green (repeat is meant to end, not to end green):',
    '',
    ...solvableMisses.map((line) => {
      const cell = cellOf(line);
      return `- ${line.task} · ${cell ? `${cell.kind} × ${cell.workflow} × ${cell.format}${cell.check ? ' × feedback-check' : ''}` : line.workflow}: ${(line.miss ?? 'not green').split('\n')[0]?.slice(0, 300)}`;
    }),
    '',
  );
}
fs.writeFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), 'results', 'resilience.md'), md.join('\n'));
