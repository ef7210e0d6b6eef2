/**
 * `npm run bench -- inventory` (or `npx tsx bench/inventory.ts`): how long Lathe takes to hold a big
 * suite's test inventory whole — 20,000 tests read from JUnit XML, written to tests.json and read back,
 * and read from each runner's own text that names every test. A pair-by-pair reader took 3–5 s here;
 * the goal is 2 s on a shared 2-core machine. (The tests assert that the inventory is whole; the time
 * is a figure, not a timed test.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseJUnit } from '../electron/core/verifier/junit';
import { parseSummaryLines } from '../electron/core/verifier/summaryLines';
import { readTestInventory, writeTestInventory } from '../electron/core/verifier/testInventory';
import { BIG_SUITE_MODULES, bigSuiteJUnit, bigSuiteTexts } from '../test-support/bigSuiteOutputs';
import { figure, report } from './lib/results';
import { spread, spreadText } from './lib/stats';

const SUITE_SIZE = 20_000;
const REPEATS = 5;
const BUDGET_MS = 2_000;

async function timedMs(work: () => unknown | Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function repeated(work: () => unknown | Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < REPEATS; index++) times.push(await timedMs(work));
  return times;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-bench-inventory-'));
try {
  fs.mkdirSync(path.join(dir, 'tests'));
  for (let module = 0; module < BIG_SUITE_MODULES; module++)
    fs.writeFileSync(path.join(dir, 'tests', `test_m${module}.py`), '');
  const xml = bigSuiteJUnit(SUITE_SIZE);
  const tests = parseJUnit(xml, { runner: 'pytest', repoDir: dir })?.tests ?? [];
  if (tests.length !== SUITE_SIZE) throw new Error(`JUnit read ${tests.length} of ${SUITE_SIZE} tests`);
  const junit = spread(await repeated(() => parseJUnit(xml, { runner: 'pytest', repoDir: dir })));
  const roundTrip = spread(
    await repeated(async () => {
      await writeTestInventory(dir, { runner: 'pytest', source: 'JUnit XML', tests });
      await readTestInventory(dir);
    }),
  );
  const texts = Object.entries(bigSuiteTexts(SUITE_SIZE)).map(([runner, output]) => {
    const count = parseSummaryLines(output)?.tests?.length ?? 0;
    if (count !== SUITE_SIZE) throw new Error(`${runner} text: ${count} of ${SUITE_SIZE} tests`);
    return { runner, times: [] as number[], output };
  });
  for (const text of texts) text.times = await repeated(() => parseSummaryLines(text.output));
  const slowestText = texts
    .map((text) => ({ runner: text.runner, stats: spread(text.times) }))
    .sort((a, b) => b.stats.median - a.stats.median)[0];
  report({
    bench: 'inventory',
    figures: [
      figure(
        'inventory_junit_ms',
        `${SUITE_SIZE}-test JUnit XML read`,
        Math.round(junit.median),
        'ms',
        { max: BUDGET_MS },
        spreadText(junit),
      ),
      figure(
        'inventory_round_trip_ms',
        `${SUITE_SIZE}-test tests.json written and read back`,
        Math.round(roundTrip.median),
        'ms',
        { max: BUDGET_MS },
        spreadText(roundTrip),
      ),
      ...(slowestText
        ? [
            figure(
              'inventory_text_ms',
              `${SUITE_SIZE}-test runner text read (slowest: ${slowestText.runner})`,
              Math.round(slowestText.stats.median),
              'ms',
              { max: BUDGET_MS },
              spreadText(slowestText.stats),
            ),
          ]
        : []),
    ],
    details: {
      suiteSize: SUITE_SIZE,
      repeats: REPEATS,
      junit,
      roundTrip,
      texts: texts.map((text) => ({ runner: text.runner, ...spread(text.times) })),
    },
  });
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
