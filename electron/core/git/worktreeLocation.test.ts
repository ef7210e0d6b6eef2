import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fsckStrict, gitIn, repoState } from '../../../test-support/gitState';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import type { RunWorkspace } from './types';
import { createGitFacade } from './gitFacade';
import { legacyWorktreeDir, writeRunMetadata } from './runMetadata';
import { ROOT_MARKER } from './worktreeFolders';
import { hasDotSegment, isInside } from './worktreeRoot';

const repos: TempRepo[] = [];
const cleanup: string[] = [];
afterEach(() => {
  vi.unstubAllEnvs();
  repos.splice(0).forEach((repo) => repo.remove());
  cleanup.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
});

const facade = createGitFacade();
const step = (runId: string) => ({ runId, taskId: 'T1', title: 'change', role: 'coder' });

function project(): TempRepo {
  const repo = makeTempRepo({
    files: {
      '.gitignore': 'node_modules/\n',
      'package.json': JSON.stringify({ name: 'p', private: true }),
      'src/value.js': 'module.exports = 1;\n',
      'test/value.test.js':
        "const test = require('node:test');\nconst assert = require('node:assert');\ntest('value', () => assert.strictEqual(require('../src/value.js'), 1));\n",
    },
  });
  repo.write('node_modules/dep/index.js', 'module.exports = 1;\n');
  repos.push(repo);
  return repo;
}

function tempRoot(): string {
  const dir = makeTempDir('lathe-wt-root-');
  cleanup.push(dir);
  return dir;
}

/** Registered worktrees besides the main checkout, and whether `git worktree prune` would still find something. */
function worktreeLeftovers(repo: TempRepo): { registered: number; prunable: string } {
  const registered =
    gitIn(repo.dir, 'worktree', 'list', '--porcelain')
      .split('\n')
      .filter((line) => line.startsWith('worktree ')).length - 1;
  return { registered, prunable: gitIn(repo.dir, 'worktree', 'prune', '--dry-run', '--verbose') };
}

/** A run as Lathe made it before run worktrees moved out of `.git/`: folder, link and metadata in the old place. */
async function oldLocationRun(repo: TempRepo, runId: string): Promise<RunWorkspace> {
  const base = repo.git('rev-parse', 'HEAD');
  const commonDir = path.join(repo.dir, '.git');
  const workDir = legacyWorktreeDir(commonDir, runId);
  fs.mkdirSync(path.dirname(workDir), { recursive: true });
  repo.git('worktree', 'add', '--quiet', '-b', `lathe/${runId}`, workDir, base);
  fs.symlinkSync(path.join(repo.dir, 'node_modules'), path.join(workDir, 'node_modules'), 'dir');
  fs.appendFileSync(path.join(commonDir, 'info', 'exclude'), '/node_modules\n');
  await writeRunMetadata(commonDir, {
    run_id: runId,
    mode: 'worktree',
    started_at_ms: Date.now(),
    base_commit: base,
    original_branch: 'main',
    linked_dependencies: ['node_modules'],
    protected_paths: [],
    branch: `lathe/${runId}`,
  });
  return {
    runId,
    repoRoot: repo.dir,
    workDir,
    mode: 'worktree',
    branch: `lathe/${runId}`,
    baseCommit: base,
    originalBranch: 'main',
    protectedPaths: [],
  };
}

