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
    const config = resolveRunConfig(
      { repoRoot: repo.dir },
      { workflow: 'minimal', model: `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}` },
    );
    const state = await startRun(createEngineEnv({ appRoot: APP_ROOT, dataDir, retryBackoffMs: 1 }), {
      repoRoot: repo.dir,
      goal: GOAL,
      config,
    });
    const out: string[] = [];
    const io: CliIo = {
      out: (line) => out.push(line),
      err: (line) => out.push(line),
      env: { LATHE_HOME: dataDir },
      cwd: dataDir,
    };
    expect(await runCli(['runs', '--repo', repo.dir], io)).toBe(0);
    expect(out[1]).toMatch(
      new RegExp(
        `^${state.run_id}\\s+complete\\s+minimal\\s+2\\s+lathe/\\S+\\s+Fix median\\(\\) so it returns the middle value …$`,
      ),
    );
    out.length = 0;
    expect(await runCli(['runs', '--repo', repo.dir, '--json'], io)).toBe(0);
    expect((JSON.parse(out.join('\n')) as { goal: string }[])[0]?.goal).toBe(GOAL);
    const runDir = path.join(repo.dir, '.lathe', 'runs', state.run_id);
    expect((JSON.parse(fs.readFileSync(path.join(runDir, 'state.json'), 'utf8')) as { goal: string }).goal).toBe(GOAL);
    expect(fs.readFileSync(path.join(runDir, 'report.md'), 'utf8')).toContain(
      '- Goal: Fix median() so it returns the middle value\n\n  Keep mean() as it is; the README documents both.\n',
    );
  });
});

