import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fsckStrict, gitIn, gitResult, repoState } from '../../../test-support/gitState';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { createGitFacade } from './gitFacade';

const repos: TempRepo[] = [];
const cleanup: string[] = [];
afterEach(() => {
  repos.splice(0).forEach((repo) => repo.remove());
  cleanup.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
});

function project(): TempRepo {
  const repo = makeTempRepo({
    files: {
      '.gitignore': 'node_modules/\n',
      'src/stats.py': 'def mean(v):\n    return 0\n',
      'tests/test_stats.py': 'def test(): pass\n',
      'README.md': '# p\n',
    },
  });
  repo.write('node_modules/dep/index.js', 'module.exports = 1;\n');
  repos.push(repo);
  return repo;
}

const facade = createGitFacade();
const step = (runId: string, taskId: string, title: string, attempt?: number) => ({
  runId,
  taskId,
  title,
  role: 'coder',
  ...(attempt === undefined ? {} : { attempt }),
});

describe('worktree runs', () => {
  it('refuses a dirty tree with the dirty paths unless allowed', async () => {
    const repo = project();
    repo.write('README.md', '# changed by the user\n');
    repo.write('scratch.txt', 'notes\n');
    await expect(
      facade.startRun(repo.dir, { runId: 'r1', branchPrefix: 'lathe', allowDirty: false }),
    ).rejects.toMatchObject({
      code: 'DIRTY_WORKTREE',
      data: { paths: ['README.md', 'scratch.txt'], count: 2 },
    });
    const workspace = await facade.startRun(repo.dir, { runId: 'r1', branchPrefix: 'lathe', allowDirty: true });
    expect(workspace.mode).toBe('worktree');
    expect(fs.readFileSync(path.join(workspace.workDir, 'README.md'), 'utf8')).toBe('# p\n');
    expect(fs.readFileSync(path.join(repo.dir, 'README.md'), 'utf8')).toBe('# changed by the user\n');
  });

  // docs/seeds.md 0.12: the run's worktree is the workspace under modification
  it('creates the run outside the repository, leaves the user checkout alone and links ignored dependencies', async () => {
    const repo = project();
    const before = repoState(repo.dir);
    const workspace = await facade.startRun(repo.dir, { runId: 'r1', branchPrefix: 'lathe', allowDirty: false });
    expect(workspace).toMatchObject({
      mode: 'worktree',
      branch: 'lathe/r1',
      originalBranch: 'main',
      baseCommit: before.headCommit,
      protectedPaths: [],
    });
    expect(path.dirname(path.dirname(workspace.workDir))).toBe(process.env.LATHE_WORKTREE_ROOT);
    expect(path.basename(workspace.workDir)).toBe('r1');
    expect(workspace.workDir.split('/').filter((segment) => segment.startsWith('.'))).toEqual([]);
    expect(fs.readlinkSync(path.join(workspace.workDir, 'node_modules', 'dep'))).toBe(
      path.join(repo.dir, 'node_modules', 'dep'),
    );
    expect(gitIn(workspace.workDir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    const after = repoState(repo.dir);
    expect({ ...after, refs: undefined, worktrees: undefined }).toEqual({
      ...before,
      refs: undefined,
      worktrees: undefined,
    });
    expect(fs.readFileSync(path.join(repo.dir, '.git', 'info', 'exclude'), 'utf8')).toMatch(/^\/\.lathe\/$/m);
    expect(fsckStrict(repo.dir)).toEqual({ code: 0, output: '' });
  });

  it('commits exactly the given paths with a structured message that fsck --strict and log --stat accept', async () => {
    const repo = project();
    const workspace = await facade.startRun(repo.dir, { runId: 'r1', branchPrefix: 'lathe', allowDirty: false });
    fs.writeFileSync(path.join(workspace.workDir, 'src/stats.py'), 'def mean(v):\n    return sum(v) / len(v)\n');
    fs.writeFileSync(path.join(workspace.workDir, 'stray.txt'), 'not part of the step\n');
    const first = await facade.commitStep(workspace, ['src/stats.py'], {
      ...step('r1', 'T1', 'Implement mean', 1),
      body: 'tests: 1 passed',
    });
    fs.rmSync(path.join(workspace.workDir, 'README.md'));
    fs.mkdirSync(path.join(workspace.workDir, 'src/util'), { recursive: true });
    fs.writeFileSync(path.join(workspace.workDir, 'src/util/run.sh'), '#!/bin/sh\n', { mode: 0o755 });
    const second = await facade.commitStep(workspace, ['README.md', 'src/util/run.sh'], step('r1', 'T2', 'Tidy up'));
    expect(await facade.commitStep(workspace, ['src/stats.py'], step('r1', 'T3', 'Nothing'))).toBeNull();
    expect(await facade.headOf(workspace)).toBe(second);

    expect(fsckStrict(repo.dir)).toEqual({ code: 0, output: '' });
    const log = gitIn(repo.dir, 'log', '--stat', '--format=%H %an <%ae>%n%B', 'lathe/r1');
    expect(log).toContain(`${second} Lathe <lathe@localhost>\nlathe(T2): Tidy up`);
    expect(log).toMatch(/README\.md\s+\| 1 -/);
    expect(log).toMatch(/src\/util\/run\.sh\s+\| 1 \+/);
    expect(gitIn(repo.dir, 'show', '-s', '--format=%(trailers:only,unfold)', first as string)).toBe(
      'Lathe-Run: r1\nLathe-Task: T1\nLathe-Role: coder\nLathe-Attempt: 1',
    );
    expect(gitIn(repo.dir, 'show', '-s', '--format=%b', first as string)).toContain('tests: 1 passed');
    expect(gitIn(repo.dir, 'ls-tree', '-r', '--name-only', 'lathe/r1')).not.toContain('stray.txt');
    expect(gitIn(repo.dir, 'ls-tree', 'lathe/r1', 'src/util/run.sh')).toMatch(/^100755 /);
    // The worktree's own index follows its commits: only the stray file is untracked there.
    expect(gitIn(workspace.workDir, 'status', '--porcelain')).toBe('?? stray.txt');

    const commits = await facade.listRunCommits(workspace);
    expect(commits.map((commit) => [commit.sha, commit.subject, commit.taskId])).toEqual([
      [first, 'lathe(T1): Implement mean', 'T1'],
      [second, 'lathe(T2): Tidy up', 'T2'],
    ]);
    expect(commits[0]?.files).toEqual([{ path: 'src/stats.py', added: 1, removed: 1 }]);
    const diff = await facade.diffRun(workspace);
    expect(diff.map((file) => [file.path, file.before === null, file.after === null])).toEqual([
      ['README.md', false, true],
      ['src/stats.py', false, false],
      ['src/util/run.sh', true, false],
    ]);
    // Line counts match the commits' own: a removed file counts all its lines, a new one all of its.
    const lines = (text: string | null) => (text ? text.split('\n').length - (text.endsWith('\n') ? 1 : 0) : 0);
    const [readme, stats, script] = diff;
    expect(readme).toMatchObject({ added: 0, removed: lines(readme?.before ?? null) });
    expect(stats && stats.added + stats.removed).toBeGreaterThan(0);
    expect(script).toMatchObject({ added: lines(script?.after ?? null), removed: 0 });
  });

  it('uses the repository user when its config names one, and refuses unsafe paths', async () => {
    const repo = project();
    repo.git('config', 'user.name', 'Ada');
    repo.git('config', 'user.email', 'ada@example.test');
    const workspace = await facade.startRun(repo.dir, { runId: 'r2', branchPrefix: 'agents/lathe', allowDirty: false });
    expect(workspace.branch).toBe('agents/lathe/r2');
    fs.writeFileSync(path.join(workspace.workDir, 'README.md'), 'x\n');
    const sha = await facade.commitStep(workspace, ['README.md'], step('r2', 'T1', 'x'));
    expect(gitIn(repo.dir, 'show', '-s', '--format=%an <%ae>', sha as string)).toBe('Ada <ada@example.test>');
    await expect(facade.commitStep(workspace, ['../x'], step('r2', 'T1', 'x'))).rejects.toMatchObject({
      code: 'INVALID_PATH',
    });
    await expect(
      facade.commitStep(workspace, ['node_modules/dep/index.js'], step('r2', 'T1', 'x')),
    ).rejects.toMatchObject({ code: 'INVALID_PATH' });
    await expect(facade.commitStep(workspace, ['.git/config'], step('r2', 'T1', 'x'))).rejects.toMatchObject({
      code: 'INVALID_PATH',
    });
    // A folder named as a path must not read as "deleted" and drop its subtree.
    await expect(facade.commitStep(workspace, ['src'], step('r2', 'T1', 'x'))).rejects.toMatchObject({
      code: 'INVALID_PATH',
      data: { path: 'src' },
    });
    expect(gitIn(repo.dir, 'ls-tree', '-r', '--name-only', workspace.branch)).toContain('src/stats.py');
    await expect(
      facade.startRun(repo.dir, { runId: 'r2', branchPrefix: 'agents/lathe', allowDirty: false }),
    ).rejects.toMatchObject({ code: 'GIT_BRANCH_EXISTS' });
    await expect(
      facade.startRun(repo.dir, { runId: '../evil', branchPrefix: 'lathe', allowDirty: false }),
    ).rejects.toMatchObject({ code: 'GIT_INVALID_RUN_ID' });
  });

  it('rolls a failed step back, files changed by commands included', async () => {
    const repo = project();
    const workspace = await facade.startRun(repo.dir, { runId: 'r3', branchPrefix: 'lathe', allowDirty: false });
    fs.writeFileSync(path.join(workspace.workDir, 'src/stats.py'), 'good\n');
    const good = (await facade.commitStep(workspace, ['src/stats.py'], step('r3', 'T1', 'good'))) as string;
    fs.writeFileSync(path.join(workspace.workDir, 'src/stats.py'), 'bad\n');
    await facade.commitStep(workspace, ['src/stats.py'], step('r3', 'T2', 'bad'));
    fs.writeFileSync(path.join(workspace.workDir, 'README.md'), 'changed by a command\n');
    fs.writeFileSync(path.join(workspace.workDir, 'build.log'), 'output\n');
    await facade.resetTo(workspace, good);
    expect(await facade.headOf(workspace)).toBe(good);
    expect(fs.readFileSync(path.join(workspace.workDir, 'src/stats.py'), 'utf8')).toBe('good\n');
    expect(fs.readFileSync(path.join(workspace.workDir, 'README.md'), 'utf8')).toBe('# p\n');
    expect(fs.existsSync(path.join(workspace.workDir, 'build.log'))).toBe(false);
    expect(fs.existsSync(path.join(workspace.workDir, 'node_modules/dep/index.js'))).toBe(true);
    await expect(facade.resetTo(workspace, '0'.repeat(40))).rejects.toMatchObject({ code: 'GIT_NOT_IN_RUN' });
  });

  it('undo restores the starting state exactly, dirty user files included', async () => {
    const repo = project();
    repo.write('README.md', '# mine, uncommitted\n');
    repo.git('add', 'README.md');
    repo.write('notes.txt', 'untracked\n');
    const before = repoState(repo.dir);
    const workspace = await facade.startRun(repo.dir, { runId: 'r4', branchPrefix: 'lathe', allowDirty: true });
    fs.writeFileSync(path.join(workspace.workDir, 'src/stats.py'), 'changed\n');
    await facade.commitStep(workspace, ['src/stats.py'], step('r4', 'T1', 'change'));
    fs.writeFileSync(path.join(workspace.workDir, 'leftover.txt'), 'from a command\n');
    await facade.undoRun(workspace);
    expect(repoState(repo.dir)).toEqual(before);
    expect(fs.existsSync(workspace.workDir)).toBe(false);
    expect(fsckStrict(repo.dir).code).toBe(0);
  });

  it('merges by fast-forward only, updating a clean checkout, and undo takes the merge back', async () => {
    const repo = project();
    const before = repoState(repo.dir);
    const workspace = await facade.startRun(repo.dir, { runId: 'r5', branchPrefix: 'lathe', allowDirty: false });
    fs.writeFileSync(path.join(workspace.workDir, 'src/stats.py'), 'merged\n');
    const sha = await facade.commitStep(workspace, ['src/stats.py'], step('r5', 'T1', 'merge me'));
    repo.write('src/stats.py', 'local edit\n');
    await expect(facade.mergeRun(workspace)).rejects.toMatchObject({
      code: 'DIRTY_WORKTREE',
      data: { paths: ['src/stats.py'] },
    });
    repo.git('checkout', '--', 'src/stats.py');
    expect(await facade.mergeRun(workspace)).toEqual({ merged: sha });
    expect(repo.git('rev-parse', 'main')).toBe(sha);
    expect(fs.readFileSync(path.join(repo.dir, 'src/stats.py'), 'utf8')).toBe('merged\n');
    expect(repo.git('status', '--porcelain')).toBe('');
    await facade.undoRun(workspace);
    expect(repoState(repo.dir)).toEqual(before);
  });

  it('refuses a merge that is not a fast-forward', async () => {
    const repo = project();
    const workspace = await facade.startRun(repo.dir, { runId: 'r6', branchPrefix: 'lathe', allowDirty: false });
    fs.writeFileSync(path.join(workspace.workDir, 'src/stats.py'), 'run\n');
    await facade.commitStep(workspace, ['src/stats.py'], step('r6', 'T1', 'run'));
    repo.write('README.md', 'user moved on\n');
    const userTip = repo.commitAll('user commit');
    await expect(facade.mergeRun(workspace)).rejects.toMatchObject({
      code: 'GIT_MERGE_NOT_FAST_FORWARD',
      data: { branch: 'main', branchTip: userTip },
    });
    expect(repo.git('rev-parse', 'main')).toBe(userTip);
  });

  it('reopens a run whose worktree folder was lost, and exports a patch git can apply', async () => {
    const repo = project();
    const workspace = await facade.startRun(repo.dir, { runId: 'r7', branchPrefix: 'lathe', allowDirty: false });
    fs.writeFileSync(path.join(workspace.workDir, 'src/new.py'), 'x = 1\n');
    await facade.commitStep(workspace, ['src/new.py'], step('r7', 'T1', 'add new'));
    fs.rmSync(workspace.workDir, { recursive: true, force: true });
    await facade.reopenRun(workspace);
    expect(fs.readFileSync(path.join(workspace.workDir, 'src/new.py'), 'utf8')).toBe('x = 1\n');
    expect(fs.lstatSync(path.join(workspace.workDir, 'node_modules', 'dep')).isSymbolicLink()).toBe(true);

    const out = makeTempDir('lathe-patch-');
    cleanup.push(out);
    const exported = await facade.exportPatch(workspace, path.join(out, 'run.patch'));
    expect(exported.commits).toBe(1);
    expect(gitResult(repo.dir, 'apply', '--check', exported.file).code).toBe(0);
    await expect(facade.pushRun(workspace, 'origin')).rejects.toMatchObject({ code: 'GIT_REMOTE_NOT_FOUND' });
  });
});
