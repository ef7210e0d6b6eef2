import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fsckStrict, gitResult } from '../../../test-support/gitState';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { createGitFacade } from './gitFacade';
import { updateIndexInProcess } from './indexUpdate';
import type { PathState } from './treeObjects';

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((repo) => repo.remove()));

function project(): TempRepo {
  const files: Record<string, string> = {
    'a.txt': 'aaa\n',
    'b.txt': 'b\n',
    'dir/c.txt': 'c\n',
    'dir/sub/d.txt': 'd\n',
    'gone.txt': 'gone\n',
  };
  const repo = makeTempRepo({ files });
  repos.push(repo);
  return repo;
}

/** The paths' states as a commit of them would record them (blob ids by native git, written to the store). */
function statesOf(repo: TempRepo, paths: string[]): Map<string, PathState> {
  return new Map(
    paths.map((file) => [
      file,
      fs.existsSync(path.join(repo.dir, file))
        ? { oid: repo.git('hash-object', '-w', '--no-filters', file), mode: '100644' as const }
        : null,
    ]),
  );
}

const gitDirOf = (repo: TempRepo) => path.join(repo.dir, '.git');

describe('updating the index in process', () => {
  it('writes what `git update-index --add --remove` writes: entries, stat data and all', async () => {
    const repo = project();
    fs.writeFileSync(path.join(repo.dir, 'b.txt'), 'b changed\n');
    fs.mkdirSync(path.join(repo.dir, 'new/deep'), { recursive: true });
    fs.writeFileSync(path.join(repo.dir, 'new/deep/e.txt'), 'e\n');
    fs.writeFileSync(path.join(repo.dir, 'dir/b.txt'), 'sorted between dir/ entries\n');
    fs.rmSync(path.join(repo.dir, 'gone.txt'));
    const paths = ['b.txt', 'dir/b.txt', 'gone.txt', 'new/deep/e.txt'];
    const original = fs.readFileSync(path.join(gitDirOf(repo), 'index'));

    expect(await updateIndexInProcess(gitDirOf(repo), repo.dir, statesOf(repo, paths))).toBe(true);
    const ours = repo.git('ls-files', '--stage', '--debug');
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe(
      'M  b.txt\nA  dir/b.txt\nD  gone.txt\nA  new/deep/e.txt',
    );

    fs.writeFileSync(path.join(gitDirOf(repo), 'index'), original);
    repo.git('update-index', '--add', '--remove', ...paths);
    expect(ours).toBe(repo.git('ls-files', '--stage', '--debug'));
    expect(gitResult(repo.dir, 'fsck', '--strict', '--no-dangling').code).toBe(0);
  });

  it('smudges entries that were racily clean against the old index, so a same-tick edit still shows', async () => {
    const repo = project();
    repo.git('config', 'core.trustctime', 'false');
    const file = path.join(repo.dir, 'a.txt');
    const tick = Math.floor(Date.now() / 1000) - 10;
    fs.utimesSync(file, tick, tick);
    repo.git('update-index', '--refresh');
    // The index was written before a.txt's last change (same tick): git would re-read a.txt...
    fs.utimesSync(path.join(gitDirOf(repo), 'index'), tick - 100, tick - 100);
    // ...which now differs with the same size and time.
    fs.writeFileSync(file, 'zzz\n');
    fs.utimesSync(file, tick, tick);
    fs.writeFileSync(path.join(repo.dir, 'b.txt'), 'b changed\n');

    expect(await updateIndexInProcess(gitDirOf(repo), repo.dir, statesOf(repo, ['b.txt']))).toBe(true);
    expect(gitResult(repo.dir, 'status', '--porcelain').output).toBe(' M a.txt\nM  b.txt\n');
  });

  it.each([
    ['a version 4 index', (repo: TempRepo) => repo.git('update-index', '--index-version', '4')],
    ['a split index', (repo: TempRepo) => repo.git('update-index', '--split-index')],
    ['a held index.lock', (repo: TempRepo) => fs.writeFileSync(path.join(gitDirOf(repo), 'index.lock'), '')],
    ['a skip-worktree entry on the path', (repo: TempRepo) => repo.git('update-index', '--skip-worktree', 'b.txt')],
    [
      'a conflict on the path',
      (repo: TempRepo) => {
        const blob = repo.git('hash-object', '-w', 'b.txt');
        const input = `0 ${'0'.repeat(40)}\tb.txt\n100644 ${blob} 1\tb.txt\n100644 ${blob} 2\tb.txt\n`;
        execFileSync('git', ['update-index', '--index-info'], { cwd: repo.dir, input });
      },
    ],
  ])('leaves %s to native git, the index untouched', async (_label, prepare) => {
    const repo = project();
    prepare(repo);
    fs.writeFileSync(path.join(repo.dir, 'b.txt'), 'b changed\n');
    const index = fs.readFileSync(path.join(gitDirOf(repo), 'index'));
    expect(await updateIndexInProcess(gitDirOf(repo), repo.dir, statesOf(repo, ['b.txt']))).toBe(false);
    expect(fs.readFileSync(path.join(gitDirOf(repo), 'index')).equals(index)).toBe(true);
  });

  it('leaves a new path under a tracked file, or over tracked files, to native git', async () => {
    const repo = project();
    const blob = { oid: repo.git('hash-object', '-w', 'b.txt'), mode: '100644' as const };
    expect(await updateIndexInProcess(gitDirOf(repo), repo.dir, new Map([['b.txt/x', blob]]))).toBe(false);
    expect(await updateIndexInProcess(gitDirOf(repo), repo.dir, new Map([['dir', blob]]))).toBe(false);
  });

  it('leaves a file changed between hashing and indexing to native git', async () => {
    const repo = project();
    const file = path.join(repo.dir, 'b.txt');
    fs.writeFileSync(file, 'b changed\n');
    const before = new Map([['b.txt', fs.lstatSync(file, { bigint: true })]]);
    const states = statesOf(repo, ['b.txt']);
    fs.writeFileSync(file, 'b changed again, after it was hashed\n');
    expect(await updateIndexInProcess(gitDirOf(repo), repo.dir, states, before)).toBe(false);
  });
});

describe('step commits keep the index in line with the run branch', () => {
  it.each([
    ['a plain index', (_repo: TempRepo) => {}],
    ['a version 4 index (native git updates it)', (repo: TempRepo) => repo.git('update-index', '--index-version', '4')],
  ])('with %s: status is clean, nothing staged, fsck clean', async (_label, prepare) => {
    const repo = project();
    prepare(repo);
    const facade = createGitFacade();
    const workspace = await facade.startRun(repo.dir, {
      runId: 'r1',
      branchPrefix: 'lathe',
      allowDirty: false,
      mode: 'in-place',
    });
    fs.writeFileSync(path.join(repo.dir, 'b.txt'), 'b changed\n');
    fs.mkdirSync(path.join(repo.dir, 'new'));
    fs.writeFileSync(path.join(repo.dir, 'new/e.txt'), 'e\n');
    fs.rmSync(path.join(repo.dir, 'gone.txt'));
    const commit = await facade.commitStep(workspace, ['b.txt', 'new/e.txt', 'gone.txt'], {
      runId: 'r1',
      taskId: 'T1',
      title: 'one',
      role: 'coder',
    });
    expect(repo.git('rev-parse', 'HEAD')).toBe(commit);
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(repo.git('diff', '--cached', '--name-only')).toBe('');
    expect(fsckStrict(repo.dir).code).toBe(0);
  });
});
