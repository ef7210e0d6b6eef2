import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeExampleRepo, readReplay, REPLAYS, writeReplay } from '../../../../test-support/exampleRepo';
import { runLathe } from '../../../../test-support/runCli';
import { makeTempDir, type TempRepo } from '../../../../test-support/tempRepo';

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((fn) => fn()));

interface Fixture {
  repo: TempRepo;
  home: string;
  /** A replay run; its JSON summary line. */
  run(
    kind: 'complete' | 'failed' | 'gate',
    extra?: string[],
  ): Promise<{ run_id: string; branch: string; status: string }>;
  lathe(args: string[]): ReturnType<typeof runLathe>;
}

function fixture(): Fixture {
  const repo = makeExampleRepo('js-stats');
  const home = makeTempDir('lathe-home-');
  cleanup.push(
    () => repo.remove(),
    () => fs.rmSync(home, { recursive: true, force: true }),
  );
  const outputs = readReplay('js-stats.minimal.json').outputs;
  // The planner, then a coder that edits a file its task does not name: the task and the run fail, no commit.
  const failing = writeReplay(home, 'failing', [outputs[0], outputs[3]]);
  const models = {
    complete: ['--model', `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}`],
    failed: ['--model', failing],
    gate: [
      '--workflow',
      'dev-agent',
      '--gates',
      'step=human',
      '--model',
      `replay:${path.join(REPLAYS, 'js-stats.dev-agent.json')}`,
    ],
  };
  const lathe = (args: string[]) =>
    runLathe([...args, '--repo', repo.dir], { env: { LATHE_HOME: home }, closeStdin: true });
  return {
    repo,
    home,
    lathe,
    async run(kind, extra = []) {
      const result = await lathe(['run', '--goal', 'fix median', '--json', ...models[kind], ...extra]);
      return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as {
        run_id: string;
        branch: string;
        status: string;
      };
    },
  };
}

const runFolder = (repo: TempRepo, runId: string) => path.join(repo.dir, '.lathe', 'runs', runId);
/** The Verifier folders a run's log names. */
const artifactsOf = (repo: TempRepo, runId: string) =>
  [...fs.readFileSync(path.join(runFolder(repo, runId), 'log.jsonl'), 'utf8').matchAll(/"artifact_dir":"([^"]+)"/g)]
    .map((match) => match[1] ?? '')
    .filter(Boolean);
// Whole lines only: run ids started in the same second differ by a suffix (`…Z` and `…Z-2`).
const worktreeOf = (repo: TempRepo, branch: string) => {
  const block = repo
    .git('worktree', 'list', '--porcelain')
    .split('\n\n')
    .find((entry) => entry.split('\n').includes(`branch refs/heads/${branch}`));
  return block ? (/^worktree (.+)$/m.exec(block)?.[1] ?? null) : null;
};
const branches = (repo: TempRepo) => repo.git('for-each-ref', '--format=%(refname:short)', 'refs/heads').split('\n');
const listed = async (f: Fixture) =>
  (JSON.parse((await f.lathe(['runs', '--json'])).stdout) as { runId: string }[]).map((run) => run.runId).sort();

/** Everything prune could touch, to show that a dry run touched nothing. */
function snapshot(f: Fixture) {
  const list = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);
  const worktrees = f.repo.git('worktree', 'list', '--porcelain');
  return {
    refs: f.repo.git('for-each-ref', '--format=%(refname) %(objectname)'),
    worktrees,
    folders: [...worktrees.matchAll(/^worktree (.+)$/gm)].map((match) => fs.existsSync(match[1] ?? '')),
    runs: list(path.join(f.repo.dir, '.lathe', 'runs')),
    artifacts: list(path.join(f.home, 'artifacts')),
    status: f.repo.git('status', '--porcelain'),
  };
}

