import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { createGitFacade } from '../git/gitFacade';
import { runWorkspaceSetup } from './worktreeSetup';

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((repo) => repo.remove()));

const facade = createGitFacade();
const COUNT_RUNS = [
  process.execPath,
  '-e',
  "const fs = require('fs'); fs.mkdirSync('build', { recursive: true }); fs.appendFileSync('build/setup-runs.txt', 'x'); console.log('setup ran')",
];

function project(): TempRepo {
  const repo = makeTempRepo({ files: { '.gitignore': 'build/\n', 'README.md': '# p\n' } });
  repos.push(repo);
  return repo;
}

describe('runWorkspaceSetup', () => {
  it('runs once per worktree: again only when the worktree was recreated on resume', async () => {
    const repo = project();
    const workspace = await facade.startRun(repo.dir, { runId: 's1', branchPrefix: 'lathe', allowDirty: false });
    const first = await runWorkspaceSetup({ workspace, argv: COUNT_RUNS, timeoutMs: 30_000 });
    expect(first).toMatchObject({
      status: 'passed',
      reason: null,
      exitCode: 0,
      cwd: workspace.workDir,
      output: expect.stringContaining('setup ran'),
    });
    expect(await runWorkspaceSetup({ workspace, argv: COUNT_RUNS, timeoutMs: 30_000 })).toMatchObject({
      status: 'skipped',
      reason: 'already run in this worktree',
    });
    expect(fs.readFileSync(path.join(workspace.workDir, 'build/setup-runs.txt'), 'utf8')).toBe('x');

    fs.rmSync(workspace.workDir, { recursive: true, force: true });
    await facade.reopenRun(workspace);
    expect(await runWorkspaceSetup({ workspace, argv: COUNT_RUNS, timeoutMs: 30_000 })).toMatchObject({
      status: 'passed',
    });
    expect(fs.readFileSync(path.join(workspace.workDir, 'build/setup-runs.txt'), 'utf8')).toBe('x');
  });

  it("never runs in place, where the folder is the user's checkout", async () => {
    const repo = project();
    const workspace = await facade.startRun(repo.dir, {
      runId: 's2',
      branchPrefix: 'lathe',
      allowDirty: false,
      mode: 'in-place',
    });
    expect(await runWorkspaceSetup({ workspace, argv: COUNT_RUNS, timeoutMs: 30_000 })).toMatchObject({
      status: 'skipped',
    });
    expect(fs.existsSync(path.join(repo.dir, 'build'))).toBe(false);
  });

  it('reports a missing command, a failure and a timeout as failed, with the reason', async () => {
    const repo = project();
    const workspace = await facade.startRun(repo.dir, { runId: 's3', branchPrefix: 'lathe', allowDirty: false });
    expect(await runWorkspaceSetup({ workspace, argv: ['lathe-no-such-setup-tool'], timeoutMs: 30_000 })).toMatchObject(
      { status: 'failed', reason: 'command not found: lathe-no-such-setup-tool' },
    );
    const failed = await runWorkspaceSetup({
      workspace,
      argv: [process.execPath, '-e', "console.error('boom'); process.exit(2)"],
      timeoutMs: 30_000,
    });
    expect(failed).toMatchObject({
      status: 'failed',
      reason: 'exited with 2',
      exitCode: 2,
      output: expect.stringContaining('boom'),
    });
    const slow = await runWorkspaceSetup({
      workspace,
      argv: [process.execPath, '-e', 'setTimeout(() => {}, 60000)'],
      timeoutMs: 300,
    });
    expect(slow).toMatchObject({ status: 'failed', timedOut: true, reason: 'timed out after 300 ms' });
    // None of them counts as done: the next preparation tries again.
    expect(await runWorkspaceSetup({ workspace, argv: COUNT_RUNS, timeoutMs: 30_000 })).toMatchObject({
      status: 'passed',
    });
  });
});

