import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../test-support/tempRepo';
import { ensureWorktreeRoot, sweepOrphanWorktrees } from './worktreeFolders';

let dir: string | null = null;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** A run worktree folder under a marked root whose `.git` file points at `gitDir`, with a file of the run's in it. */
function worktree(root: string, run: string, gitDir: string): string {
  const folder = path.join(root, 'app-0123abcd', run);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, '.git'), `gitdir: ${gitDir}\n`);
  fs.writeFileSync(path.join(folder, 'work.txt'), "the run's uncommitted work\n");
  return folder;
}

describe('the orphan sweep removes only worktrees their repository has forgotten', () => {
  it('removes a worktree whose admin folder is gone and keeps one whose admin folder is there', async () => {
    dir = makeTempDir();
    const root = path.join(dir, 'worktrees');
    await ensureWorktreeRoot(root);
    const admin = path.join(dir, 'repo', '.git', 'worktrees', 'kept');
    fs.mkdirSync(admin, { recursive: true });
    const kept = worktree(root, 'kept', admin);
    const orphan = worktree(root, 'orphan', path.join(dir, 'repo', '.git', 'worktrees', 'orphan'));
    expect(await sweepOrphanWorktrees(root)).toEqual([orphan]);
    expect(fs.existsSync(kept)).toBe(true);
    expect(fs.existsSync(orphan)).toBe(false);
  });

  // A symlink loop on the way makes the admin folder impossible to look at (ELOOP), for root as for anyone,
  // as a folder without search permission does (EACCES) for a normal user: that is not "gone".
  it('keeps a worktree whose admin folder cannot be looked at', async () => {
    dir = makeTempDir();
    const root = path.join(dir, 'worktrees');
    await ensureWorktreeRoot(root);
    const loop = path.join(dir, 'loop');
    fs.symlinkSync(loop, loop);
    const unknown = worktree(root, 'unknown', path.join(loop, '.git', 'worktrees', 'unknown'));
    expect(await sweepOrphanWorktrees(root)).toEqual([]);
    expect(fs.readFileSync(path.join(unknown, 'work.txt'), 'utf8')).toBe("the run's uncommitted work\n");
  });
});
