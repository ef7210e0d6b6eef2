import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { APP_ROOT, makeRunFixture, REPLAYS } from '../../../../test-support/exampleRepo';
import { resolveRunConfig } from '../../config/resolveConfig';
import { createEngineEnv } from '../../engine/defaultDeps';
import { startRun } from '../../engine/runner';
import type { CliIo } from '../command';
import { runCli } from '../main';

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((fn) => fn()));

const GOAL = 'Fix median() so it returns the middle value\n\nKeep mean() as it is; the README documents both.';

// Issue 29: a multi-line goal was cut at its first newline with nothing to say so.
describe('lathe runs and a multi-line goal', () => {
  it('lists the first line with an ellipsis marker; --json, state.json and report.md keep the whole goal', async () => {
    const { repo, dataDir, cleanup: remove } = makeRunFixture('js-stats');
    cleanup.push(remove);
    const config = resolveRunConfig({ repoRoot: repo.dir }, { workflow: 'minimal', model: `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}` });
    const state = await startRun(createEngineEnv({ appRoot: APP_ROOT, dataDir, retryBackoffMs: 1 }), { repoRoot: repo.dir, goal: GOAL, config });
    const out: string[] = [];
    const io: CliIo = { out: (line) => out.push(line), err: (line) => out.push(line), env: { LATHE_HOME: dataDir }, cwd: dataDir };
    expect(await runCli(['runs', '--repo', repo.dir], io)).toBe(0);
    expect(out[1]).toMatch(new RegExp(`^${state.run_id}\\s+complete\\s+minimal\\s+2\\s+lathe/\\S+\\s+Fix median\\(\\) so it returns the middle value …$`));
    out.length = 0;
    expect(await runCli(['runs', '--repo', repo.dir, '--json'], io)).toBe(0);
    expect((JSON.parse(out.join('\n')) as { goal: string }[])[0]?.goal).toBe(GOAL);
    const runDir = path.join(repo.dir, '.lathe', 'runs', state.run_id);
    expect((JSON.parse(fs.readFileSync(path.join(runDir, 'state.json'), 'utf8')) as { goal: string }).goal).toBe(GOAL);
    expect(fs.readFileSync(path.join(runDir, 'report.md'), 'utf8')).toContain('- Goal: Fix median() so it returns the middle value\n\n  Keep mean() as it is; the README documents both.\n');
  });
});
