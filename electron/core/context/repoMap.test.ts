import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { buildRepoMap, clearRepoMapMemory, gitBlobId, type RepoMap } from './repoMap';

let repo: TempRepo | null = null;
afterEach(() => {
  repo?.remove();
  repo = null;
});

const symbolsOf = (map: RepoMap, file: string) => map.byPath.get(file)?.symbols.map((symbol) => symbol.name);

/** Committed: two modules and an ignored folder. */
function sample(): TempRepo {
  return makeTempRepo({
    files: {
      'a.py': 'def alpha():\n    return 1\n',
      'b.py': 'def beta():\n    return 2\n',
      '.gitignore': 'ignored/\n',
    },
  });
}

describe('buildRepoMap between builds', () => {
  it('returns the same map while nothing changed, and sees every kind of change git can report', async () => {
    repo = sample();
    clearRepoMapMemory();
    const first = await buildRepoMap(repo.dir);
    const again = await buildRepoMap(repo.dir);
    expect(again.files).toBe(first.files);
    expect(again.parsed).toBe(0);

    repo.write('a.py', 'def alpha_changed():\n    return 1\n');
    const modified = await buildRepoMap(repo.dir);
    expect(symbolsOf(modified, 'a.py')).toEqual(['alpha_changed']);
    expect(modified.parsed).toBe(1);

    repo.git('add', 'a.py');
    const staged = await buildRepoMap(repo.dir);
    expect(symbolsOf(staged, 'a.py')).toEqual(['alpha_changed']);
    expect(staged.parsed).toBe(0);

    repo.write('c.py', 'def gamma():\n    return 3\n');
    repo.write('ignored/d.py', 'def delta():\n    return 4\n');
    fs.rmSync(path.join(repo.dir, 'b.py'));
    const moved = await buildRepoMap(repo.dir);
    expect(moved.files.map((file) => file.path)).toEqual(['.gitignore', 'a.py', 'c.py']);

    // An untracked file rewritten in place with the same length: its content hash tells.
    repo.write('c.py', 'def gammb():\n    return 3\n');
    expect(symbolsOf(await buildRepoMap(repo.dir), 'c.py')).toEqual(['gammb']);

    repo.git('add', '--all');
    repo.git('commit', '-q', '-m', 'changes');
    repo.git('checkout', '-q', 'HEAD~1', '--', 'a.py');
    const restored = await buildRepoMap(repo.dir);
    expect(symbolsOf(restored, 'a.py')).toEqual(['alpha']);
    expect(restored.files.map((file) => file.path)).toEqual(['.gitignore', 'a.py', 'c.py']);
  });

  it("follows a linked worktree's own index", async () => {
    repo = sample();
    const worktree = path.join(repo.dir, '..', `${path.basename(repo.dir)}-wt`);
    repo.git('worktree', 'add', '-q', '-b', 'side', worktree);
    try {
      clearRepoMapMemory();
      expect(symbolsOf(await buildRepoMap(worktree), 'b.py')).toEqual(['beta']);
      fs.writeFileSync(path.join(worktree, 'b.py'), 'def beta_in_worktree():\n    return 2\n');
      repo.git('-C', worktree, 'add', 'b.py');
      expect(symbolsOf(await buildRepoMap(worktree), 'b.py')).toEqual(['beta_in_worktree']);
      expect(symbolsOf(await buildRepoMap(repo.dir), 'b.py')).toEqual(['beta']);
    } finally {
      repo.git('worktree', 'remove', '--force', worktree);
    }
  });
});

describe('the disk cache', () => {
  it('is rewritten once the blobs parsed since it was written are 1 % of the map, not after every edit', async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 150; index++) files[`pkg/m${index}.py`] = `def f${index}():\n    return ${index}\n`;
    repo = makeTempRepo({ files });
    const cacheFile = path.join(repo.dir, '.lathe', 'cache', 'repo-map.json');
    const cached = () =>
      Object.keys((JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as { blobs: Record<string, unknown> }).blobs);
    clearRepoMapMemory();
    await buildRepoMap(repo.dir, { cacheFile });
    expect(cached()).toHaveLength(150);
    const first = 'def first_edit():\n    return 1\n';
    repo.write('pkg/m1.py', first);
    expect((await buildRepoMap(repo.dir, { cacheFile })).parsed).toBe(1);
    expect(cached()).not.toContain(gitBlobId(Buffer.from(first)));
    const second = 'def second_edit():\n    return 2\n';
    repo.write('pkg/m2.py', second);
    expect((await buildRepoMap(repo.dir, { cacheFile })).parsed).toBe(1);
    expect(cached()).toEqual(expect.arrayContaining([gitBlobId(Buffer.from(first)), gitBlobId(Buffer.from(second))]));
    // A new process parses only what the cache lacks.
    clearRepoMapMemory();
    expect((await buildRepoMap(repo.dir, { cacheFile })).parsed).toBe(0);
  });
});
