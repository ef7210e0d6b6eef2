import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeExampleRepo, REPLAYS } from '../../../../test-support/exampleRepo';
import { runLathe } from '../../../../test-support/runCli';
import { makeTempDir, type TempRepo } from '../../../../test-support/tempRepo';

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((fn) => fn()));

interface Ran {
  repo: TempRepo;
  home: string;
  base: string;
  run: { run_id: string; branch: string; status: string };
}

/** The js-stats example and one replay run of it (`extra` adds flags), on branch main. */
async function ranRepo(extra: string[] = [], model = 'js-stats.minimal.json'): Promise<Ran> {
  const repo = makeExampleRepo('js-stats');
  const home = makeTempDir('lathe-home-');
  cleanup.push(
    () => repo.remove(),
    () => fs.rmSync(home, { recursive: true, force: true }),
  );
  const base = repo.git('rev-parse', 'HEAD');
  const result = await runLathe(
    [
      'run',
      '--repo',
      repo.dir,
      '--goal',
      'fix median',
      '--model',
      `replay:${path.join(REPLAYS, model)}`,
      '--json',
      ...extra,
    ],
    { env: { LATHE_HOME: home }, closeStdin: true },
  );
  const run = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as Ran['run'];
  return { repo, home, base, run };
}

const closedOf = async (repo: TempRepo, runId: string) => {
  const runs = JSON.parse((await runLathe(['runs', '--repo', repo.dir, '--json'])).stdout) as {
    runId: string;
    closed: { action: string; into: string | null } | null;
  }[];
  return runs.find((run) => run.runId === runId)?.closed ?? null;
};

describe('lathe merge', () => {
  it("fast-forwards the branch the run started from to the run's head, removes its worktree, keeps its branch; again: nothing to do", async () => {
    const { repo, base, run } = await ranRepo();
    expect(run.status).toBe('complete');
    const head = repo.git('rev-parse', run.branch);
    expect(head).not.toBe(base);
    expect(repo.git('worktree', 'list').split('\n')).toHaveLength(2);
    const result = await runLathe(['merge', '--repo', repo.dir, run.run_id]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`merged run ${run.run_id} into main: it is now at ${head.slice(0, 10)}`);
    expect(repo.git('rev-parse', 'main')).toBe(head);
    expect(repo.git('rev-list', '--merges', 'main')).toBe('');
    // The checkout (on main) has the run's files, nothing left over.
    expect(repo.git('status', '--porcelain')).toBe('');
    expect(repo.git('diff', head)).toBe('');
    expect(repo.git('worktree', 'list').split('\n')).toHaveLength(1);
    expect(repo.git('rev-parse', run.branch)).toBe(head);
    expect(await closedOf(repo, run.run_id)).toMatchObject({ action: 'merged', into: 'main' });
    const again = await runLathe(['merge', '--repo', repo.dir, run.run_id]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`run ${run.run_id} was already merged into main`);
  });

  it('refuses, exit 1 and nothing changed, when a file the run changed has local edits in the checkout', async () => {
    const { repo, base, run } = await ranRepo();
    const changed = repo.git('diff', '--name-only', base, run.branch).split('\n')[0] ?? '';
    fs.appendFileSync(path.join(repo.dir, changed), '// my own edit\n');
    const mine = fs.readFileSync(path.join(repo.dir, changed), 'utf8');
    const result = await runLathe(['merge', '--repo', repo.dir, run.run_id]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`lathe merge: run ${run.run_id} was not merged, nothing changed:`);
    expect(result.stderr).toContain('[DIRTY_WORKTREE]');
    expect(result.stderr).toContain(`\n  ${changed}\n`);
    expect(repo.git('rev-parse', 'main')).toBe(base);
    expect(fs.readFileSync(path.join(repo.dir, changed), 'utf8')).toBe(mine);
    expect(await closedOf(repo, run.run_id)).toBeNull();
  });

  it('refuses, exit 1 and nothing changed, when the branch has moved on since the run started (not a fast-forward)', async () => {
    const { repo, run } = await ranRepo();
    repo.write('NOTES.md', 'meanwhile\n');
    const moved = repo.commitAll('meanwhile on main');
    const result = await runLathe(['merge', '--repo', repo.dir, run.run_id]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'main has commits the run does not have; merging would not be a fast-forward [GIT_MERGE_NOT_FAST_FORWARD]',
    );
    expect(repo.git('rev-parse', 'main')).toBe(moved);
    expect(await closedOf(repo, run.run_id)).toBeNull();
  });

  it('refuses, exit 64, a run that is not complete (stopped at a gate nobody answered), and an undone run', async () => {
    const { repo, base, run } = await ranRepo(
      ['--workflow', 'dev-agent', '--gates', 'step=human'],
      'js-stats.dev-agent.json',
    );
    expect(run.status).toBe('aborted');
    const result = await runLathe(['merge', '--repo', repo.dir, run.run_id]);
    expect(result.code).toBe(64);
    expect(result.stderr).toBe(
      `lathe merge: run ${run.run_id} cannot be merged: Only a complete run can be merged (this one is aborted). [RUN_NOT_COMPLETE]\n`,
    );
    expect(repo.git('rev-parse', 'main')).toBe(base);
    expect((await runLathe(['undo', '--repo', repo.dir, run.run_id])).code).toBe(0);
    const undone = await runLathe(['merge', '--repo', repo.dir, run.run_id]);
    expect(undone.code).toBe(64);
    expect(undone.stderr).toContain('[RUN_UNDONE]');
  });

  it('exits 64 on an unknown run', async () => {
    const repo = makeExampleRepo('js-stats');
    cleanup.push(() => repo.remove());
    const result = await runLathe(['merge', '--repo', repo.dir, '20990101T000000Z']);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('[RUN_NOT_FOUND]');
  });
});
