import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitResult } from '../../../test-support/gitState';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { fastDirtyPaths } from './fastStatus';
import { openRepo } from './repoContext';

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((repo) => repo.remove()));

/** Native git's answer: every path `git status` lists (renames off), for comparison. */
function nativeStatus(dir: string): string[] {
  const records = gitResult(
    dir,
    '-c',
    'core.quotePath=false',
    'status',
    '--porcelain=v1',
    '-z',
    '--untracked-files=all',
    '--no-renames',
  ).output.split('\0');
  return [...new Set(records.filter((record) => record.length > 3).map((record) => record.slice(3)))].sort();
}

async function fast(repo: TempRepo): Promise<string[] | null> {
  const context = await openRepo(repo.dir, { useNative: false });
  return fastDirtyPaths(context, repo.dir, repo.git('rev-parse', 'HEAD'));
}

describe('fastDirtyPaths (status without the git command line)', () => {
  it('agrees with native git on a clean tree and on every kind of change', async () => {
    const files: Record<string, string> = {
      '.gitignore': '*.log\n',
      'keep.txt': 'k\n',
      'mod.txt': 'm\n',
      'gone.txt': 'g\n',
      'staged.txt': 's\n',
      'run.sh': 'echo\n',
      'ünï.txt': 'u\n',
      'same.txt': 'aaaa\n',
    };
    for (let index = 0; index < 50; index++) files[`deep/dir${index % 5}/f${index}.txt`] = `${index}\n`;
    const repo = makeTempRepo({ files });
    repos.push(repo);
    expect(await fast(repo)).toEqual([]);
    expect(nativeStatus(repo.dir)).toEqual([]);

    repo.write('mod.txt', 'changed\n');
    fs.rmSync(path.join(repo.dir, 'gone.txt'));
    repo.write('staged.txt', 'staged\n');
    repo.git('add', 'staged.txt');
    fs.chmodSync(path.join(repo.dir, 'run.sh'), 0o755);
    repo.write('new/untracked.txt', 'n\n');
    repo.write('debug.log', 'ignored\n');
    repo.write('ünï.txt', 'changed\n');
    repo.write('deep/dir3/f8.txt', 'changed\n');
    // Same size, same second: only hashing can tell.
    repo.write('same.txt', 'bbbb\n');
    expect(await fast(repo)).toEqual(nativeStatus(repo.dir));
    expect(await fast(repo)).toEqual([
      'deep/dir3/f8.txt',
      'gone.txt',
      'mod.txt',
      'new/untracked.txt',
      'run.sh',
      'same.txt',
      'staged.txt',
      'ünï.txt',
    ]);
  });

  it('sees a change staged and then reverted on disk, and a staged deletion', async () => {
    const repo = makeTempRepo({ files: { 'a.txt': 'a\n', 'b.txt': 'b\n' } });
    repos.push(repo);
    repo.write('a.txt', 'staged\n');
    repo.git('add', 'a.txt');
    repo.write('a.txt', 'a\n');
    repo.git('rm', '--quiet', '--cached', 'b.txt');
    expect(await fast(repo)).toEqual(nativeStatus(repo.dir));
    expect(await fast(repo)).toEqual(['a.txt', 'b.txt']);
  });

  it('answers null for an index it does not read (v4), so callers never guess', async () => {
    const repo = makeTempRepo({ files: { 'a.txt': 'a\n' } });
    repos.push(repo);
    repo.git('update-index', '--index-version', '4');
    expect(await fast(repo)).toBeNull();
  });
});
