import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isLatheError } from '../../../shared/errors';
import type { TestRecord } from '../../../shared/schemas/testInventory';
import { BIG_SUITE_MODULES, bigSuiteJUnit, bigSuiteTexts } from '../../../test-support/bigSuiteOutputs';
import { makeTempDir } from '../../../test-support/tempRepo';
import { parseJUnit } from './junit';
import { parseSummaryLines } from './summaryLines';
import { readTestInventory, writeTestInventory } from './testInventory';

const scratch = makeTempDir('lathe-inventory-');
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const folder = (name: string) => fs.mkdtempSync(path.join(scratch, `${name}-`));

/** How long these take is a figure of `bench/inventory.ts` (goal 2 s here), not a timed test. */
const SUITE_SIZE = 20_000;

describe('tests.json', () => {
  it('is written one test a line, parses as one JSON value, and reads back as written', async () => {
    const dir = folder('round-trip');
    const tests: TestRecord[] = [
      { id: 'outer "quoted" test', outcome: 'passed' },
      { id: 'tests/test_a.py::test_x[1]', outcome: 'failed', file: 'tests/test_a.py' },
      { id: 'tests/test_a.py::test_x[1]', outcome: 'skipped', file: null },
    ];
    const file = await writeTestInventory(dir, { runner: 'mocha', source: 'spec output', tests });
    expect(file).toBe(path.join(dir, 'tests.json'));
    const text = fs.readFileSync(file, 'utf8');
    expect(text.split('\n')).toHaveLength(tests.length + 3);
    expect(JSON.parse(text)).toEqual({ runner: 'mocha', source: 'spec output', tests });
    expect(await readTestInventory(dir)).toEqual({ runner: 'mocha', source: 'spec output', tests });
    await writeTestInventory(dir, { runner: 'pytest', source: 'JUnit XML', tests: [] });
    expect(await readTestInventory(dir)).toEqual({ runner: 'pytest', source: 'JUnit XML', tests: [] });
  });

  it('is null when absent, and an error naming the file and the field when it is not an inventory', async () => {
    const dir = folder('bad');
    expect(await readTestInventory(dir)).toBeNull();
    fs.writeFileSync(path.join(dir, 'tests.json'), '{"runner": "mocha", "source": "spec output", "tests": [');
    await expect(readTestInventory(dir)).rejects.toThrow(/tests\.json is not JSON/);
    fs.writeFileSync(
      path.join(dir, 'tests.json'),
      JSON.stringify({ runner: 'mocha', source: 'spec output', tests: [{ id: 'a', outcome: 'pending' }] }),
    );
    const error = await readTestInventory(dir).catch((caught: unknown) => caught);
    expect(isLatheError(error, 'INVALID_PAYLOAD')).toBe(true);
    expect((error as Error).message).toMatch(/tests\.json is not a test inventory: tests\.0\.outcome: /);
  });

  it(`holds a suite of ${SUITE_SIZE} tests whole: JUnit read, written and read back`, async () => {
    const dir = folder('big');
    fs.mkdirSync(path.join(dir, 'tests'));
    for (let module = 0; module < BIG_SUITE_MODULES; module++)
      fs.writeFileSync(path.join(dir, 'tests', `test_m${module}.py`), '');
    const xml = bigSuiteJUnit(SUITE_SIZE);
    const parsed = { value: parseJUnit(xml, { runner: 'pytest', repoDir: dir }) };
    expect(parsed.value?.tests).toHaveLength(SUITE_SIZE);
    expect(parsed.value?.tests?.[SUITE_SIZE - 1]).toEqual({
      id: `tests/test_m${(SUITE_SIZE - 1) % 50}.py::TestCase::test_${SUITE_SIZE - 1}`,
      outcome: 'passed',
      file: `tests/test_m${(SUITE_SIZE - 1) % 50}.py`,
    });
    await writeTestInventory(dir, { runner: 'pytest', source: 'JUnit XML', tests: parsed.value?.tests ?? [] });
    const back = await readTestInventory(dir);
    expect(back?.tests).toEqual(parsed.value?.tests);
  });

  it(`reads the text of ${SUITE_SIZE}-test runs whole for every runner that names each test`, () => {
    const outputs = bigSuiteTexts(SUITE_SIZE);
    for (const [runner, output] of Object.entries(outputs)) {
      expect(parseSummaryLines(output)?.tests, runner).toHaveLength(SUITE_SIZE);
    }
  });
});
