import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { createGitFacade } from './gitFacade';
import { syncFs } from './localFs';

const repos: TempRepo[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  repos.splice(0).forEach((repo) => repo.remove());
});

const facade = createGitFacade({ useNativeGit: false });
const step = { runId: 'p1', taskId: 'T1', title: 'Touch the app', role: 'coder' };

/** The OS refuses to look at `file` (EACCES), as for a non-root user in a folder without search permission. */
function refuseLstat(file: string): void {
  const lstat = syncFs.lstat;
  vi.spyOn(syncFs, 'lstat').mockImplementation(((target: fs.PathLike, options?: fs.StatOptions) => {
    if (target === file)
      return Promise.reject(Object.assign(new Error(`EACCES: permission denied, lstat '${file}'`), { code: 'EACCES' }));
    return lstat(target, options);
  }) as typeof syncFs.lstat);
}

describe('a step commit stages what is on disk: gone is a deletion, unreadable is an error', () => {
  it('a file that is not there is committed as deleted', async () => {
    const repo = makeTempRepo({ files: { 'src/app.js': 'export const v = 1;\n', 'README.md': '# app\n' } });
    repos.push(repo);
    const workspace = await facade.startRun(repo.dir, { runId: 'p1', branchPrefix: 'lathe', allowDirty: false });
    fs.rmSync(path.join(repo.dir, 'src/app.js'));
    await facade.commitStep(workspace, ['src/app.js'], step);
    expect(repo.git('ls-tree', '-r', '--name-only', 'lathe/p1')).toBe('README.md');
  });

  it('a file that is there but cannot be looked at is FILE_UNREADABLE, and the branch keeps it', async () => {
    const repo = makeTempRepo({ files: { 'src/app.js': 'export const v = 1;\n', 'README.md': '# app\n' } });
    repos.push(repo);
    const workspace = await facade.startRun(repo.dir, { runId: 'p1', branchPrefix: 'lathe', allowDirty: false });
    const head = repo.git('rev-parse', 'lathe/p1');
    refuseLstat(path.join(repo.dir, 'src/app.js'));
    await expect(facade.commitStep(workspace, ['src/app.js'], step)).rejects.toMatchObject({
      code: 'FILE_UNREADABLE',
      data: { path: 'src/app.js', errno: 'EACCES' },
    });
    vi.restoreAllMocks();
    expect(repo.git('rev-parse', 'lathe/p1')).toBe(head);
    expect(repo.git('ls-tree', '-r', '--name-only', 'lathe/p1')).toBe('README.md\nsrc/app.js');
  });
});