// Issue 29: what an agent was told, and by whom, was nowhere to be seen.
describe('lathe runs --show and --call', () => {
  const COMMENT = 'also document both functions';

  async function rejectedOnce() {
    const { repo, dataDir, cleanup: remove } = makeRunFixture('js-stats');
    cleanup.push(remove);
    const config = resolveRunConfig(
      { repoRoot: repo.dir },
      {
        workflow: 'dev-agent',
        model: `replay:${path.join(REPLAYS, 'js-stats.dev-agent.json')}`,
        gates: { step: 'both' },
      },
    );
    let decisions = 0;
    const decideGate = async () =>
      decisions++ === 0 ? { approved: false, comment: COMMENT } : { approved: true, comment: null };
    const state = await startRun(
      createEngineEnv({ appRoot: APP_ROOT, dataDir, retryBackoffMs: 1, callbacks: { decideGate } }),
      { repoRoot: repo.dir, goal: 'fix median and document it', config },
    );
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      out: (line) => out.push(...line.split('\n')),
      err: (line) => err.push(line),
      env: { LATHE_HOME: dataDir },
      cwd: dataDir,
    };
    const cli = async (...args: string[]) => {
      out.length = 0;
      err.length = 0;
      return runCli(['runs', '--repo', repo.dir, ...args], io);
    };
    return { repo, runId: state.run_id, out, err, cli };
  }

  it('lists the run, its steps and its numbered calls, then shows one call with the human’s and the Supervisor’s words marked', async () => {
    const { repo, runId, out, err, cli } = await rejectedOnce();
    expect(await cli('--show', runId)).toBe(0);
    expect(out.slice(0, 7)).toEqual([
      `Run ${runId} · complete`,
      'Goal: fix median and document it',
      '',
      'Steps:',
      '  T1  completed  fix median and document it',
      '',
      'Calls:',
    ]);
    expect(out[7]).toMatch(/^ {2}# {2}ROLE {8}PURPOSE {6}STEP {2}TOKENS +OUTCOME$/);
    const rows = out.slice(8, -2).map((row) => row.trim().split(/\s+/));
    expect(rows.map(([call, role, purpose, step, , outcome]) => [call, role, purpose, step, outcome])).toEqual([
      ['1', 'coder', 'code', 'T1', 'output'],
      ['2', 'coder', 'code', 'T1', 'output'],
      ['3', 'supervisor', 'review_step', 'T1', 'output'],
      ['4', 'coder', 'code', 'T1', 'output'],
      ['5', 'supervisor', 'review_step', 'T1', 'output'],
    ]);
    for (const row of rows) expect(row[4]).toMatch(/^\d+\+\d+$/);
    expect(out.at(-1)).toBe(`lathe runs --show ${runId} --call N shows what call N was sent and answered.`);

    // Call 4 is the Coder's after the rejection: its feedback is shown part by part, each under its origin.
    expect(await cli('--show', runId, '--call', '4')).toBe(0);
    expect(out[0]).toMatch(
      new RegExp(
        `^Call 4 · coder · code · T1 · replay:\\S+js-stats\\.dev-agent\\.json · \\d+ prompt \\+ \\d+ answer tokens · 1 model call\\(s\\)$`,
      ),
    );
    expect(out.slice(1, 3)).toEqual(['', '── system ──']);
    expect(out).toContain('── user ──');
    expect(out.filter((line) => /^ {2}"feedback": "\(shown below, by origin\)",?$/.test(line))).toHaveLength(1);
    const human = out.indexOf("[from the human's rejection at the step gate]");
    expect(human).toBeGreaterThan(out.indexOf('── user ──'));
    expect(out[human + 1]).toBe(`User: ${COMMENT}`);
    expect(out[human + 2]).toBe("[from the Supervisor's verdict at the step gate]");
    expect(out[human + 3]).toMatch(/^Supervisor score \d+: /);
    expect(out.filter((line) => line.startsWith('[from '))).toHaveLength(2);
    const contexts = out.filter((line) => line.startsWith('── context '));
    expect(contexts.length).toBeGreaterThan(0);
    for (const line of contexts) expect(line).toMatch(/^── context \d+\/\d+: (file|excerpt|map|note) · \S.* ──$/);
    const answer = out.indexOf('── answer (output) ──');
    expect(answer).toBeGreaterThan(human);
    expect(JSON.parse(out.slice(answer + 1).join('\n'))).toBeTypeOf('object');

    // --json: the record as the run folder keeps it.
    expect(await cli('--show', runId, '--call', '4', '--json')).toBe(0);
    const file = path.join(repo.dir, '.lathe', 'runs', runId, 'calls', '4.json');
    expect(JSON.parse(out.join('\n'))).toEqual(JSON.parse(fs.readFileSync(file, 'utf8')));
    expect(await cli('--show', runId, '--json')).toBe(0);
    expect(JSON.parse(out.join('\n'))).toMatchObject({
      runId,
      goal: 'fix median and document it',
      status: 'complete',
      steps: [{ id: 'T1', status: 'completed' }],
    });
    expect(err).toEqual([]);
  });

  it('refuses an unknown call, a malformed number, --call alone and an unknown run with exit 64', async () => {
    const { runId, err, cli } = await rejectedOnce();
    expect(await cli('--show', runId, '--call', '99')).toBe(64);
    expect(err[0]).toMatch(
      new RegExp(`^lathe runs: no record of agent call 99 in run ${runId}: .* \\[CALL_NOT_FOUND\\]$`),
    );
    expect(await cli('--show', runId, '--call', '0')).toBe(64);
    expect(err[0]).toMatch(/calls are numbered from 1 \[CALL_NOT_FOUND\]$/);
    expect(await cli('--show', runId, '--call', '../1')).toBe(64);
    expect(err[0]).toMatch(/^lathe runs: --call takes a call's number/);
    expect(await cli('--call', '1')).toBe(64);
    expect(err[0]).toMatch(/^lathe runs: --call N needs --show RUN_ID/);
    expect(await cli('--show', '../etc', '--call', '1')).toBe(64);
    expect(err[0]).toMatch(/\[RUN_NOT_FOUND\]$/);
  });
});
