import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialState } from '../../../shared/engine/initialState';
import { isLatheError, LatheError } from '../../../shared/errors';
import { resolveRunConfig } from '../config/resolveConfig';
import { isDiskFull } from '../fsErrors';
import { readLog, RunStore } from './runStore';
import { makeExampleRepo, REPLAYS } from '../../../test-support/exampleRepo';
import { gitIn } from '../../../test-support/gitState';
import { runLathe } from '../../../test-support/runCli';
import { canMountSmallDisk, mountSmallDisk, type SmallDisk } from '../../../test-support/smallDisk';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';

/**
 * Issue 27, item 5: a full disk at any point is DISK_FULL naming the folder, leaves nothing
 * half-written, undoes what a suite wrote, leaves the run listed resumable (or nothing at all when
 * nothing was recorded yet), and `--resume` completes once there is space. Today's finding: a suite
 * that filled the disk ended `ENOSPC … [INTERNAL]`, the run listed `running`, the suite's file left.
 */

const ENOSPC = () =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });

describe('the run store on a full disk (injected ENOSPC)', () => {
  let repo: TempRepo;
  afterEach(() => {
    vi.restoreAllMocks();
    repo.remove();
  });
  const state = (runId: string) =>
    initialState({
      runId,
      goal: 'g',
      goalHash: 'sha256:x',
      config: resolveRunConfig({ repoRoot: repo.dir }, {}),
      now: new Date(0).toISOString(),
      nowMs: 0,
    });

  it('takes back an event cut short, names the run folder, and goes on with the next seq once there is space', () => {
    repo = makeTempRepo({ files: { 'a.txt': 'a\n' } });
    const store = RunStore.create(repo.dir, 'r1');
    store.append({ role: 'engine', type: 'warning', data: { message: 'first' } });
    const real = fs.appendFileSync;
    vi.spyOn(fs, 'appendFileSync').mockImplementationOnce((file, data) => {
      // Half the line reaches the disk, then it is full.
      real(file, String(data).slice(0, 20));
      throw ENOSPC();
    });
    const failure = (() => {
      try {
        store.append({ role: 'engine', type: 'warning', data: { message: 'x'.repeat(100) } });
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(isLatheError(failure, 'DISK_FULL')).toBe(true);
    expect((failure as LatheError).data).toMatchObject({ folder: store.dir });
    expect((failure as LatheError).message).toContain(`the disk holding ${store.dir} is full`);
    expect(fs.readFileSync(path.join(store.dir, 'log.jsonl'), 'utf8').endsWith('\n')).toBe(true);
    store.append({ role: 'engine', type: 'warning', data: { message: 'third' } });
    expect(readLog(path.join(store.dir, 'log.jsonl')).map((event) => [event.seq, event.data.message])).toEqual([
      [1, 'first'],
      [2, 'third'],
    ]);
  });

  it('keeps the old state and no temp file when the new one cannot be written', () => {
    repo = makeTempRepo({ files: { 'a.txt': 'a\n' } });
    const store = RunStore.create(repo.dir, 'r1');
    store.saveState(state('r1'));
    vi.spyOn(fs, 'writeFileSync').mockImplementationOnce(() => {
      throw ENOSPC();
    });
    expect(() => store.saveState({ ...state('r1'), phase: 'planning' })).toThrow(
      expect.objectContaining({ code: 'DISK_FULL' }),
    );
    expect(fs.readdirSync(store.dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(RunStore.readState(repo.dir, 'r1').phase).toBe('preparing');
  });

  it('reads git\'s "No space left on device" as a full disk', () => {
    expect(
      isDiskFull(
        new LatheError('GIT_FAILED', 'git worktree add failed', {
          stderr: 'fatal: write error: No space left on device',
        }),
      ),
    ).toBe(true);
    expect(
      isDiskFull(new LatheError('GIT_FAILED', 'git worktree add failed', { stderr: 'fatal: not a git repository' })),
    ).toBe(false);
  });
});

const mountable = canMountSmallDisk();
const DISK_BYTES = 24 * 1024 * 1024;

/** A committed js-stats example on a small disk, with Lathe's home and run worktrees on it too. */
function exampleOn(disk: SmallDisk): { repo: string; env: NodeJS.ProcessEnv } {
  const source = makeExampleRepo('js-stats');
  const repo = path.join(disk.dir, 'repo');
  fs.cpSync(source.dir, repo, { recursive: true });
  source.remove();
  return {
    repo,
    env: { LATHE_HOME: path.join(disk.dir, 'home'), LATHE_WORKTREE_ROOT: path.join(disk.dir, 'worktrees') },
  };
}

const MODEL = `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}`;
const runArgs = (repo: string, extra: string[] = []) => [
  'run',
  '--repo',
  repo,
  '--goal',
  'fix median',
  '--workflow',
  'minimal',
  '--model',
  MODEL,
  '--json',
  ...extra,
];
const runsOf = async (repo: string, env: NodeJS.ProcessEnv) =>
  JSON.parse((await runLathe(['runs', '--repo', repo, '--json'], { env })).stdout) as {
    runId: string;
    status: string;
    resumable: boolean;
  }[];
const lathBranches = (repo: string) => gitIn(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/lathe');
const lastJson = (stdout: string) =>
  JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { status?: string; run_id?: string };

describe.skipIf(!mountable)('a full disk, for real (a small tmpfs; needs root)', () => {
  const disks: SmallDisk[] = [];
  const smallDisk = () => {
    const disk = mountSmallDisk(DISK_BYTES);
    disks.push(disk);
    return disk;
  };
  afterEach(() => disks.splice(0).forEach((disk) => disk.unmount()));

  it('a suite that fills the disk: DISK_FULL naming the folder, its writes undone, the run resumable, and resumed once there is space', async () => {
    const disk = smallDisk();
    const { repo, env } = exampleOn(disk);
    // The sandbox has a /tmp of its own: the switch sits in the repository's git folder, which it shows read-only.
    const hungry = path.join(repo, '.git', 'hungry');
    fs.writeFileSync(hungry, '');
    const command = `sh -c 'node --test test/; if [ -e "$(git rev-parse --git-common-dir)/hungry" ]; then head -c 100000000 /dev/zero > fill.bin; fi'`;
    const result = await runLathe(runArgs(repo, ['--test-command', command]), { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /the disk holding \S+worktrees\S* filled up while the test command ran; what it wrote in the run's folder was undone/,
    );
    expect(result.stderr).toContain('[DISK_FULL]');
    const [run] = await runsOf(repo, env);
    expect(run).toMatchObject({ status: 'aborted', resumable: true });
    const worktrees = path.join(disk.dir, 'worktrees');
    expect(fs.readdirSync(worktrees, { recursive: true }).filter((name) => String(name).endsWith('fill.bin'))).toEqual(
      [],
    );
    expect(fs.statfsSync(disk.dir).bavail * fs.statfsSync(disk.dir).bsize).toBeGreaterThan(DISK_BYTES / 2);

    fs.rmSync(hungry);
    const resumed = await runLathe(['run', '--repo', repo, '--resume', run?.runId ?? '', '--json'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(lastJson(resumed.stdout).status).toBe('complete');
  }, 60_000);

  it('full before the start: DISK_FULL, nothing created (no run folder, no branch); a run works once there is space', async () => {
    const disk = smallDisk();
    const { repo, env } = exampleOn(disk);
    disk.fill();
    const result = await runLathe(runArgs(repo), { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot start: the disk holding \S+ is full .*nothing was created \[DISK_FULL\]/);
    expect(
      fs.existsSync(path.join(repo, '.lathe', 'runs')) ? fs.readdirSync(path.join(repo, '.lathe', 'runs')) : [],
    ).toEqual([]);
    expect(lathBranches(repo)).toBe('');
    disk.free();
    const again = await runLathe(runArgs(repo), { env });
    expect(again.code, again.stderr).toBe(0);
  }, 60_000);

  it("the worktrees' disk full when the run prepares: no stray branch or worktree, the run resumable, resumed once there is space", async () => {
    const disk = smallDisk();
    const worktrees = smallDisk();
    const { repo, env } = exampleOn(disk);
    worktrees.fill();
    const result = await runLathe(runArgs(repo), { env: { ...env, LATHE_WORKTREE_ROOT: worktrees.dir } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('[DISK_FULL]');
    expect(lathBranches(repo)).toBe('');
    expect(gitIn(repo, 'worktree', 'list').split('\n')).toHaveLength(1);
    const [run] = await runsOf(repo, env);
    expect(run).toMatchObject({ status: 'aborted', resumable: true });
    worktrees.free();
    const resumed = await runLathe(['run', '--repo', repo, '--resume', run?.runId ?? '', '--json'], {
      env: { ...env, LATHE_WORKTREE_ROOT: worktrees.dir },
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(lastJson(resumed.stdout).status).toBe('complete');
  }, 60_000);

  it(
    'the disk fills up at any point of a run: DISK_FULL, nothing half-written, listed resumable, and resumed to the uninterrupted result',
    async () => {
      const baselineDisk = smallDisk();
      const baseline = exampleOn(baselineDisk);
      const clean = await runLathe(runArgs(baseline.repo), { env: baseline.env });
      expect(clean.code, clean.stderr).toBe(0);
      const baselineRun = lastJson(clean.stdout).run_id ?? '';
      const events = readLog(path.join(baseline.repo, '.lathe', 'runs', baselineRun, 'log.jsonl')).length;
      const treeOf = (repo: string, runId: string) => {
        const state = JSON.parse(fs.readFileSync(path.join(repo, '.lathe', 'runs', runId, 'state.json'), 'utf8')) as {
          branch: string;
        };
        return gitIn(repo, 'rev-parse', `${state.branch}^{tree}`);
      };
      const expectedTree = treeOf(baseline.repo, baselineRun);
      // `npm run test:soak`: after every event of the run.
      const points =
        process.env.LATHE_SOAK === '1'
          ? Array.from({ length: events }, (_, index) => index + 1)
          : [1, 3, 5, 8, 12, Math.floor(events / 2), events - 6, events - 2];
      for (const point of points) {
        const disk = smallDisk();
        const { repo, env } = exampleOn(disk);
        const failed = await runLathe(runArgs(repo), {
          env: { ...env, LATHE_TEST_FILL_DISK_AT_EVENT: `${point}:${disk.dir}` },
        });
        const where = `disk filled after event ${point} of ${events}`;
        expect(failed.code, `${where}: ${failed.stderr}`).toBe(2);
        expect(failed.stderr, where).toContain('[DISK_FULL]');
        expect(failed.stderr, where).toMatch(/the disk holding \/\S+ (is full|filled up)/);
        const [run] = await runsOf(repo, env);
        if (!run) {
          // Full before anything could be recorded: nothing is left, not even a branch.
          expect(failed.stderr, where).toContain('nothing was created');
          expect(lathBranches(repo), where).toBe('');
          disk.free();
          continue;
        }
        expect(run.status, where).not.toBe('running');
        const runDir = path.join(repo, '.lathe', 'runs', run.runId ?? '');
        expect(
          fs.readdirSync(runDir).filter((name) => name.endsWith('.tmp')),
          where,
        ).toEqual([]);
        expect(fs.readFileSync(path.join(runDir, 'log.jsonl'), 'utf8').endsWith('\n'), where).toBe(true);
        expect(() => readLog(path.join(runDir, 'log.jsonl')), where).not.toThrow();
        expect(gitIn(repo, 'status', '--porcelain'), where).toBe('');
        disk.free();
        if (run.status === 'complete') continue;
        expect(run.resumable, where).toBe(true);
        const resumed = await runLathe(['run', '--repo', repo, '--resume', run.runId ?? '', '--json'], { env });
        expect(resumed.code, `${where}, resumed: ${resumed.stderr}`).toBe(0);
        expect(treeOf(repo, run.runId ?? ''), where).toBe(expectedTree);
        disks.splice(disks.indexOf(disk), 1);
        disk.unmount();
      }
    },
    process.env.LATHE_SOAK === '1' ? 60 * 60_000 : 300_000,
  );
});
