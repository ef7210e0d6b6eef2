import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fsckStrict, gitIn } from '../../../test-support/gitState';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { createGitFacade } from './gitFacade';
import { parseIndexBuffer, readIndexFormat } from './indexFormat';

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((repo) => repo.remove()));

function project(): TempRepo {
  const files: Record<string, string> = { 'a.txt': 'a\n', 'dir/b.txt': 'b\n', 'dir/sub/c.txt': 'c\n' };
  for (let index = 0; index < 30; index++) files[`many/file-${index}.txt`] = `${index}\n`;
  const repo = makeTempRepo({ files });
  repos.push(repo);
  return repo;
}

describe('index format checks', () => {
  it('reads versions 2, 3 and 4 and walks every entry to the extensions', async () => {
    const repo = project();
    const gitDir = path.join(repo.dir, '.git');
    expect(await readIndexFormat(gitDir)).toMatchObject({ version: 2, entries: 33, split: false });
    repo.git('update-index', '--index-version', '3');
    repo.git('update-index', '--skip-worktree', 'a.txt');
    expect(await readIndexFormat(gitDir)).toMatchObject({ version: 3, entries: 33, split: false });
    repo.git('update-index', '--index-version', '4');
    repo.git('update-index', '--untracked-cache');
    repo.git('status', '--porcelain');
    const v4 = await readIndexFormat(gitDir);
    expect(v4).toMatchObject({ version: 4, entries: 33, split: false });
    expect(v4.extensions).toContain('UNTR');
  });

  it('detects a split index by its link extension', async () => {
    const repo = project();
    repo.git('update-index', '--split-index');
    const format = await readIndexFormat(path.join(repo.dir, '.git'));
    expect(format.split).toBe(true);
    // Without the sharedindex files the link extension alone must still be seen.
    expect(parseIndexBuffer(fs.readFileSync(path.join(repo.dir, '.git', 'index')), 20, false).extensions).toContain(
      'link',
    );
  });

  it('treats garbage as invalid instead of crashing', () => {
    expect(parseIndexBuffer(Buffer.from('not an index at all'), 20)).toMatchObject({ version: -1 });
  });
});

describe.each([
  ['split index', (repo: TempRepo) => repo.git('update-index', '--split-index')],
  ['index v4', (repo: TempRepo) => repo.git('update-index', '--index-version', '4')],
])('a repository with a %s', (_label, prepare) => {
  it('is refused by isomorphic-git alone with ISOMORPHIC_UNSAFE, untouched', async () => {
    const repo = project();
    prepare(repo);
    const indexBefore = fs.readFileSync(path.join(repo.dir, '.git', 'index'));
    const facade = createGitFacade({ useNativeGit: false });
    const preflight = await facade.preflight(repo.dir);
    expect(preflight.isomorphicUnsafeReason).toMatch(/split|version 4/);
    await expect(
      facade.startRun(repo.dir, { runId: 'u1', branchPrefix: 'lathe', allowDirty: false }),
    ).rejects.toMatchObject({ code: 'ISOMORPHIC_UNSAFE' });
    expect(fs.readFileSync(path.join(repo.dir, '.git', 'index')).equals(indexBefore)).toBe(true);
    expect(repo.git('symbolic-ref', 'HEAD')).toBe('refs/heads/main');
  });

  it('is handled by native git in worktree and in-place mode, and never corrupted', async () => {
    const repo = project();
    prepare(repo);
    const facade = createGitFacade();
    expect((await facade.preflight(repo.dir)).nativeGit).not.toBeNull();
    const worktreeRun = await facade.startRun(repo.dir, { runId: 'w1', branchPrefix: 'lathe', allowDirty: false });
    fs.writeFileSync(path.join(worktreeRun.workDir, 'dir/b.txt'), 'B\n');
    await facade.commitStep(worktreeRun, ['dir/b.txt'], { runId: 'w1', taskId: 'T1', title: 't', role: 'coder' });
    expect(await facade.mergeRun(worktreeRun)).toMatchObject({});
    expect(fs.readFileSync(path.join(repo.dir, 'dir/b.txt'), 'utf8')).toBe('B\n');
    await facade.undoRun(worktreeRun);

    const inPlace = await facade.startRun(repo.dir, {
      runId: 'i1',
      branchPrefix: 'lathe',
      allowDirty: false,
      mode: 'in-place',
    });
    fs.writeFileSync(path.join(repo.dir, 'many/file-3.txt'), 'three\n');
    fs.rmSync(path.join(repo.dir, 'a.txt'));
    await facade.commitStep(inPlace, ['many/file-3.txt', 'a.txt'], {
      runId: 'i1',
      taskId: 'T1',
      title: 't',
      role: 'coder',
    });
    expect(gitIn(repo.dir, 'status', '--porcelain')).toBe('');
    expect(gitIn(repo.dir, 'ls-files').split('\n')).toHaveLength(32);
    await facade.undoRun(inPlace);
    expect(gitIn(repo.dir, 'status', '--porcelain')).toBe('');
    expect(gitIn(repo.dir, 'ls-files').split('\n')).toHaveLength(33);
    expect(fsckStrict(repo.dir)).toEqual({ code: 0, output: '' });
  });
});