describe('lathe prune', () => {
  // Five replay runs: longer than the default timeout on a busy machine.
  it('by default removes failed and undone runs, whole; --dry-run first says so and removes nothing; named statuses reach further', async () => {
    const f = fixture();
    const complete = await f.run('complete');
    const undone = await f.run('complete');
    expect((await f.lathe(['undo', undone.run_id])).code).toBe(0);
    const failed = await f.run('failed');
    const atGate = await f.run('gate');
    const merged = await f.run('complete');
    expect([complete.status, failed.status, atGate.status, merged.status]).toEqual([
      'complete',
      'failed',
      'aborted',
      'complete',
    ]);
    expect((await f.lathe(['merge', merged.run_id])).code).toBe(0);
    const mainAfterMerge = f.repo.git('rev-parse', 'main');
    const failedWorktree = worktreeOf(f.repo, failed.branch);
    const failedArtifacts = artifactsOf(f.repo, failed.run_id);
    expect(failedWorktree).not.toBeNull();
    expect(failedArtifacts.length).toBeGreaterThan(0);
    expect(failedArtifacts.every((dir) => fs.existsSync(dir))).toBe(true);
    const completeArtifacts = artifactsOf(f.repo, complete.run_id);

    const before = snapshot(f);
    const dry = await f.lathe(['prune', '--dry-run']);
    expect(dry.code).toBe(0);
    const dryLines = dry.stdout.trimEnd().split('\n');
    expect(dryLines[0]).toMatch(
      /^would remove 2 run\(s\), freeing [\d.]+ (B|KiB|MiB) \(dry run: nothing was removed\):$/,
    );
    expect(dryLines.slice(1).map((line) => line.trim().split(/\s+/).slice(0, 2))).toEqual([
      [failed.run_id, 'failed'],
      [undone.run_id, 'undone'],
    ]);
    expect(dryLines[1]).toContain(
      `branch ${failed.branch}, worktree ${failedWorktree}, ${failedArtifacts.length} artifact folder(s), .lathe/runs/${failed.run_id}`,
    );
    expect(snapshot(f)).toEqual(before);

    const pruned = await f.lathe(['prune']);
    expect(pruned.code).toBe(0);
    expect(pruned.stdout.split('\n')[0]).toMatch(/^removed 2 run\(s\), freed [\d.]+ (KiB|MiB)/);
    expect(pruned.stdout.split('\n')[0]?.replace('removed', 'would remove').replace('freed', 'freeing')).toBe(
      dryLines[0]?.replace(' (dry run: nothing was removed):', ':'),
    );
    // The failed run: branch, worktree (folder and git's record), artifacts and record all gone.
    expect(branches(f.repo)).not.toContain(failed.branch);
    expect(worktreeOf(f.repo, failed.branch)).toBeNull();
    expect(fs.existsSync(failedWorktree ?? '')).toBe(false);
    expect(f.repo.git('worktree', 'list', '--porcelain').split('\n')).not.toContain(`worktree ${failedWorktree ?? ''}`);
    expect(failedArtifacts.some((dir) => fs.existsSync(dir))).toBe(false);
    expect(fs.existsSync(runFolder(f.repo, failed.run_id))).toBe(false);
    expect(fs.existsSync(runFolder(f.repo, undone.run_id))).toBe(false);
    // Nothing else: the complete run whole, the resumable one, the merged one, the user's branch and checkout.
    expect(await listed(f)).toEqual([complete.run_id, atGate.run_id, merged.run_id].sort());
    expect(branches(f.repo)).toEqual(expect.arrayContaining(['main', complete.branch, atGate.branch, merged.branch]));
    expect(fs.existsSync(worktreeOf(f.repo, complete.branch) ?? '')).toBe(true);
    expect(completeArtifacts.every((dir) => fs.existsSync(dir))).toBe(true);
    expect(f.repo.git('rev-parse', 'main')).toBe(mainAfterMerge);
    expect(f.repo.git('status', '--porcelain')).toBe('');
    expect((await f.lathe(['prune'])).stdout.trim()).toBe('nothing to prune');

    // Named: the merged run goes (the merge stays on main), then the resumable one stopped at its gate.
    const mergedGone = await f.lathe(['prune', '--status', 'merged']);
    expect(mergedGone.code).toBe(0);
    expect(branches(f.repo)).not.toContain(merged.branch);
    expect(f.repo.git('rev-parse', 'main')).toBe(mainAfterMerge);
    expect((await f.lathe(['prune', '--status', 'aborted'])).code).toBe(0);
    expect(branches(f.repo)).not.toContain(atGate.branch);
    expect(worktreeOf(f.repo, atGate.branch)).toBeNull();
    expect(await listed(f)).toEqual([complete.run_id]);
    expect(f.repo.git('worktree', 'list').split('\n')).toHaveLength(2);
  }, 120_000);

  it('keeps a run whose branch is checked out, or is not one of lathe/*, and prunes only runs older than --older-than', async () => {
    const f = fixture();
    const config = path.join(f.home, 'prefix.yaml');
    fs.writeFileSync(config, 'git:\n  branch_prefix: mine\n');
    const foreign = await f.run('failed', ['--config', config]);
    expect(foreign.branch).toMatch(/^mine\//);
    const checkedOut = await f.run('failed');
    // The user takes the run's branch into the main checkout.
    f.repo.git('worktree', 'remove', '--force', worktreeOf(f.repo, checkedOut.branch) ?? '');
    f.repo.git('switch', '--quiet', checkedOut.branch);

    expect((await f.lathe(['prune', '--older-than', '1d'])).stdout.trim()).toBe('nothing to prune');
    const before = snapshot(f);
    const result = await f.lathe(['prune', '--older-than', '0s']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe('nothing to prune');
    expect(result.stderr).toContain(
      `kept run ${foreign.run_id} (failed): its branch ${foreign.branch} is not one of Lathe's (lathe/*) for this run`,
    );
    expect(result.stderr).toContain(
      `kept run ${checkedOut.run_id} (failed): its branch ${checkedOut.branch} is checked out in ${f.repo.dir}`,
    );
    expect(snapshot(f)).toEqual(before);
    expect(f.repo.git('branch', '--show-current')).toBe(checkedOut.branch);
  });

  it.each([
    [['--status', 'finished'], "--status: 'finished' is not a run status"],
    [['--older-than', 'a week'], "--older-than: 'a week' is not a duration"],
    [['extra'], "unexpected argument 'extra'"],
  ])('exits 64 on a usage error: %j', async (args, message) => {
    const f = fixture();
    const result = await f.lathe(['prune', ...args]);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain(message);
  });
});
