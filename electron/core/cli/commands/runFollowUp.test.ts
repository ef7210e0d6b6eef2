import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeExampleRepo, REPLAYS, writeReplay } from '../../../../test-support/exampleRepo';
import { runLathe } from '../../../../test-support/runCli';
import { makeTempDir, type TempRepo } from '../../../../test-support/tempRepo';
import { runCli } from '../main';

const MODEL = `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}`;
const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((fn) => fn()));

function setup(): { repo: TempRepo; home: string } {
  const repo = makeExampleRepo('js-stats');
  const home = makeTempDir('lathe-home-');
  cleanup.push(
    () => repo.remove(),
    () => fs.rmSync(home, { recursive: true, force: true }),
  );
  return { repo, home };
}

/** The follow-up's transcript: one task that adds a changelog on top of the earlier run's fix. */
function followUpModel(home: string): string {
  return writeReplay(home, 'follow-up', [
    {
      role: 'planner',
      json: {
        plan_id: 'plan_0001',
        tasks: [
          {
            id: 'T1',
            title: 'Add a changelog',
            rationale: 'the user asked for it',
            acceptance: 'CHANGELOG.md names the median fix',
            artifacts: ['CHANGELOG.md'],
          },
        ],
      },
    },
    {
      role: 'coder',
      json: { edits: [{ path: 'CHANGELOG.md', content: '# Changelog\n\n- median() returns the middle value.\n' }] },
    },
    { role: 'tester', json: { task_id: 'T1', passed: true, report: '3 tests: 3 pass, 0 fail.' } },
  ]);
}

const lastJson = (stdout: string) =>
  JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { run_id: string; status: string; branch: string };
const runFolder = (repo: TempRepo, runId: string) => path.join(repo.dir, '.lathe', 'runs', runId);
const stateOf = (repo: TempRepo, runId: string) =>
  JSON.parse(fs.readFileSync(path.join(runFolder(repo, runId), 'state.json'), 'utf8')) as {
    follow_up_of: string | null;
    workspace: { baseCommit: string; branch: string };
  };
