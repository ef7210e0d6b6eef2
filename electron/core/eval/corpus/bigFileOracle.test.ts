import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeCorpus, oracleRunSettings, type MiniCorpus, type MiniTaskSpec } from '../../../../test-support/miniCorpus';
import { makeTempDir } from '../../../../test-support/tempRepo';
import { loadCorpus, runCorpusTask } from './index';

// Files to edit larger than a writer's share of the window, with the bug at their end: whole-file
// writers must see them whole (or write search-replace blocks where they cannot), seed 000's writer must see the hunk.
const BUGGY = 'export function lastValue(values) {\n  return values[0];\n}\n';
const FIXED = 'export function lastValue(values) {\n  return values[values.length - 1];\n}\n';
const TEST =
  "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { lastValue } from '../src/big.js';\n\ntest('last value', () => assert.equal(lastValue([1, 2, 3]), 3));\n";

function bigFileTask(name: string, fillerLines: number): MiniTaskSpec {
  const filler = Array.from(
    { length: fillerLines },
    (_, index) => `export const c${String(index).padStart(5, '0')} = ${index};\n`,
  ).join('');
  return {
    name,
    files: {
      'package.json': JSON.stringify(
        { name, version: '1.0.0', type: 'module', scripts: { test: 'node --test' } },
        null,
        2,
      ),
      'src/big.js': `${filler}${BUGGY}`,
      'test/big.test.js':
        "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { c00000 } from '../src/big.js';\n\ntest('constants', () => assert.equal(c00000, 0));\n",
    },
    fix: { 'src/big.js': `${filler}${FIXED}`, 'test/big.test.js': TEST },
    goldFiles: ['src/big.js'],
    goal: 'lastValue() in src/big.js returns the first value instead of the last one; fix lastValue',
    failToPass: ['last value'],
    testsPassingAtFix: 1,
  };
}

// ~12k tokens: whole-file fits the oracle's 32k window only when shown whole (a 0.6 share would cut it).
const medium = makeCorpus(bigFileTask('medium', 1900));
// ~24k tokens, over 64 KB: whole-file cannot fit; seed 000's old head cut hid the hunk.
const large = makeCorpus(bigFileTask('large', 4000));
const scratch = makeTempDir('lathe-big-file-');
afterAll(() => {
  medium.remove();
  large.remove();
  fs.rmSync(scratch, { recursive: true, force: true });
});

async function run(
  mini: MiniCorpus,
  workflow: string,
  editFormat: 'whole-file' | 'search-replace' | 'unified-diff',
  outDir: string | null = null,
) {
  const corpus = loadCorpus(mini.dir);
  const task = corpus.tasks[0];
  if (!task) throw new Error('no task');
  return runCorpusTask(task, {
    ...oracleRunSettings(corpus.dir, {
      workflow,
      editFormat,
      cacheDir: path.join(scratch, 'cache'),
      workDir: path.join(scratch, `work-${mini.taskId}-${workflow}-${editFormat}`),
    }),
    outDir,
  });
}

describe("a file to edit bigger than the writer's share of the window (oracle model)", () => {
  it.each(['retry-loop', 'dev-agent'])(
    '%s × whole-file: the file is shown whole and the answer budget grows to rewrite it: green',
    async (workflow) => {
      const line = await run(medium, workflow, 'whole-file');
      expect(line.faithful, line.miss ?? '').toBe(true);
    },
    120_000,
  );

  it.each(['search-replace', 'unified-diff'] as const)(
    "minimal × %s: seed 000's writer sees the hunk at the end of a file over 64 KB: green",
    async (format) => {
      const line = await run(large, 'minimal', format);
      expect(line.faithful, line.miss ?? '').toBe(true);
    },
    120_000,
  );

  it('whole-file on a file that cannot fit the window with its answer: the run writes search-replace instead, says so, and is green', async () => {
    const out = path.join(scratch, 'out-large');
    const line = await run(large, 'retry-loop', 'whole-file', out);
    expect(line.faithful, line.miss ?? '').toBe(true);
    const runDir = path.join(out, 'tasks', line.task, 'retry-loop-whole-file');
    const events = fs
      .readFileSync(path.join(runDir, 'log.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as { type: string; data: Record<string, unknown> });
    const fallback = events.find((event) => event.type === 'edit_format_fallback');
    expect(fallback?.data).toMatchObject({ from: 'whole-file', to: 'search-replace' });
    expect(fallback?.data.reason).toMatch(
      /whole-file needs ~\d+ tokens to show and rewrite src\/big\.js .* in the coder's 32768-token window/,
    );
    expect(events.find((event) => event.type === 'patch')?.data).toMatchObject({ format: 'search-replace' });
    expect(fs.readFileSync(path.join(runDir, 'report.md'), 'utf8')).toMatch(
      /- Edit format: search-replace, not the configured whole-file, from a step on: whole-file needs ~\d+ tokens/,
    );
  }, 120_000);
});
