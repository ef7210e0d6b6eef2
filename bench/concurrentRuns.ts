/**
 * Several runs at once: `npx tsx bench/concurrentRuns.ts [--rounds N]`. Prints a table and writes
 * bench/results/concurrentRuns.json. Two replay runs (seed 000's demo transcript) on two copies of
 * the bundled js-stats repository, with the real git layer and sandboxed Verifier, one after the
 * other and then both at once in one process (as the window runs them: one model pool, the Verifier
 * queued), in interleaved rounds.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { prepareExampleRepo } from '../electron/core/cli/commands/demo';
import { resolveRunConfig } from '../electron/core/config/resolveConfig';
import { createDefaultDeps, createEngineEnv } from '../electron/core/engine/defaultDeps';
import { startRun } from '../electron/core/engine/runner';
import { verifySlots } from '../electron/core/engine/verifyQueue';
import { createSharedModelPool } from '../electron/core/llm/sharedPool';
import { figure, report } from './lib/results';
import { interleaved, spread, spreadText } from './lib/stats';

const { values } = parseArgs({ options: { rounds: { type: 'string' } } });
const ROUNDS = values.rounds ? Number(values.rounds) : 3;
const appRoot = path.resolve(import.meta.dirname, '..');
const replay = `replay:${path.join(appRoot, 'resources', 'replays', 'js-stats.minimal.json')}`;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-bench-concurrent-'));
const deps = createDefaultDeps();
const sharedPool = createSharedModelPool();
let made = 0;

async function oneRun(): Promise<string> {
  const name = `repo-${++made}`;
  const repo = await prepareExampleRepo(appRoot, 'js-stats', path.join(scratch, name));
  const config = resolveRunConfig({ repoRoot: repo }, { workflow: 'minimal', model: replay });
  config.workspace.worktree_root = path.join(scratch, 'worktrees');
  const env = createEngineEnv({
    appRoot,
    dataDir: path.join(scratch, `${name}-data`),
    retryBackoffMs: 1,
    deps,
    sharedPool,
  });
  const state = await startRun(env, { repoRoot: repo, goal: 'fix median and document it', config });
  if (state.status !== 'complete') throw new Error(`run on ${name} ended ${state.status}`);
  return state.status;
}

async function timed(task: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await task();
  return performance.now() - started;
}

await oneRun(); // warm-up: module loading, the first git and Verifier calls
const samples = await interleaved(ROUNDS, {
  sequence: () =>
    timed(async () => {
      await oneRun();
      await oneRun();
    }),
  concurrent: () => timed(() => Promise.all([oneRun(), oneRun()])),
});
await sharedPool.dispose();
fs.rmSync(scratch, { recursive: true, force: true });

const sequence = spread(samples.sequence, 0);
const concurrent = spread(samples.concurrent, 0);
const ratio = spread(samples.concurrent.map((ms, index) => ms / (samples.sequence[index] ?? Number.NaN)));
report({
  bench: 'concurrentRuns',
  figures: [
    figure(
      'two_runs_sequence_ms',
      'two replay runs, one after the other',
      sequence.median,
      'ms',
      undefined,
      spreadText(sequence),
    ),
    figure(
      'two_runs_concurrent_ms',
      'the same two runs at once (one process)',
      concurrent.median,
      'ms',
      undefined,
      spreadText(concurrent),
    ),
    figure(
      'two_runs_concurrent_ratio',
      'at once / one after the other',
      ratio.median,
      '×',
      undefined,
      spreadText(ratio),
    ),
  ],
  details: { rounds: ROUNDS, verifySlots: verifySlots(), samples, load: os.loadavg() },
});
