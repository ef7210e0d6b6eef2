import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { APP_ROOT, makeRunFixture, readReplay, REPLAYS, writeReplay } from '../../../test-support/exampleRepo';
import { makeTempDir } from '../../../test-support/tempRepo';
import { resolveRunConfig, type ConfigOverrides } from '../config/resolveConfig';
import { createEngineEnv } from './defaultDeps';
import { startRun } from './runner';

/** Issue 29: a run's commit subject and task title were the goal's whole first paragraph (193 characters). */

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((fn) => fn()));

const GOAL = [
  'Fix median() in src/stats.js so that it returns the middle value of the sorted list instead of the mean,',
  'and keep mean() exactly as it is because other modules rely on its current behaviour for empty lists',
  '',
  'The tests in test/stats.test.js describe both functions; README.md documents them.',
].join('\n');

async function run(overrides: ConfigOverrides) {
  const { repo, dataDir, cleanup: remove } = makeRunFixture('js-stats');
  cleanup.push(remove);
  const base = repo.git('rev-parse', 'HEAD');
  const env = createEngineEnv({ appRoot: APP_ROOT, dataDir, retryBackoffMs: 1 });
  const state = await startRun(env, {
    repoRoot: repo.dir,
    goal: GOAL,
    config: resolveRunConfig({ repoRoot: repo.dir }, overrides),
  });
  const log = (format: string) =>
    repo
      .git('log', `--format=${format}%x00`, '--reverse', `${base}..${state.branch ?? ''}`)
      .split('\0\n')
      .map((entry) => entry.replace(/\0$/, ''))
      .filter(Boolean);
  return { state, subjects: log('%s'), bodies: log('%b') };
}

describe('a long, multi-line goal', () => {
  it("titles a single-task workflow's task with the goal's first line, cut at a word; each commit's body holds the whole goal", async () => {
    const { state, subjects, bodies } = await run({
      workflow: 'retry-loop',
      model: `replay:${path.join(REPLAYS, 'js-stats.retry-loop.json')}`,
    });
    expect(state.result).toMatchObject({ status: 'complete' });
    expect(state.plans[0]?.steps[0]?.title).toBe(
      'Fix median() in src/stats.js so that it returns the middle value of the…',
    );
    expect(subjects.length).toBeGreaterThan(0);
    for (const subject of subjects) expect(subject.length).toBeLessThanOrEqual(72);
    expect(subjects[0]).toBe('lathe(T1): Fix median() in src/stats.js so that it returns the middle…');
    for (const body of bodies) expect(body).toContain(`Goal:\n${GOAL}`);
  });

  it("titles a Planner's task with a blank title by the goal's first line", async () => {
    const outputs = readReplay('js-stats.minimal.json').outputs;
    const planner = outputs[0]?.json as { tasks: { title: string }[] };
    const blank = {
      role: 'planner',
      json: { ...planner, tasks: planner.tasks.map((task, index) => (index === 0 ? { ...task, title: '  ' } : task)) },
    };
    const dir = makeTempDir('lathe-replay-');
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const model = writeReplay(dir, 'blank-title', [blank, ...outputs.slice(1)]);
    const { state, subjects } = await run({ workflow: 'minimal', model });
    expect(state.result).toMatchObject({ status: 'complete' });
    expect(subjects).toEqual([
      'lathe(T1): Fix median() in src/stats.js so that it returns the middle…',
      'lathe(T2): Document mean() and median() in README.md',
    ]);
  });
});