describe('a setup never leaves tracked files changed', () => {
  const REWRITE = (file: string) => [
    process.execPath,
    '-e',
    `require('fs').appendFileSync(${JSON.stringify(file)}, '\\n'); console.log('rewrote')`,
  ];

  function locked(): TempRepo {
    const repo = makeTempRepo({
      files: {
        '.gitignore': 'node_modules/\n',
        'package.json': JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { dep: 'file:./dep' } }, null, 2),
        'package-lock.json': '{}\n',
        'src/app.js': 'module.exports = 1;\n',
        'dep/package.json': JSON.stringify({ name: 'dep', version: '1.0.0' }),
      },
    });
    repos.push(repo);
    return repo;
  }

  it('restores a lockfile the installer rewrote and reports it; the branch stays at the base, the worktree clean', async () => {
    const repo = locked();
    const workspace = await facade.startRun(repo.dir, { runId: 'lock1', branchPrefix: 'lathe', allowDirty: false });
    const result = await runWorkspaceSetup({ workspace, argv: REWRITE('package-lock.json'), timeoutMs: 30_000 });
    expect(result).toMatchObject({
      status: 'passed',
      restored: ['package-lock.json'],
      note: 'restored package-lock.json (the installer rewrote it)',
    });
    expect(fs.readFileSync(path.join(workspace.workDir, 'package-lock.json'), 'utf8')).toBe('{}\n');
    expect(repo.git('-C', workspace.workDir, 'status', '--porcelain')).toBe('');
    expect(repo.git('rev-parse', `refs/heads/${workspace.branch}`)).toBe(workspace.baseCommit);
  });

  it('restores any other tracked file too, and says the setup should not change it', async () => {
    const repo = locked();
    const workspace = await facade.startRun(repo.dir, { runId: 'lock2', branchPrefix: 'lathe', allowDirty: false });
    const result = await runWorkspaceSetup({ workspace, argv: REWRITE('src/app.js'), timeoutMs: 30_000 });
    expect(result.restored).toEqual(['src/app.js']);
    expect(result.note).toBe(
      'restored src/app.js: the setup changed tracked files, which a run must start without (write generated files where git ignores them)',
    );
    expect(repo.git('-C', workspace.workDir, 'status', '--porcelain')).toBe('');
  });

  it('auto: npm ci for a package-lock.json, offline for a file: dependency; skipped where node_modules is linked from the checkout', async () => {
    const repo = locked();
    execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--offline'], {
      cwd: repo.dir,
      stdio: 'ignore',
    });
    repo.commitAll('the real lockfile');
    const linked = await facade.startRun(repo.dir, { runId: 'auto1', branchPrefix: 'lathe', allowDirty: false });
    expect(await runWorkspaceSetup({ workspace: linked, argv: ['auto'], timeoutMs: 60_000 })).toMatchObject({
      status: 'skipped',
      reason: 'node_modules is already there (linked from your checkout): nothing to install',
      note: 'package-lock.json: npm ci --ignore-scripts --no-audit --no-fund',
    });
    fs.rmSync(path.join(repo.dir, 'node_modules'), { recursive: true, force: true });
    const fresh = await facade.startRun(repo.dir, { runId: 'auto2', branchPrefix: 'lathe', allowDirty: false });
    const result = await runWorkspaceSetup({ workspace: fresh, argv: ['auto'], timeoutMs: 60_000 });
    expect(result).toMatchObject({
      status: 'passed',
      argv: ['npm', 'ci', '--ignore-scripts', '--no-audit', '--no-fund'],
      restored: [],
      note: 'package-lock.json: npm ci --ignore-scripts --no-audit --no-fund',
    });
    expect(fs.existsSync(path.join(fresh.workDir, 'node_modules', 'dep', 'package.json'))).toBe(true);
    expect(repo.git('-C', fresh.workDir, 'status', '--porcelain')).toBe('');
  });

  it('auto: a missing package manager falls back to npm install and says so', async () => {
    const repo = makeTempRepo({
      files: {
        '.gitignore': 'node_modules/\n',
        'package.json': JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { dep: 'file:./dep' } }),
        'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
        'dep/package.json': JSON.stringify({ name: 'dep', version: '1.0.0' }),
      },
    });
    repos.push(repo);
    // Only node, npm, git and sh on PATH, whatever this machine has installed: pnpm is missing.
    const bin = makeTempDir('lathe-bin-');
    for (const tool of ['node', 'npm', 'git', 'sh'])
      fs.symlinkSync(
        fs.realpathSync(execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim()),
        path.join(bin, tool),
      );
    const savedPath = process.env.PATH;
    process.env.PATH = bin;
    try {
      const workspace = await facade.startRun(repo.dir, { runId: 'nopnpm', branchPrefix: 'lathe', allowDirty: false });
      const result = await runWorkspaceSetup({ workspace, argv: ['auto'], timeoutMs: 60_000 });
      expect(result).toMatchObject({
        status: 'passed',
        argv: ['npm', 'install', '--ignore-scripts', '--no-audit', '--no-fund'],
      });
      expect(result.note).toContain(
        'pnpm-lock.yaml asks for pnpm, which is not installed (not on PATH): installing with `npm install` instead',
      );
      expect(fs.existsSync(path.join(workspace.workDir, 'node_modules', 'dep'))).toBe(true);
    } finally {
      process.env.PATH = savedPath;
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });
});
