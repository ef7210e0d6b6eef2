import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isLatheError } from '../../../shared/errors';
import { sourceAppRoot } from '../appRoot';
import { findDefaultCorpus, loadCorpus, preparedTaskRepo, type PreparedRepo } from '../eval/corpus/index';
import { createGitFacade } from './gitFacade';

/** One express task (mocha, ~1250 tests, a few seconds): its static-file tests refuse paths with a dot-segment. */
const EXPRESS_TASK = 'express-18e5985';
/** Well above the suite's few seconds; the bug this guards against made mocha hang forever. */
const SUITE_TIMEOUT_MS = 90_000;

interface MochaCounts {
  passing: number;
  failing: number;
  pending: number;
  exit: number | null;
  timedOut: boolean;
}

/** Runs the task's test command bare (no sandbox, as the user would) and reads mocha's summary lines. */
function runSuite(command: string, cwd: string): Promise<MochaCounts> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], {
      cwd,
      detached: true,
      env: { ...process.env, CI: 'true', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      timedOut = true;
      process.kill(-(child.pid as number), 'SIGKILL');
    }, SUITE_TIMEOUT_MS);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const count = (word: string) => Number(new RegExp(`^\\s*(\\d+) ${word}\\b`, 'm').exec(output)?.[1] ?? 0);
      resolve({
        passing: count('passing'),
        failing: count('failing'),
        pending: count('pending'),
        exit: code,
        timedOut,
      });
    });
  });
}

const corpusDir = findDefaultCorpus(sourceAppRoot());

describe('a real test suite in a run worktree', () => {
  it(
    `gives the same mocha counts in the run's worktree as in the checkout (${EXPRESS_TASK})`,
    { timeout: 900_000 },
    async (context) => {
      if (!corpusDir) return context.skip('no corpus here: set LATHE_CORPUS or place it at ../shared/corpus');
      const task = loadCorpus(corpusDir).tasks.find((candidate) => candidate.id === EXPRESS_TASK);
      if (!task) return context.skip(`the corpus at ${corpusDir} has no task ${EXPRESS_TASK}`);
      let prepared: PreparedRepo;
      try {
        // npm install from the registry once per machine, then reused from the corpus cache.
        prepared = await preparedTaskRepo(corpusDir, task);
      } catch (error) {
        if (isLatheError(error, 'CORPUS_SETUP_FAILED'))
          return context.skip(
            `express's dependencies could not be installed (no npm registry?): ${error.message.split('\n')[0]}`,
          );
        throw error;
      }
      const facade = createGitFacade();
      const workspace = await facade.startRun(prepared.dir, {
        runId: `suite-${process.pid}-${Date.now()}`,
        branchPrefix: 'lathe-test',
        allowDirty: false,
      });
      try {
        const inCheckout = await runSuite(task.test_command, prepared.dir);
        const inWorktree = await runSuite(task.test_command, workspace.workDir);
        expect(inCheckout.passing).toBeGreaterThan(1000);
        expect(inCheckout.timedOut).toBe(false);
        expect(inWorktree).toEqual(inCheckout);
      } finally {
        await facade.undoRun(workspace);
      }
    },
  );
});
