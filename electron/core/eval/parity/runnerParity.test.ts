import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sourceAppRoot } from '../../appRoot';
import { findDefaultCorpus, loadCorpus, preparedTaskRepo } from '../corpus';
import { runnerParity } from './runnerParity';

/*
 * The runner parity table's slice that runs with the unit tests: one JS repo (express, mocha through
 * `npm test`, read from its text output) and one Python repo (toolz, pytest, read from JUnit), at
 * their starting state (failing). `npm run bench:parity` runs every corpus repo.
 */

const corpusDir = findDefaultCorpus(sourceAppRoot());
const artifactRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-parity-test-'));
afterAll(() => fs.rmSync(artifactRoot, { recursive: true, force: true }));

function firstTaskOf(repo: string) {
  if (!corpusDir) return null;
  return loadCorpus(corpusDir).tasks.find((task) => task.repo === repo) ?? null;
}

describe('runner parity on the corpus: bare runner vs Lathe’s verify()', () => {
  it.for(['express', 'toolz'])(
    '%s: same counts, first failure and tests as the runner’s own report, and an excerpt naming every failure',
    { timeout: 300_000 },
    async (repo, context) => {
      const task = firstTaskOf(repo);
      if (!corpusDir || !task) {
        context.skip(`no corpus with a ${repo} task (set LATHE_CORPUS or put it at ../shared/corpus)`);
        return;
      }
      const prepared = await preparedTaskRepo(corpusDir, task);
      const row = await runnerParity(task, prepared.dir, { artifactRoot });
      expect(row.bare.counts.failed).toBeGreaterThan(0);
      expect(row.lathe.status).toBe('FAIL');
      expect(row.lathe.counts).toEqual(row.bare.counts);
      expect(row.match).toEqual({ counts: true, name: true, message: true, excerpt: true, inventory: true });
      // The test inventory: every test the runner's own report lists, one per counted test.
      expect(row.lathe.tests).toBe(row.bare.counts.total);
      if (repo === 'express') {
        // The case that was broken: express's failing run among ~1200 passing tests.
        expect(row.lathe.resultsFrom).toBe('mocha (spec output)');
        expect(row.lathe.excerpt).toContain(`${row.bare.counts.failed} failing`);
      }
    },
  );
});
