import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../test-support/tempRepo';
import { chooseWorktreeRoot, hasDotSegment, repoFolderName, REPO_FOLDER_PATTERN } from './worktreeRoot';

const cleanup: string[] = [];
afterEach(() => cleanup.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function fakeRepo(): { repoRoot: string; commonDir: string; home: string } {
  const base = makeTempDir('lathe-root-');
  cleanup.push(base);
  const repoRoot = path.join(base, 'work', 'proj');
  fs.mkdirSync(path.join(repoRoot, '.git'), { recursive: true });
  const home = path.join(base, 'home', 'ada');
  fs.mkdirSync(home, { recursive: true });
  return { repoRoot, commonDir: path.join(repoRoot, '.git'), home };
}

describe('the worktree root', () => {
  it('knows a dot-segment when it sees one, on either separator', () => {
    expect(hasDotSegment('/repo/.git/lathe/worktrees/r1')).toBe(true);
    expect(hasDotSegment('/home/ada/.local/share/lathe')).toBe(true);
    expect(hasDotSegment('C:\\Users\\ada\\.lathe\\worktrees')).toBe(true);
    expect(hasDotSegment('/home/ada.lovelace/lathe-worktrees/proj-1a2b3c4d/r1')).toBe(false);
    expect(hasDotSegment('C:\\Users\\ada\\AppData\\Local\\Lathe\\worktrees')).toBe(false);
  });

  it('takes the setting over the environment, and the environment over the default', () => {
    const { repoRoot, commonDir, home } = fakeRepo();
    const env = { LATHE_WORKTREE_ROOT: path.join(home, 'from-env') };
    expect(
      chooseWorktreeRoot(repoRoot, commonDir, { configured: path.join(home, 'from-setting'), env, homedir: home }),
    ).toEqual({ root: path.join(home, 'from-setting'), source: 'setting' });
    expect(chooseWorktreeRoot(repoRoot, commonDir, { env, homedir: home })).toEqual({
      root: path.join(home, 'from-env'),
      source: 'env',
    });
    expect(chooseWorktreeRoot(repoRoot, commonDir, { configured: '~/wt', env, homedir: home }).root).toBe(
      path.join(home, 'wt'),
    );
  });

  it('defaults to a visible folder in the home directory on Linux and macOS, or XDG_DATA_HOME when that is safe', () => {
    const { repoRoot, commonDir, home } = fakeRepo();
    for (const platform of ['linux', 'darwin'] as const) {
      expect(chooseWorktreeRoot(repoRoot, commonDir, { env: {}, platform, homedir: home, uid: 7 })).toEqual({
        root: path.join(home, 'lathe-worktrees'),
        source: 'default',
      });
    }
    // The usual ~/.local/share is never used: XDG_DATA_HOME only counts when set and dot-free.
    expect(
      chooseWorktreeRoot(repoRoot, commonDir, {
        env: { XDG_DATA_HOME: path.join(home, '.local', 'share') },
        platform: 'linux',
        homedir: home,
        uid: 7,
      }).root,
    ).toBe(path.join(home, 'lathe-worktrees'));
    expect(
      chooseWorktreeRoot(repoRoot, commonDir, {
        env: { XDG_DATA_HOME: path.join(home, 'data') },
        platform: 'linux',
        homedir: home,
        uid: 7,
      }).root,
    ).toBe(path.join(home, 'data', 'lathe', 'worktrees'));
  });

  it('falls back when the default would have a dot-segment, or would sit inside the repository', () => {
    const { repoRoot, commonDir, home } = fakeRepo();
    const hiddenHome = path.join(path.dirname(home), '.hidden-home');
    fs.mkdirSync(hiddenHome);
    expect(
      chooseWorktreeRoot(repoRoot, commonDir, { env: {}, platform: 'linux', homedir: hiddenHome, uid: 7 }).root,
    ).toBe('/var/tmp/lathe-worktrees-7');
    // A home folder that is itself a git checkout (dotfiles): ~/lathe-worktrees would be inside it.
    expect(
      chooseWorktreeRoot(path.dirname(home), path.join(path.dirname(home), '.git'), {
        env: {},
        platform: 'linux',
        homedir: home,
        uid: 7,
      }).root,
    ).toBe('/var/tmp/lathe-worktrees-7');
  });

  it('refuses an explicit root it cannot use, naming the setting', () => {
    const { repoRoot, commonDir, home } = fakeRepo();
    const refuse =
      (configured: string, env: NodeJS.ProcessEnv = {}) =>
      () =>
        chooseWorktreeRoot(repoRoot, commonDir, { configured, env, homedir: home });
    expect(refuse('relative/wt')).toThrow(
      /workspace\.worktree_root \(relative\/wt\) cannot hold run worktrees: it is not an absolute path/,
    );
    expect(refuse(path.join(home, '.lathe', 'wt'))).toThrow(/starts with "\."/);
    expect(refuse(path.join(repoRoot, 'wt'))).toThrow(/inside the repository/);
    expect(refuse(path.dirname(repoRoot))).toThrow(/contains it/);
    expect(() =>
      chooseWorktreeRoot(repoRoot, commonDir, {
        env: { LATHE_WORKTREE_ROOT: path.join(commonDir, 'wt') },
        homedir: home,
      }),
    ).toThrow(/LATHE_WORKTREE_ROOT/);
    // A symlinked root is judged by where it really is.
    const sneaky = path.join(home, 'wt-link');
    fs.symlinkSync(path.join(repoRoot, '.git'), sneaky);
    expect(refuse(path.join(sneaky, 'runs'))).toThrow(/INVALID_WORKTREE_ROOT|cannot hold/);
  });

  it('names a repository folder readably and uniquely, never starting with a dot', () => {
    const { repoRoot, commonDir } = fakeRepo();
    const name = repoFolderName(repoRoot, commonDir);
    expect(name).toMatch(/^proj-[0-9a-f]{8}$/);
    expect(repoFolderName(repoRoot, commonDir)).toBe(name);
    const dotted = repoFolderName('/x/.dotfiles', '/x/.dotfiles/.git');
    expect(dotted).toMatch(/^dotfiles-[0-9a-f]{8}$/);
    expect(REPO_FOLDER_PATTERN.test(dotted)).toBe(true);
    expect(repoFolderName('/x/...', '/x/.../.git')).toMatch(/^repo-[0-9a-f]{8}$/);
  });
});