describe('where run worktrees live', () => {
  it("keeps a stopped run's files away from the user's own test runner", async () => {
    const repo = project();
    const workspace = await facade.startRun(repo.dir, { runId: 'r1', branchPrefix: 'lathe', allowDirty: false });
    // The run is half-way: its copy has a new, failing test, and it stopped with the worktree in place.
    fs.writeFileSync(
      path.join(workspace.workDir, 'test/extra.test.js'),
      "require('node:test')('run only', () => { throw new Error('from the run'); });\n",
    );
    const run = spawnSync(process.execPath, ['--test'], {
      cwd: repo.dir,
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(run.stdout).toMatch(/^# tests 1$/m);
    expect(run.stdout).toMatch(/^# fail 0$/m);
    expect(run.status).toBe(0);
  });

  it('puts the run outside the checkout, in a path without dot-segments, under the configured root', async () => {
    const repo = project();
    const root = tempRoot();
    const workspace = await facade.startRun(repo.dir, {
      runId: 'r1',
      branchPrefix: 'lathe',
      allowDirty: false,
      worktreeRoot: root,
    });
    expect(isInside(workspace.workDir, repo.dir)).toBe(false);
    expect(hasDotSegment(workspace.workDir)).toBe(false);
    expect(path.dirname(path.dirname(workspace.workDir))).toBe(root);
    expect(fs.existsSync(path.join(root, ROOT_MARKER))).toBe(true);
    // The sandbox finds the owning repository through the worktree's .git pointer, as before.
    expect(fs.readFileSync(path.join(workspace.workDir, '.git'), 'utf8')).toContain(
      `${path.join(repo.dir, '.git', 'worktrees')}${path.sep}`,
    );
  });

  it('refuses a root inside the repository or with a dot-segment, and starts nothing', async () => {
    const repo = project();
    const before = repoState(repo.dir);
    for (const worktreeRoot of [path.join(repo.dir, 'runs'), path.join(tempRoot(), '.hidden')]) {
      await expect(
        facade.startRun(repo.dir, { runId: 'r1', branchPrefix: 'lathe', allowDirty: false, worktreeRoot }),
      ).rejects.toMatchObject({ code: 'GIT_INVALID_WORKTREE_ROOT' });
    }
    expect(repoState(repo.dir)).toEqual(before);
    expect(fs.existsSync(path.join(repo.dir, '.git', 'lathe', 'runs', 'r1.json'))).toBe(false);
    expect(fs.readFileSync(path.join(repo.dir, '.git', 'info', 'exclude'), 'utf8')).not.toContain('lathe');
  });

  it('undo removes the worktree folder in its new place, even after the root setting changed', async () => {
    const repo = project();
    const before = repoState(repo.dir);
    const first = tempRoot();
    vi.stubEnv('LATHE_WORKTREE_ROOT', first);
    const workspace = await facade.startRun(repo.dir, { runId: 'r2', branchPrefix: 'lathe', allowDirty: false });
    expect(isInside(workspace.workDir, first)).toBe(true);
    fs.writeFileSync(path.join(workspace.workDir, 'src/value.js'), 'module.exports = 2;\n');
    await facade.commitStep(workspace, ['src/value.js'], step('r2'));
    fs.writeFileSync(path.join(workspace.workDir, 'left-by-a-command.txt'), 'x\n');
    vi.stubEnv('LATHE_WORKTREE_ROOT', tempRoot());
    await facade.undoRun(workspace);
    expect(fs.existsSync(workspace.workDir)).toBe(false);
    expect(fs.readdirSync(first)).toEqual([ROOT_MARKER]);
    expect(worktreeLeftovers(repo)).toEqual({ registered: 0, prunable: '' });
    expect(repoState(repo.dir)).toEqual(before);
    expect(fsckStrict(repo.dir)).toEqual({ code: 0, output: '' });
  });

  it('a merged run closes its worktree folder and keeps its branch', async () => {
    const repo = project();
    const workspace = await facade.startRun(repo.dir, {
      runId: 'r3',
      branchPrefix: 'lathe',
      allowDirty: false,
      worktreeRoot: tempRoot(),
    });
    fs.writeFileSync(path.join(workspace.workDir, 'src/value.js'), 'module.exports = 3;\n');
    const sha = await facade.commitStep(workspace, ['src/value.js'], step('r3'));
    await facade.mergeRun(workspace);
    await facade.closeRun(workspace);
    expect(fs.existsSync(workspace.workDir)).toBe(false);
    expect(fs.existsSync(path.dirname(workspace.workDir))).toBe(false);
    expect(repo.git('rev-parse', 'lathe/r3')).toBe(sha);
    expect(worktreeLeftovers(repo)).toEqual({ registered: 0, prunable: '' });
    expect(fsckStrict(repo.dir)).toEqual({ code: 0, output: '' });
  });

  it('an old-location run can still be undone', async () => {
    const repo = project();
    const before = repoState(repo.dir);
    const workspace = await oldLocationRun(repo, 'old1');
    fs.writeFileSync(path.join(workspace.workDir, 'src/value.js'), 'module.exports = 4;\n');
    await facade.commitStep(workspace, ['src/value.js'], step('old1'));
    await facade.undoRun(workspace);
    expect(fs.existsSync(workspace.workDir)).toBe(false);
    expect(repo.git('branch', '--list', 'lathe/old1')).toBe('');
    expect(worktreeLeftovers(repo)).toEqual({ registered: 0, prunable: '' });
    expect(repoState(repo.dir)).toEqual(before);
    expect(fsckStrict(repo.dir)).toEqual({ code: 0, output: '' });
  });

  it('an old-location run resumes where it is, then merges and closes', async () => {
    const repo = project();
    const workspace = await oldLocationRun(repo, 'old2');
    fs.rmSync(workspace.workDir, { recursive: true, force: true });
    const reopened = await facade.reopenRun(workspace);
    expect(reopened.workDir).toBe(workspace.workDir);
    expect(fs.existsSync(path.join(workspace.workDir, 'src/value.js'))).toBe(true);
    fs.writeFileSync(path.join(workspace.workDir, 'src/value.js'), 'module.exports = 5;\n');
    const sha = await facade.commitStep(workspace, ['src/value.js'], step('old2'));
    expect(await facade.mergeRun(workspace)).toEqual({ merged: sha });
    await facade.closeRun(workspace);
    expect(fs.existsSync(workspace.workDir)).toBe(false);
    expect(worktreeLeftovers(repo)).toEqual({ registered: 0, prunable: '' });
    expect(fsckStrict(repo.dir)).toEqual({ code: 0, output: '' });
  });

  it('refuses to reopen a workspace whose folder is not the one its metadata names', async () => {
    const repo = project();
    const workspace = await facade.startRun(repo.dir, {
      runId: 'r4',
      branchPrefix: 'lathe',
      allowDirty: false,
      worktreeRoot: tempRoot(),
    });
    const elsewhere = tempRoot();
    fs.writeFileSync(path.join(elsewhere, 'keep.txt'), 'the user’s\n');
    await expect(facade.reopenRun({ ...workspace, workDir: elsewhere })).rejects.toMatchObject({
      code: 'GIT_INVALID_WORKSPACE',
    });
    expect(fs.readFileSync(path.join(elsewhere, 'keep.txt'), 'utf8')).toBe('the user’s\n');
  });

  it('retention removes worktrees whose repository is gone, and nothing else', async () => {
    const root = tempRoot();
    const gone = project();
    const orphan = (
      await facade.startRun(gone.dir, { runId: 'r5', branchPrefix: 'lathe', allowDirty: false, worktreeRoot: root })
    ).workDir;
    fs.rmSync(gone.dir, { recursive: true, force: true });
    const strangerFolder = path.join(path.dirname(orphan), 'not-a-worktree');
    fs.mkdirSync(strangerFolder);
    const kept = project();
    const live = await facade.startRun(kept.dir, {
      runId: 'r6',
      branchPrefix: 'lathe',
      allowDirty: false,
      worktreeRoot: root,
    });
    expect(fs.existsSync(orphan)).toBe(false);
    expect(fs.existsSync(strangerFolder)).toBe(true);
    expect(fs.existsSync(live.workDir)).toBe(true);
  });
});
