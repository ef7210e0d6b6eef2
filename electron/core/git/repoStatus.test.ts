import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { readRepoStatus } from '../workspace/repoStatus';
import { resolveRepoRoot } from './repoStatus';

const repos: TempRepo[] = [];
const track = (repo: TempRepo) => (repos.push(repo), repo);
afterEach(() => {
  repos.splice(0).forEach((repo) => repo.remove());
  vi.resetModules();
  vi.doUnmock('./nativeGit');
});

describe.each([
  ['native git', false],
  ['isomorphic-git', true],
])('readRepoStatus with %s', (_label, forceIsomorphic) => {
  const load = async () => {
    if (forceIsomorphic) {
      vi.doMock('./nativeGit', async (original) => ({
        ...(await original<object>()),
        nativeGitVersion: async () => null,
      }));
    }
    return (await import('../workspace/repoStatus')).readRepoStatus;
  };

  it('reads branch, head and a clean tree', async () => {
    const repo = track(makeTempRepo({ branch: 'trunk', files: { 'src/a.js': 'a\n' } }));
    const status = await (await load())(repo.dir);
    expect(status).toMatchObject({
      path: repo.dir,
      name: path.basename(repo.dir),
      branch: 'trunk',
      dirty: false,
      changedCount: 0,
    });
    expect(status.head).toBe(repo.git('rev-parse', 'HEAD'));
  });

  it('lists modified and untracked files as dirty', async () => {
    const repo = track(makeTempRepo({ files: { 'a.txt': 'a\n', 'b.txt': 'b\n' } }));
    repo.write('a.txt', 'changed\n');
    repo.write('new/c.txt', 'c\n');
    const status = await (await load())(path.join(repo.dir, 'new'));
    expect(status).toMatchObject({ dirty: true, changedCount: 2, changedFiles: ['a.txt', 'new/c.txt'] });
  });

  it('names an unreadable package.json as the reason no test command is shown', async () => {
    const repo = track(makeTempRepo({ files: { 'package.json/x': '', Makefile: 'test:\n\ttrue\n' } }));
    const status = await (await load())(repo.dir);
    expect(status.testCommand).toBeNull();
    expect(status.testCommandReason).toMatch(/package\.json exists but could not be read: EISDIR/);
  });

  it('reports a detached HEAD as no branch', async () => {
    const repo = track(makeTempRepo({ files: { 'a.txt': 'a\n' } }));
    repo.git('checkout', '--quiet', '--detach');
    expect(await (await load())(repo.dir)).toMatchObject({ branch: null, head: repo.git('rev-parse', 'HEAD') });
  });
});

describe('resolveRepoRoot', () => {
  it('rejects a folder outside any repository with NOT_A_REPO', async () => {
    const dir = makeTempDir();
    await expect(resolveRepoRoot(dir)).rejects.toMatchObject({ code: 'NOT_A_REPO' });
    fs.rmSync(dir, { recursive: true });
  });

  it('rejects a missing path and a file with NOT_FOUND', async () => {
    await expect(resolveRepoRoot('/no/such/place/at/all')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const repo = track(makeTempRepo({ files: { 'a.txt': 'a\n' } }));
    await expect(resolveRepoRoot(path.join(repo.dir, 'a.txt'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('reports a repo with no commits yet', async () => {
    const repo = track(makeTempRepo());
    expect(await readRepoStatus(repo.dir)).toMatchObject({ branch: 'main', head: null, dirty: false });
  });
});
