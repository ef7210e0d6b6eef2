import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fsckStrict, gitIn, gitResult, repoState } from '../../../test-support/gitState';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { createGitFacade } from './gitFacade';

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((repo) => repo.remove()));

function project(): TempRepo {
  const repo = makeTempRepo({
    files: { 'src/app.js': 'export const v = 1;\n', 'README.md': '# app\n', 'docs/guide.md': 'guide\n' },
  });
  repos.push(repo);
  return repo;
}

/** No git command line: isomorphic-git only, so the run happens in place. */
const facade = createGitFacade({ useNativeGit: false });
const step = (taskId: string, title: string) => ({ runId: 'p1', taskId, title, role: 'coder' });

describe('in-place runs (isomorphic-git only)', () => {
  it('switches to the run branch without changing a file, and protects the dirty ones', async () => {
    const repo = project();
    repo.write('README.md', '# my uncommitted edit\n');
    const filesBefore = repoState(repo.dir).files;
    await expect(
      facade.startRun(repo.dir, { runId: 'p1', branchPrefix: 'lathe', allowDirty: false }),
    ).rejects.toMatchObject({
      code: 'DIRTY_WORKTREE',
      data: { paths: ['README.md'] },
    });
    const workspace = await facade.startRun(repo.dir, { runId: 'p1', branchPrefix: 'lathe', allowDirty: true });
    expect(workspace).toMatchObject({
      mode: 'in-place',
      workDir: repo.dir,
      branch: 'lathe/p1',
      originalBranch: 'main',
      protectedPaths: ['README.md'],
    });
    expect(repo.git('symbolic-ref', 'HEAD')).toBe('refs/heads/lathe/p1');
    expect(repoState(repo.dir).files).toEqual(filesBefore);
    await expect(facade.commitStep(workspace, ['README.md'], step('T1', 'x'))).rejects.toMatchObject({
      code: 'GIT_PROTECTED_PATH',
      data: { path: 'README.md' },
    });
  });

  it("commits only the run's paths, never the user's staged changes, and native git accepts the commits", async () => {
    const repo = project();
    repo.write('docs/guide.md', 'staged by the user\n');
    repo.git('add', 'docs/guide.md');
    const workspace = await facade.startRun(repo.dir, { runId: 'p1', branchPrefix: 'lathe', allowDirty: true });
    fs.writeFileSync(path.join(repo.dir, 'src/app.js'), 'export const v = 2;\n');
    fs.writeFileSync(path.join(repo.dir, 'src/new.js'), 'export const n = 1;\n');
    const sha = await facade.commitStep(workspace, ['src/app.js', 'src/new.js'], step('T1', 'Bump v'));
    fs.rmSync(path.join(repo.dir, 'src/new.js'));
    await facade.commitStep(workspace, ['src/new.js'], step('T2', 'Drop new'));
    expect(fsckStrict(repo.dir)).toEqual({ code: 0, output: '' });
    expect(gitIn(repo.dir, 'show', '--stat', '--format=%s', sha as string)).toMatch(
      /^lathe\(T1\): Bump v\n\n src\/app\.js \| 2 \+-\n src\/new\.js \| 1 \+/,
    );
    expect(gitIn(repo.dir, 'ls-tree', '-r', '--name-only', 'HEAD')).toBe('README.md\ndocs/guide.md\nsrc/app.js');
    expect(gitIn(repo.dir, 'show', 'HEAD:docs/guide.md')).toBe('guide');
    // The user's staged change is still staged, and nothing else is pending.
    expect(gitIn(repo.dir, 'status', '--porcelain')).toBe('M  docs/guide.md');
  });

  it('rolls back a step and undoes the run exactly, restoring files changed by commands', async () => {
    const repo = project();
    repo.write('README.md', '# dirty and protected\n');
    repo.write('scratch/notes.txt', 'untracked user file\n');
    const before = repoState(repo.dir);
    const workspace = await facade.startRun(repo.dir, { runId: 'p1', branchPrefix: 'lathe', allowDirty: true });
    fs.writeFileSync(path.join(repo.dir, 'src/app.js'), 'export const v = 2;\n');
    const first = (await facade.commitStep(workspace, ['src/app.js'], step('T1', 'one'))) as string;
    fs.writeFileSync(path.join(repo.dir, 'src/app.js'), 'export const v = 3;\n');
    fs.mkdirSync(path.join(repo.dir, 'src/deep'));
    fs.writeFileSync(path.join(repo.dir, 'src/deep/x.js'), 'x\n');
    await facade.commitStep(workspace, ['src/app.js', 'src/deep/x.js'], step('T2', 'two'));
    fs.writeFileSync(path.join(repo.dir, 'docs/guide.md'), 'a command rewrote this\n');
    fs.writeFileSync(path.join(repo.dir, 'out.log'), 'a command wrote this\n');

    await facade.resetTo(workspace, first);
    expect(await facade.headOf(workspace)).toBe(first);
    expect(fs.readFileSync(path.join(repo.dir, 'src/app.js'), 'utf8')).toBe('export const v = 2;\n');
    expect(fs.existsSync(path.join(repo.dir, 'src/deep'))).toBe(false);
    expect(fs.readFileSync(path.join(repo.dir, 'docs/guide.md'), 'utf8')).toBe('guide\n');
    expect(fs.existsSync(path.join(repo.dir, 'out.log'))).toBe(false);
    expect(gitResult(repo.dir, 'status', '--porcelain', '--untracked-files=all').output).toBe(
      ' M README.md\n?? scratch/notes.txt\n',
    );

    fs.writeFileSync(path.join(repo.dir, 'docs/guide.md'), 'changed again by a command\n');
    await facade.undoRun(workspace);
    expect(repoState(repo.dir)).toEqual(before);
  });

  it('merges in place by moving the original branch and switching back to it', async () => {
    const repo = project();
    const workspace = await facade.startRun(repo.dir, { runId: 'p1', branchPrefix: 'lathe', allowDirty: false });
    fs.writeFileSync(path.join(repo.dir, 'src/app.js'), 'export const v = 9;\n');
    const sha = await facade.commitStep(workspace, ['src/app.js'], step('T1', 'nine'));
    expect(await facade.mergeRun(workspace)).toEqual({ merged: sha });
    expect(repo.git('symbolic-ref', 'HEAD')).toBe('refs/heads/main');
    expect(repo.git('rev-parse', 'main')).toBe(sha);
    expect(repo.git('status', '--porcelain')).toBe('');
    expect(fsckStrict(repo.dir).code).toBe(0);
  });

  it('undoes a run started on a detached HEAD back to the detached commit', async () => {
    const repo = project();
    repo.git('checkout', '--quiet', '--detach');
    const before = repoState(repo.dir);
    const workspace = await facade.startRun(repo.dir, { runId: 'p1', branchPrefix: 'lathe', allowDirty: false });
    expect(workspace.originalBranch).toBeNull();
    fs.writeFileSync(path.join(repo.dir, 'src/app.js'), 'export const v = 5;\n');
    await facade.commitStep(workspace, ['src/app.js'], step('T1', 'five'));
    await expect(facade.mergeRun(workspace)).rejects.toMatchObject({ code: 'GIT_NO_ORIGINAL_BRANCH' });
    await facade.undoRun(workspace);
    expect(repoState(repo.dir)).toEqual(before);
  });
});
