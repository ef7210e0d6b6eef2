import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeExampleRepo, REPLAYS } from '../../../../test-support/exampleRepo';
import { runLathe } from '../../../../test-support/runCli';
import { makeTempDir, type TempRepo } from '../../../../test-support/tempRepo';

let repo: TempRepo;
let home: string;
let run: { run_id: string; branch: string };
let base: string;

/** git's own output, byte for byte (TempRepo.git trims it). */
const gitOut = (...args: string[]) => execFileSync('git', args, { cwd: repo.dir, encoding: 'utf8' });

beforeAll(async () => {
  repo = makeExampleRepo('js-stats');
  home = makeTempDir('lathe-home-');
  base = repo.git('rev-parse', 'HEAD');
  const result = await runLathe(
    [
      'run',
      '--repo',
      repo.dir,
      '--goal',
      'fix median',
      '--model',
      `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}`,
      '--json',
    ],
    { env: { LATHE_HOME: home } },
  );
  expect(result.code).toBe(0);
  run = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as typeof run;
});
afterAll(() => {
  repo.remove();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('lathe diff', () => {
  it("prints git's own diff of the run, from the commit it started from to its branch's head", async () => {
    const result = await runLathe(['diff', '--repo', repo.dir, run.run_id]);
    expect(result.code).toBe(0);
    const expected = gitOut('diff', base, run.branch);
    expect(expected).toMatch(/^diff --git a\//);
    expect(result.stdout).toBe(expected);
    expect(result.stderr).toBe('');
  });

  it("--stat: one line per file with the lines added and removed, and git's summary line", async () => {
    const result = await runLathe(['diff', '--repo', repo.dir, '--stat', run.run_id]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    const numstat = gitOut('diff', '--numstat', base, run.branch)
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(lines.slice(0, -1).map((line) => line.trim().split(/\s+\|\s+/))).toEqual(
      numstat.map(([added, removed, file]) => [file, `+${added} -${removed}`]),
    );
    expect(lines.at(-1)).toBe(gitOut('diff', '--stat', base, run.branch).trimEnd().split('\n').at(-1));
  });

  it.each([['20990101T000000Z'], ['../../etc'], ['']])('exits 64 on a run id that names no run (%j)', async (runId) => {
    const result = await runLathe(['diff', '--repo', repo.dir, runId]);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(/^lathe diff: no run .* \[RUN_NOT_FOUND\]$/m);
    expect(result.stdout).toBe('');
  });

  it('exits 64 without exactly one RUN_ID', async () => {
    const result = await runLathe(['diff', '--repo', repo.dir]);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('give exactly one RUN_ID');
  });

  // Last: it undoes the run the others read.
  it('exits 64 on an undone run, whose branch is gone', async () => {
    expect((await runLathe(['undo', '--repo', repo.dir, run.run_id])).code).toBe(0);
    const result = await runLathe(['diff', '--repo', repo.dir, run.run_id]);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain(`run ${run.run_id} was undone`);
    expect(result.stderr).toContain('[RUN_UNDONE]');
  });
});
