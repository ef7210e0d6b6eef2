import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { APP_ROOT, makeExampleRepo, REPLAYS, treeAt } from '../../../test-support/exampleRepo';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { resolveRunConfig } from '../config/resolveConfig';
import { createEngineEnv } from './defaultDeps';
import { startRun } from './runner';

const MODEL = `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}`;
const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((fn) => fn()));

function track(repo: TempRepo): TempRepo {
  cleanup.push(() => repo.remove());
  return repo;
}

async function run(dir: string) {
  const dataDir = makeTempDir('lathe-data-');
  cleanup.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const config = resolveRunConfig({ repoRoot: dir }, { workflow: 'minimal', model: MODEL });
  return startRun(createEngineEnv({ appRoot: APP_ROOT, dataDir, retryBackoffMs: 1 }), {
    repoRoot: dir,
    goal: 'fix median',
    config,
  });
}

function snapshot(repo: TempRepo) {
  return {
    head: repo.git('rev-parse', 'HEAD'),
    symbolic: repo.git('rev-parse', '--abbrev-ref', 'HEAD'),
    status: repo.git('status', '--porcelain'),
    refs: repo.git('for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads'),
  };
}

describe('repository safety', () => {
  it('works from a detached HEAD and leaves it detached where it was', async () => {
    const repo = track(makeExampleRepo('js-stats'));
    repo.git('checkout', '--quiet', '--detach');
    const before = snapshot(repo);
    const state = await run(repo.dir);
    expect(state.result?.status).toBe('complete');
    expect(state.workspace?.originalBranch).toBeNull();
    expect(snapshot(repo)).toEqual({ ...before, refs: expect.any(String) });
    expect(snapshot(repo).symbolic).toBe('HEAD');
  });

  it('works in a repository with a submodule, leaving the submodule as it was', async () => {
    const library = track(makeTempRepo({ files: { 'lib.js': 'export const x = 1;\n' } }));
    const repo = track(makeExampleRepo('js-stats'));
    repo.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '--quiet', library.dir, 'vendor/lib');
    repo.commitAll('add a submodule');
    const before = { ...snapshot(repo), submodule: repo.git('submodule', 'status') };
    const state = await run(repo.dir);
    expect(state.result?.status).toBe('complete');
    expect({ ...snapshot(repo), submodule: repo.git('submodule', 'status') }).toEqual({
      ...before,
      refs: expect.any(String),
    });
    expect(repo.git('fsck', '--strict')).toBe('');
  });

  it('runs on a split index through native git without corrupting it', async () => {
    const repo = track(makeExampleRepo('js-stats'));
    repo.git('update-index', '--split-index');
    const state = await run(repo.dir);
    expect(state.result?.status).toBe('complete');
    expect(repo.git('fsck', '--strict')).toBe('');
    expect(repo.git('status', '--porcelain')).toBe('');
    expect(fs.readdirSync(path.join(repo.dir, '.git')).some((name) => name.startsWith('sharedindex.'))).toBe(true);
  });

  it('never collides with an existing branch of the same name: it takes the next run id', async () => {
    const repo = track(makeExampleRepo('js-stats'));
    const now = new Date();
    const ids = [0, 1, 2].map((second) =>
      new Date(now.getTime() + second * 1000)
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d{3}Z$/, 'Z'),
    );
    for (const id of ids) repo.git('branch', `lathe/${id}`);
    const state = await run(repo.dir);
    expect(state.result?.status).toBe('complete');
    expect(ids).not.toContain(state.run_id);
    expect(state.run_id).toMatch(/^\d{8}T\d{6}Z(-\d+)?$/);
    for (const id of ids) expect(repo.git('rev-parse', `lathe/${id}`)).toBe(repo.git('rev-parse', 'main'));
  });

  it('works on a path with spaces and unicode', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe repo ünïcødé '));
    cleanup.push(() => fs.rmSync(parent, { recursive: true, force: true }));
    const repo = makeExampleRepo('js-stats');
    const dir = path.join(parent, 'my repo — ü');
    fs.renameSync(repo.dir, dir);
    const state = await run(dir);
    expect(state.result?.status).toBe('complete');
    const moved = {
      ...repo,
      dir,
      git: (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim(),
    } as TempRepo;
    expect(treeAt(moved, state.branch ?? '')['src/stats.js']).toContain('Math.floor');
  });

  it('refuses a read-only repository with a clear message, changing nothing', async () => {
    const repo = track(makeExampleRepo('js-stats'));
    const before = snapshot(repo);
    const home = makeTempDir('lathe-home-');
    cleanup.push(() => fs.rmSync(home, { recursive: true, force: true }));
    // Root ignores file modes, so the repository is made read-only the way a mount would: a read-only bind.
    const result = spawnSync(
      'bwrap',
      [
        '--bind',
        '/',
        '/',
        '--ro-bind',
        repo.dir,
        repo.dir,
        '--dev',
        '/dev',
        '--proc',
        '/proc',
        process.execPath,
        path.join(APP_ROOT, 'bin', 'lathe.mjs'),
        'run',
        '--repo',
        repo.dir,
        '--goal',
        'fix median',
        '--model',
        MODEL,
      ],
      { env: { ...process.env, LATHE_HOME: home }, encoding: 'utf8' },
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/the repository .* is not writable \((EROFS|EACCES|ENOENT)\).*\[REPO_READ_ONLY\]/);
    expect(snapshot(repo)).toEqual(before);
    expect(fs.existsSync(path.join(repo.dir, '.lathe'))).toBe(false);
  }, 60_000);
});
