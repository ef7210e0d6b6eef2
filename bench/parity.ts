/**
 * Runner parity bench: `npm run bench:parity [-- task-pattern | --runners-only]`. First every runner
 * Lathe reads, on its generated suite (bench/lib/runnerSuiteParity.ts); then, for one task per corpus
 * repo (or the tasks the pattern selects), runs its test command at the starting state bare with the
 * runner's own structured reporter and through Lathe's verify(), and compares counts and the first
 * failure. Prints both tables (Markdown, for docs/workspace.md) and writes bench/results/runner-parity.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  findDefaultCorpus,
  loadCorpus,
  preparedTaskRepo,
  selectCorpusTasks,
  type CorpusTask,
} from '../electron/core/eval/corpus';
import { parityTable, runnerParity, type ParityRow } from '../electron/core/eval/parity/runnerParity';
import { machine } from './lib/results';
import { runnerSuiteParity, runnerSuiteTable } from './lib/runnerSuiteParity';

const here = path.dirname(fileURLToPath(import.meta.url));
const runnersOnly = process.argv.includes('--runners-only');
const pattern = process.argv.slice(2).find((arg) => !arg.startsWith('--'));

process.stdout.write('Every runner, on its generated suite:\n');
const suites = await runnerSuiteParity(path.resolve(here, '..'), (line) => process.stdout.write(line));
const runnerTable = runnerSuiteTable(suites.rows, suites.skipped);
const runnersEqual = suites.rows.filter((row) => row.equal).length;
process.stdout.write(
  `\n${runnerTable}\n\n${runnersEqual} of ${suites.rows.length} runners equal (counts, the failing tests, each one's message)${suites.skipped.length > 0 ? `; ${suites.skipped.length} not run here` : ''}\n\n`,
);

const corpusDir = runnersOnly ? null : findDefaultCorpus(path.resolve(here, '..'));
if (!corpusDir && !runnersOnly)
  process.stderr.write('no corpus (set LATHE_CORPUS or put it at ../shared/corpus): runner rows only\n');
const corpus = corpusDir ? loadCorpus(corpusDir) : null;
const firstPerRepo = (tasks: CorpusTask[]) =>
  tasks.filter((task, index) => tasks.findIndex((other) => other.repo === task.repo) === index);
const tasks = !corpus ? [] : pattern ? selectCorpusTasks(corpus, pattern) : firstPerRepo(corpus.tasks);

const artifactRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-parity-artifacts-'));
const rows: ParityRow[] = [];
try {
  for (const task of tasks) {
    process.stdout.write(`${task.id}: preparing… `);
    const prepared = await preparedTaskRepo((corpus as NonNullable<typeof corpus>).dir, task);
    process.stdout.write('running bare and through verify()… ');
    const row = await runnerParity(task, prepared.dir, { artifactRoot });
    rows.push(row);
    process.stdout.write(
      `${Object.values(row.match).every(Boolean) ? 'equal' : 'DIFFERENT'} (${row.bare.ms} ms bare, ${row.lathe.ms} ms verify)\n`,
    );
  }
} finally {
  fs.rmSync(artifactRoot, { recursive: true, force: true });
}

const table = parityTable(rows);
process.stdout.write(`\n${table}\n`);
const equal = rows.filter((row) => Object.values(row.match).every(Boolean)).length;
process.stdout.write(
  `\n${equal} of ${rows.length} rows equal (counts, first failure name and message, every failure in the excerpt, the test inventory)\n`,
);
const result = {
  bench: 'runner-parity',
  at: new Date().toISOString(),
  machine: machine(),
  runners: { equal: runnersEqual, rows: suites.rows, skipped: suites.skipped, table: runnerTable },
  corpus: corpusDir,
  equal,
  rows,
  table,
};
fs.writeFileSync(path.join(here, 'results', 'runner-parity.json'), `${JSON.stringify(result, null, 2)}\n`);
process.exitCode = equal === rows.length && runnersEqual === suites.rows.length ? 0 : 1;
