import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WORKFLOW_NAMES } from '../../../../shared/schemas/workflowName';
import { EDIT_FORMAT_NAMES } from '../../edits/types';
import { makeCorpus, makeMiniCorpus, oracleRunSettings, type MiniCorpus } from '../../../../test-support/miniCorpus';
import { makeTempDir } from '../../../../test-support/tempRepo';
import { parseGoldPatch } from '../../llm/oracle/goldPatch';
import { loadCorpus, runCorpusTask } from './index';

/**
 * A fix that tests the edit formats harder than `mid`: two hunks far apart in one file, one of them
 * inside a function that has an identical twin (its git context is not unique), and a new file.
 */
const twin = (name: string, pick: string) =>
  `export function ${name}(values) {\n  const list = [...values];\n  list.sort((a, b) => a - b);\n  const count = list.length;\n  const pick = ${pick};\n  return pick;\n}\n`;
const filler = Array.from({ length: 12 }, (_, index) => `export const unit${index} = ${index};\n`).join('');
const stats = (last: string, tail: string) => `${twin('first', 'list[0]')}\n${twin('last', last)}\n${filler}\n${tail}`;
const TEST = [
  "import test from 'node:test';",
  "import assert from 'node:assert/strict';",
  "import { first, last, label } from '../src/stats.js';",
  "import { describe as describeList } from '../src/describe.js';",
  '',
  "test('first', () => assert.equal(first([3, 1, 2]), 1));",
  "test('last', () => assert.equal(last([3, 1, 2]), 3));",
  "test('label', () => assert.equal(label(), 'stats'));",
  "test('describe', () => assert.equal(describeList([3, 1, 2]), '1..3'));",
  '',
].join('\n');
const MULTI = {
  name: 'twins',
  files: {
    'package.json': JSON.stringify(
      { name: 'twins', version: '1.0.0', type: 'module', scripts: { test: 'node --test' } },
      null,
      2,
    ),
    'src/stats.js': stats('list[0]', "export function label() {\n  return 'stat';\n}\n"),
    'test/stats.test.js': TEST.replace("import { describe as describeList } from '../src/describe.js';\n", '').replace(
      "test('describe', () => assert.equal(describeList([3, 1, 2]), '1..3'));\n",
      '',
    ),
  },
  fix: {
    'src/stats.js': stats('list[count - 1]', "export function label() {\n  return 'stats';\n}\n"),
    'src/describe.js':
      "import { first, last } from './stats.js';\n\nexport function describe(values) {\n  return `${first(values)}..${last(values)}`;\n}\n",
    'test/stats.test.js': TEST,
  },
  goldFiles: ['src/describe.js', 'src/stats.js'],
  goal: 'last() returns the smallest value, label() is misspelt, and describe() is missing',
  failToPass: ['last', 'label', 'describe'],
  testsPassingAtFix: 4,
};

const corpora: MiniCorpus[] = [makeMiniCorpus(), makeCorpus(MULTI)];
const scratch = makeTempDir('lathe-oracle-fidelity-');
afterAll(() => {
  corpora.forEach((corpus) => corpus.remove());
  fs.rmSync(scratch, { recursive: true, force: true });
});

const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();

describe('the oracle model: harness fidelity on generated corpus tasks, every workflow × edit format', () => {
  it('the second task needs what it claims: a hunk whose own lines occur twice, two hunks, a new file', () => {
    const parsed = parseGoldPatch(loadCorpus(corpora[1]?.dir ?? '').tasks[0]?.gold_patch ?? '');
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.patch.files.map((file) => [file.path, file.kind, file.hunks.length])).toEqual([
      ['src/describe.js', 'create', 1],
      ['src/stats.js', 'modify', 2],
    ]);
    const twinHunk = parsed.patch.files[1]?.hunks[0]?.before.join('') ?? '';
    expect(MULTI.files['src/stats.js'].split(twinHunk)).toHaveLength(3);
  });

  it.each(WORKFLOW_NAMES)(
    '%s: every edit format ends complete, green, committed, with the fixed tree on the run branch',
    async (workflow) => {
      for (const mini of corpora) {
        const corpus = loadCorpus(mini.dir);
        const task = corpus.tasks[0];
        if (!task) throw new Error('no task');
        for (const editFormat of EDIT_FORMAT_NAMES) {
          const cacheDir = path.join(scratch, 'cache');
          const line = await runCorpusTask(
            task,
            oracleRunSettings(corpus.dir, {
              workflow,
              editFormat,
              cacheDir,
              workDir: path.join(scratch, `work-${workflow}-${editFormat}`),
              keepRuns: true,
            }),
          );
          const where = `${task.id} ${workflow} ${editFormat}: ${line.miss ?? ''}`;
          expect(line.faithful, where).toBe(true);
          expect(line.run, where).toMatchObject({ status: 'complete', exit_code: 0 });
          expect(line.run?.commits, where).toBeGreaterThanOrEqual(1);
          const home =
            fs.readdirSync(cacheDir).find((entry) => entry.startsWith(`${task.id}-`) && !entry.endsWith('.lock')) ?? '';
          expect(
            git(
              path.join(cacheDir, home, 'repo'),
              'diff',
              '--stat',
              line.run?.branch ?? 'main',
              'refs/lathe-corpus/fixed',
            ),
            where,
          ).toBe('');
        }
      }
    },
    240_000,
  );
});
