import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeExampleRepo, readReplay, REPLAYS, writeReplay } from '../../../../test-support/exampleRepo';
import { runLathe, spawnLathe, waitForLine } from '../../../../test-support/runCli';
import { makeTempDir, type TempRepo } from '../../../../test-support/tempRepo';
import { normalizeResumeArgs } from './resumeChoice';

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

const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
const stateOf = (repo: TempRepo, runId: unknown) =>
  JSON.parse(fs.readFileSync(path.join(repo.dir, '.lathe', 'runs', String(runId), 'state.json'), 'utf8')) as Record<
    string,
    unknown
  > & { config: { limits: { max_attempts_per_task: number } } };
const logLines = (repo: TempRepo, runId: unknown) =>
  fs
    .readFileSync(path.join(repo.dir, '.lathe', 'runs', String(runId), 'log.jsonl'), 'utf8')
    .trim()
    .split('\n').length;

/** A minimal run stopped with Ctrl-C while its Planner thinks: resumable, with the goal `fix median`. */
async function stoppedRun(repo: TempRepo, home: string): Promise<string> {
  const outputs = readReplay('js-stats.minimal.json').outputs;
  writeReplay(home, 'slow', [{ ...outputs[0], delay_ms: 20_000 }, ...outputs.slice(1)]);
  const child = spawnLathe(
    ['run', '--repo', repo.dir, '--goal', 'fix median', '--model', `replay:${path.join(home, 'slow.json')}`, '--json'],
    { env: { LATHE_HOME: home } },
  );
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  await waitForLine(child, /"type":"agent_call"/);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.kill('SIGINT');
  expect(await exited).toBe(1);
  writeReplay(home, 'slow', outputs);
  return String(lastJson(stdout).run_id);
}

describe("seed 003's command line (3.3, 3.4, 3.6, 3.11)", () => {
  it('reads a bare --resume as "the latest resumable run"', () => {
    expect(normalizeResumeArgs(['run', '--resume'])).toEqual(['run', '--resume=']);
    expect(normalizeResumeArgs(['run', '--resume', '--json'])).toEqual(['run', '--resume=', '--json']);
    expect(normalizeResumeArgs(['run', '--resume', '20260101T000000Z'])).toEqual([
      'run',
      '--resume',
      '20260101T000000Z',
    ]);
  });

  it('--spec FILE is the goal, and --max-retries N gives 1 + N attempts per task', async () => {
    const { repo, home } = setup();
    const spec = path.join(home, 'spec.md');
    fs.writeFileSync(spec, 'fix median\n');
    const result = await runLathe(
      [
        'run',
        '--repo',
        repo.dir,
        '--spec',
        spec,
        '--workflow',
        'minimal',
        '--max-retries',
        '5',
        '--model',
        MODEL,
        '--json',
      ],
      { env: { LATHE_HOME: home } },
    );
    expect(result.code).toBe(0);
    const state = stateOf(repo, lastJson(result.stdout).run_id);
    expect(state.goal).toBe('fix median');
    expect(state.config.limits.max_attempts_per_task).toBe(6);
  });

  it('checks a goal given with --resume: a changed one exits 64 with the reason and touches nothing; --no-resume starts fresh; a bare --resume takes the latest', async () => {
    const { repo, home } = setup();
    const runId = await stoppedRun(repo, home);
    const before = logLines(repo, runId);
    const changed = await runLathe(
      ['run', '--repo', repo.dir, '--resume', runId, '--goal', 'a different goal', '--json'],
      { env: { LATHE_HOME: home } },
    );
    expect(changed.code).toBe(64);
    expect(changed.stderr).toContain(`run ${runId} was started with a different goal`);
    expect(changed.stderr).toContain('--no-resume');
    expect(logLines(repo, runId)).toBe(before);
    // The same through a spec file, and through a bare --resume (the latest resumable run is this one).
    const spec = path.join(home, 'spec.md');
    fs.writeFileSync(spec, 'fix the mean instead\n');
    expect(
      (await runLathe(['run', '--repo', repo.dir, '--resume', '--spec', spec], { env: { LATHE_HOME: home } })).code,
    ).toBe(64);
    // --no-resume: a fresh run with the new goal, the stopped one left as it was.
    const fresh = await runLathe(
      ['run', '--repo', repo.dir, '--no-resume', '--spec', spec, '--model', MODEL, '--json'],
      { env: { LATHE_HOME: home } },
    );
    expect(fresh.code).toBe(0);
    expect(lastJson(fresh.stdout).run_id).not.toBe(runId);
    expect(stateOf(repo, lastJson(fresh.stdout).run_id).goal).toBe('fix the mean instead');
    expect(stateOf(repo, runId).status).toBe('aborted');
    // The fresh run finished, so the latest resumable run is still the stopped one; its own goal is accepted.
    fs.writeFileSync(spec, 'fix median\n');
    const resumed = await runLathe(['run', '--repo', repo.dir, '--resume', '--spec', spec, '--json'], {
      env: { LATHE_HOME: home },
    });
    expect(resumed.code).toBe(0);
    expect(lastJson(resumed.stdout)).toMatchObject({ status: 'complete', run_id: runId });
    // Nothing is left to resume.
    const none = await runLathe(['run', '--repo', repo.dir, '--resume'], { env: { LATHE_HOME: home } });
    expect(none.code).toBe(64);
    expect(none.stderr).toContain('can be resumed');
  });

  it.each([
    [['--resume', 'x', '--no-resume'], 'contradict'],
    [['--resume', 'x', '--goals', 'g.txt'], '--goals starts new runs'],
    [['--resume', 'x', '--max-retries', '2'], '--max-retries is fixed when a run starts'],
    [['--goal', 'x', '--spec', 's.md', '--model', MODEL], 'give exactly one of'],
    [['--goal', 'x', '--max-retries', 'many', '--model', MODEL], '--max-retries must be a whole number'],
  ])('exits 64 on %j', async (args, message) => {
    const { repo, home } = setup();
    const result = await runLathe(['run', '--repo', repo.dir, ...args], { env: { LATHE_HOME: home } });
    expect(result.code).toBe(64);
    expect(result.stderr).toContain(message);
  });
});