const eventsOf = (repo: TempRepo, runId: string) =>
  fs
    .readFileSync(path.join(runFolder(repo, runId), 'log.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });

async function parentRun(repo: TempRepo, home: string): Promise<{ runId: string; branch: string; head: string }> {
  const parent = await runLathe(['run', '--repo', repo.dir, '--goal', 'fix median', '--model', MODEL, '--json'], {
    env: { LATHE_HOME: home },
  });
  expect(parent.code).toBe(0);
  const { run_id: runId, branch } = lastJson(parent.stdout);
  return { runId, branch, head: repo.git('rev-parse', branch) };
}

/** In process: the refusals happen before any model loads. */
async function cli(args: string[], home: string): Promise<{ code: number; err: string }> {
  const err: string[] = [];
  const code = await runCli(args, {
    out: () => undefined,
    err: (line) => err.push(line),
    env: { LATHE_HOME: home },
    cwd: home,
  });
  return { code, err: err.join('\n') };
}

describe('lathe run --follow-up', () => {
  it("starts a new run at the earlier run's head, tells its agents what that run did, and undoes only its own commits", async () => {
    const { repo, home } = setup();
    const parent = await parentRun(repo, home);
    const result = await runLathe(
      [
        'run',
        '--repo',
        repo.dir,
        '--follow-up',
        parent.runId,
        '--goal',
        'also add a changelog',
        '--model',
        followUpModel(home),
        '--json',
      ],
      { env: { LATHE_HOME: home } },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const child = lastJson(result.stdout);
    expect(child.run_id).not.toBe(parent.runId);

    // The branch starts at the parent's head, which is the follow-up's base.
    expect(repo.git('merge-base', child.branch, parent.branch)).toBe(parent.head);
    const state = stateOf(repo, child.run_id);
    expect(state.follow_up_of).toBe(parent.runId);
    expect(state.workspace.baseCommit).toBe(parent.head);
    const events = eventsOf(repo, child.run_id);
    expect(events[0]).toMatchObject({
      type: 'run_started',
      data: { follow_up_of: parent.runId, start_commit: parent.head },
    });

    // The Planner's first call is given the earlier run: its goal, its plan's end and its diff.
    const firstContext = events.find((event) => event.type === 'agent_context');
    expect(firstContext?.data).toMatchObject({
      purpose: 'plan',
      included: expect.arrayContaining([expect.objectContaining({ id: `run:${parent.runId}`, kind: 'run' })]),
    });
    const writerContext = events.find((event) => event.type === 'agent_context' && event.data.purpose === 'code');
    expect(JSON.stringify(writerContext?.data.included)).toContain(`run:${parent.runId}`);
    const earlier = fs.readFileSync(path.join(runFolder(repo, child.run_id), 'earlier-run.md'), 'utf8');
    expect(earlier).toContain('Goal: fix median');
    expect(earlier).toMatch(/- T1 Fix median\(\) to return the middle value: completed/);
    expect(earlier).toContain('Ended: complete');
    expect(earlier).toContain('+  const sorted = [...values].sort((a, b) => a - b);');
    expect(earlier).not.toContain('"type":');

    // `lathe runs` shows the chain; --json carries it.
    const table = await runLathe(['runs', '--repo', repo.dir]);
    expect(table.stdout).toContain(`↳ ${parent.runId} also add a changelog`);
    const listed = JSON.parse((await runLathe(['runs', '--repo', repo.dir, '--json'])).stdout) as {
      runId: string;
      followUpOf: string | null;
    }[];
    expect(listed.map((run) => run.followUpOf)).toEqual([parent.runId, null]);

    // Its diff is its own change only, and undo removes only its commits.
    expect((await runLathe(['diff', '--repo', repo.dir, '--stat', child.run_id])).stdout).toMatch(
      /^ CHANGELOG\.md \| \+3 -0\n 1 file changed/,
    );
    const undo = await runLathe(['undo', '--repo', repo.dir, child.run_id]);
    expect(undo.code).toBe(0);
    expect(undo.stdout).toContain(
      `run ${parent.runId} (whose head ${parent.head.slice(0, 10)} it started from) untouched`,
    );
    expect(repo.git('rev-parse', parent.branch)).toBe(parent.head);
    expect(repo.git('branch', '--list', child.branch)).toBe('');
  }, 120_000);

  it('starts a follow-up of a merged run at the commit it was merged at', async () => {
    const { repo, home } = setup();
    const parent = await parentRun(repo, home);
    expect((await runLathe(['merge', '--repo', repo.dir, parent.runId])).code).toBe(0);
    const merged = repo.git('rev-parse', 'HEAD');
    expect(merged).toBe(parent.head);
    const result = await runLathe(
      [
        'run',
        '--repo',
        repo.dir,
        '--follow-up',
        parent.runId,
        '--goal',
        'also add a changelog',
        '--model',
        followUpModel(home),
        '--json',
      ],
      { env: { LATHE_HOME: home } },
    );
    expect(result.code).toBe(0);
    const child = lastJson(result.stdout);
    expect(stateOf(repo, child.run_id).workspace.baseCommit).toBe(merged);
    expect(repo.git('rev-parse', `${child.branch}~1`)).toBe(merged);
  }, 120_000);

  it('refuses an unknown run and an undone one (exit 64), creating nothing', async () => {
    const { repo, home } = setup();
    const unknown = await cli(
      ['run', '--repo', repo.dir, '--follow-up', '20990101T000000Z', '--goal', 'more', '--model', MODEL],
      home,
    );
    expect(unknown.code).toBe(64);
    expect(unknown.err).toContain('no run 20990101T000000Z');
    expect(
      (await cli(['run', '--repo', repo.dir, '--follow-up', '../x', '--goal', 'more', '--model', MODEL], home)).code,
    ).toBe(64);
    expect(
      (await cli(['run', '--repo', repo.dir, '--follow-up', '20990101T000000Z', '--resume', '--model', MODEL], home))
        .code,
    ).toBe(64);

    const parent = await parentRun(repo, home);
    expect((await runLathe(['undo', '--repo', repo.dir, parent.runId])).code).toBe(0);
    const branches = repo.git('for-each-ref', '--format=%(refname)', 'refs/heads');
    const undone = await cli(
      ['run', '--repo', repo.dir, '--follow-up', parent.runId, '--goal', 'more', '--model', MODEL],
      home,
    );
    expect(undone.code).toBe(64);
    expect(undone.err).toContain(`run ${parent.runId} was undone`);
    expect(fs.readdirSync(path.join(repo.dir, '.lathe', 'runs'))).toEqual([parent.runId]);
    expect(repo.git('for-each-ref', '--format=%(refname)', 'refs/heads')).toBe(branches);
  }, 120_000);
});
