/**
 * The test inventory on the real corpus: `npx tsx scripts/corpusInventory.ts [task-pattern]`, with
 * LATHE_CORPUS_CACHE=/work/corpus-cache to share prepared repositories. For one task per corpus repo
 * (or the tasks the pattern selects), at its starting state (failing), runs the task's test command
 * bare with the runner's own structured reporter and through verify() (runBareAndVerify), then checks
 * that verify()'s inventory
 *   - is there, with one test per counted test (counts.total),
 *   - lists the runner's report's tests with the same outcomes,
 *   - names as failed exactly the task's fail_to_pass tests, and the first failure among them,
 *   - reads back from tests.json as it was returned,
 * and prints a table with the times to read the run's results and to write and read tests.json.
 * Exits 1 when a check fails.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { splitCommand } from '../electron/core/config/resolveConfig';
import {
  findDefaultCorpus,
  loadCorpus,
  preparedTaskRepo,
  selectCorpusTasks,
  type CorpusTask,
} from '../electron/core/eval/corpus';
import { inventoryLines, inventoryMatches } from '../electron/core/eval/parity/compare';
import { runBareAndVerify } from '../electron/core/eval/parity/runnerParity';
import { readOutcome } from '../electron/core/verifier/readOutcome';
import { prepareCommand } from '../electron/core/verifier/runnerFlags';
import { readTestInventory, writeTestInventory } from '../electron/core/verifier/testInventory';

interface InventoryRow {
  task: string;
  resultsFrom: string | null;
  tests: number | null;
  total: number | null;
  reportTests: number;
  checks: {
    complete: boolean;
    matchesReport: boolean;
    failingAreFailToPass: boolean;
    firstFailureListed: boolean;
    fileReadsBack: boolean;
  };
  parseMs: number;
  writeMs: number;
  readMs: number;
  fileBytes: number;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const corpusDir = findDefaultCorpus(path.resolve(here, '..'));
if (!corpusDir) {
  process.stderr.write('no corpus: set LATHE_CORPUS or put it at ../shared/corpus\n');
  process.exit(2);
}
const corpus = loadCorpus(corpusDir);
const pattern = process.argv[2];
const firstPerRepo = (tasks: CorpusTask[]) =>
  tasks.filter((task, index) => tasks.findIndex((other) => other.repo === task.repo) === index);
const tasks = pattern ? selectCorpusTasks(corpus, pattern) : firstPerRepo(corpus.tasks);

const sameLines = (a: string[], b: string[]) => a.length === b.length && a.every((line, index) => line === b[index]);
const timed = async <T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> => {
  const started = performance.now();
  const value = await work();
  return { value, ms: Math.round(performance.now() - started) };
};

async function inventoryRow(task: CorpusTask, repoDir: string, artifactRoot: string): Promise<InventoryRow> {
  const { idStyle, bare, verified } = await runBareAndVerify(task, repoDir, { artifactRoot });
  const tests = verified.tests;
  const failing = (tests ?? []).filter((test) => test.outcome === 'failed');
  // The same reading verify() did, again, on what it left in its artifact folder.
  const prepared = prepareCommand(splitCommand(task.test_command), verified.artifactDir, undefined);
  const parse = await timed(() => readOutcome(prepared, fs.readFileSync(verified.logPath, 'utf8'), repoDir));
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-inventory-'));
  try {
    const write = await timed(() =>
      writeTestInventory(scratch, { runner: 'corpus', source: task.id, tests: tests ?? [] }),
    );
    const read = await timed(() => readTestInventory(scratch));
    const fromVerify = await readTestInventory(verified.artifactDir);
    return {
      task: task.id,
      resultsFrom: verified.resultsFrom,
      tests: tests?.length ?? null,
      total: verified.counts?.total ?? null,
      reportTests: bare.report.tests.length,
      checks: {
        complete: tests !== null && tests.length === verified.counts?.total,
        matchesReport: inventoryMatches(tests, bare.report, idStyle),
        failingAreFailToPass: sameLines(
          inventoryLines(failing, 'exact'),
          inventoryLines(
            task.fail_to_pass.map((id) => ({ id, outcome: 'failed' })),
            'exact',
          ),
        ),
        firstFailureListed:
          verified.firstFailure !== null && failing.some((test) => test.id === verified.firstFailure?.testId),
        fileReadsBack:
          JSON.stringify(fromVerify?.tests) === JSON.stringify(tests) && parse.value?.tests?.length === tests?.length,
      },
      parseMs: parse.ms,
      writeMs: write.ms,
      readMs: read.ms,
      fileBytes: fs.statSync(write.value).size,
    };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

const artifactRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-inventory-artifacts-'));
const rows: InventoryRow[] = [];
try {
  for (const task of tasks) {
    process.stdout.write(`${task.id}: preparing… `);
    const prepared = await preparedTaskRepo(corpus.dir, task);
    process.stdout.write('running bare and through verify()… ');
    const row = await inventoryRow(task, prepared.dir, artifactRoot);
    rows.push(row);
    process.stdout.write(
      `${Object.values(row.checks).every(Boolean) ? 'ok' : `FAILED ${JSON.stringify(row.checks)}`}\n`,
    );
  }
} finally {
  fs.rmSync(artifactRoot, { recursive: true, force: true });
}

const yes = (value: boolean) => (value ? 'yes' : '**no**');
const table = [
  '| task | read from | inventory / counts.total / runner’s report | same tests as the report | failing = fail_to_pass | read results (ms) | tests.json write / read (ms, bytes) |',
  '| --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map(
    (row) =>
      `| ${row.task} | ${row.resultsFrom ?? 'nothing'} | ${row.tests ?? 'none'} / ${row.total ?? 'none'} / ${row.reportTests} | ${yes(row.checks.matchesReport)} | ${yes(row.checks.failingAreFailToPass && row.checks.firstFailureListed)} | ${row.parseMs} | ${row.writeMs} / ${row.readMs} (${row.fileBytes}) |`,
  ),
];
process.stdout.write(`\n${table.join('\n')}\n`);
const passed = rows.filter((row) => Object.values(row.checks).every(Boolean)).length;
process.stdout.write(
  `\n${passed} of ${rows.length} tasks: inventory complete, equal to the runner's report, failing tests = fail_to_pass, tests.json read back\n`,
);
process.exitCode = passed === rows.length ? 0 : 1;
