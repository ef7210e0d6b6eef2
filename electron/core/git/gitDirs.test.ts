import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../test-support/tempRepo';
import { resolveGitDirs } from './gitDirs';
import { readIndexFormat } from './indexFormat';

let dir: string | null = null;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** A bare-bones `.git` folder: what the readers look at, nothing more. */
function dotGit(): string {
  dir = makeTempDir();
  fs.mkdirSync(path.join(dir, '.git'));
  fs.writeFileSync(path.join(dir, '.git', 'config'), '[core]\n');
  return dir;
}

// A folder where a file should be gives EISDIR, which even root cannot read (unlike a chmod 000 file).
describe('git dirs and the index header: absent is absent, unreadable is an error', () => {
  it('no .git is NOT_A_REPO; no commondir is the main work tree; no index is a fresh repository', async () => {
    dir = makeTempDir();
    await expect(resolveGitDirs(dir)).rejects.toMatchObject({ code: 'NOT_A_REPO' });
    const root = dotGit();
    const dirs = await resolveGitDirs(root);
    expect(dirs).toMatchObject({
      gitDir: path.join(root, '.git'),
      commonDir: path.join(root, '.git'),
      objectFormat: 'sha1',
    });
    expect(await readIndexFormat(dirs.gitDir)).toMatchObject({ version: null, entries: 0 });
  });

  it('a commondir that cannot be read is FILE_UNREADABLE, not taken for the main work tree', async () => {
    const root = dotGit();
    fs.mkdirSync(path.join(root, '.git', 'commondir'));
    await expect(resolveGitDirs(root)).rejects.toMatchObject({ code: 'FILE_UNREADABLE' });
  });

  it('an index that cannot be read is FILE_UNREADABLE, not a safe empty index', async () => {
    const root = dotGit();
    fs.mkdirSync(path.join(root, '.git', 'index'));
    await expect(readIndexFormat(path.join(root, '.git'))).rejects.toMatchObject({ code: 'FILE_UNREADABLE' });
  });

  it('no config is a sha1 repository; a config that cannot be read is FILE_UNREADABLE, not taken for sha1', async () => {
    const root = dotGit();
    fs.rmSync(path.join(root, '.git', 'config'));
    expect(await resolveGitDirs(root)).toMatchObject({ objectFormat: 'sha1' });
    fs.mkdirSync(path.join(root, '.git', 'config'));
    await expect(resolveGitDirs(root)).rejects.toMatchObject({
      code: 'FILE_UNREADABLE',
      data: { path: path.join(root, '.git', 'config') },
    });
  });
});
