import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { gitIn, repoState, workTreeFiles } from '../../../test-support/gitState';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { createGitFacade } from '../git/gitFacade';
import type { RunWorkspace } from '../git/types';
import { verify } from './verify';

const facade = createGitFacade();
const repos: TempRepo[] = [];
const dirs: string[] = [];
afterEach(() => {
  repos.splice(0).forEach((repo) => repo.remove());
  dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
});

function artifactRoot(): string {
  const dir = makeTempDir('lathe-artifacts-');
  dirs.push(dir);
  return dir;
}

/** A user's repository with installed dependencies, and a run worktree of it (what the engine verifies). */
async function runWorktree(
  files: Record<string, string>,
  runId = 'r1',
): Promise<{ repo: TempRepo; workspace: RunWorkspace }> {
  const repo = makeTempRepo({ files: { '.gitignore': 'node_modules/\n.venv/\n', ...files } });
  repo.write('node_modules/dep/index.js', 'module.exports = 41;\n');
  repo.write('.venv/pyvenv.cfg', 'home = /usr/bin\n');
  repos.push(repo);
  const workspace = await facade.startRun(repo.dir, { runId, branchPrefix: 'lathe', allowDirty: false });
  return { repo, workspace };
}

const node = process.execPath;
const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('a run worktree is writable inside the sandbox, and what the suite writes is undone', () => {
  it('a suite that rewrites a tracked source file: the commit and the next run see the original, and the change is reported', async () => {
    const { workspace } = await runWorktree({
      'src/calc.js': 'exports.add = (a, b) => a + b;\n',
      'test.js': "console.log(require('fs').readFileSync('src/calc.js', 'utf8'));\n",
    });
    const head = await facade.headOf(workspace);
    const rewrite = "require('fs').writeFileSync('src/calc.js', 'exports.add = () => 3;\\n'); console.log('rewrote');";
    const first = await verify({
      workDir: workspace.workDir,
      argv: [node, '-e', rewrite],
      timeoutMs: 20_000,
      artifactRoot: artifactRoot(),
    });
    expect(first).toMatchObject({ status: 'PASS', isolation: { level: 'bwrap' } });
    expect(first.isolation.detail).toMatch(/work tree is writable/);
    expect(first.workDirWrites).toEqual({ restored: ['src/calc.js'], removed: [], relinked: [], failed: [] });
    expect(fs.readFileSync(path.join(workspace.workDir, 'src/calc.js'), 'utf8')).toBe(
      'exports.add = (a, b) => a + b;\n',
    );
    expect(gitIn(workspace.workDir, 'status', '--porcelain')).toBe('');
    const manifest = JSON.parse(fs.readFileSync(first.manifestPath, 'utf8')) as {
      work_dir_writes: unknown;
      commit: string;
    };
    expect(manifest).toMatchObject({ commit: head, work_dir_writes: { restored: ['src/calc.js'] } });
    // The next run reads the candidate's file, not what the previous suite wrote.
    const second = await verify({
      workDir: workspace.workDir,
      argv: [node, 'test.js'],
      timeoutMs: 20_000,
      artifactRoot: artifactRoot(),
    });
    expect(second.report).toContain('exports.add = (a, b) => a + b;');
    expect(second.workDirWrites).toEqual({ restored: [], removed: [], relinked: [], failed: [] });
    // And the step's commit is the candidate.
    expect(gitIn(workspace.workDir, 'show', `${head}:src/calc.js`)).toBe('exports.add = (a, b) => a + b;');
  });

  it('a build step writes build/ and a cache folder the tests use; neither reaches the work tree afterwards nor the run commit', async () => {
    const { workspace } = await runWorktree({
      'src/greet.js': "exports.greet = (name) => 'hello ' + name;\n",
      'build.js':
        "const fs = require('fs'); fs.mkdirSync('build', { recursive: true }); fs.mkdirSync('.cache/tool', { recursive: true }); fs.writeFileSync('.cache/tool/state.json', '{}'); fs.writeFileSync('build/greet.js', fs.readFileSync('src/greet.js')); console.log('built');\n",
      'test.js':
        "const { greet } = require('./build/greet.js'); if (greet('x') !== 'hello x') process.exit(1); console.log('1 passed');\n",
    });
    // The Coder's step: a real edit, committed the way the engine commits.
    fs.writeFileSync(
      path.join(workspace.workDir, 'src/greet.js'),
      "exports.greet = (name) => 'hello ' + name; // checked\n",
    );
    const commit = await facade.commitStep(workspace, ['src/greet.js'], {
      runId: 'r1',
      taskId: 'T1',
      title: 'greet',
      role: 'coder',
    });
    const result = await verify({
      workDir: workspace.workDir,
      argv: [node, 'test.js'],
      buildArgv: [node, 'build.js'],
      timeoutMs: 20_000,
      artifactRoot: artifactRoot(),
      commit: commit ?? undefined,
    });
    expect(result).toMatchObject({ status: 'PASS', failedPhase: null, build: { status: 'PASS', exitCode: 0 } });
    expect(result.build?.report).toContain('built');
    expect(fs.readFileSync(result.build?.logPath ?? '', 'utf8')).toContain('built');
    expect(result.workDirWrites?.removed).toEqual(['.cache/', 'build/']);
    expect(fs.existsSync(path.join(workspace.workDir, 'build'))).toBe(false);
    expect(fs.existsSync(path.join(workspace.workDir, '.cache'))).toBe(false);
    // Nothing is left that a later commit could pick up, and the run's commit holds only the edit.
    expect(gitIn(workspace.workDir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(gitIn(workspace.workDir, 'ls-tree', '-r', '--name-only', 'HEAD').split('\n')).toEqual([
      '.gitignore',
      'build.js',
      'src/greet.js',
      'test.js',
    ]);
    expect(gitIn(workspace.workDir, 'show', '--name-only', '--format=', 'HEAD')).toBe('src/greet.js');
  });

  // docs/seeds.md 4.8: the build step's failure, and the tests do not run
  it('a failing build is a build failure with its own excerpt, and the tests do not run', async () => {
    const { workspace } = await runWorktree({ 'a.txt': 'a\n' });
    const marker = `echo ran > "$ARTIFACT_DIR/tests-ran"`;
    const result = await verify({
      workDir: workspace.workDir,
      argv: ['/bin/sh', '-c', marker],
      buildArgv: ['/bin/sh', '-c', 'echo "src/x.ts(3,1): error TS2304: Cannot find name nope"; exit 2'],
      timeoutMs: 20_000,
      artifactRoot: artifactRoot(),
    });
    expect(result).toMatchObject({
      status: 'FAIL',
      failedPhase: 'build',
      exitCode: 2,
      counts: null,
      build: { status: 'FAIL', exitCode: 2 },
    });
    expect(result.reason).toMatch(/^the build failed \(exit 2\); the tests did not run$/);
    expect(result.build?.report).toContain('error TS2304');
    expect(result.report).toContain('error TS2304');
    expect(fs.existsSync(path.join(result.artifactDir, 'tests-ran'))).toBe(false);
    const missing = await verify({
      workDir: workspace.workDir,
      argv: ['/bin/true'],
      buildArgv: ['no-such-build-tool-xyz'],
      timeoutMs: 20_000,
      artifactRoot: artifactRoot(),
    });
    expect(missing).toMatchObject({ status: 'INFRA_ERROR', failedPhase: 'build' });
    expect(missing.reason).toMatch(/the build command could not run: .*command not found: no-such-build-tool-xyz/);
  });

  it('uncommitted files of the candidate stay read-only; a file it had deleted is deleted again', async () => {
    const { workspace } = await runWorktree({ 'kept.txt': 'committed\n', 'gone.txt': 'deleted by the candidate\n' });
    fs.writeFileSync(path.join(workspace.workDir, 'kept.txt'), 'uncommitted edit\n');
    fs.writeFileSync(path.join(workspace.workDir, 'new.txt'), 'untracked file\n');
    fs.rmSync(path.join(workspace.workDir, 'gone.txt'));
    const script = `
      const fs = require('fs'); const out = {};
      for (const file of ['kept.txt', 'new.txt']) { try { fs.writeFileSync(file, 'x'); out[file] = 'written'; } catch (error) { out[file] = error.code; } }
      fs.writeFileSync('gone.txt', 'deleted by the candidate\\n');
      console.log(JSON.stringify(out));`;
    const result = await verify({
      workDir: workspace.workDir,
      argv: [node, '-e', script],
      timeoutMs: 20_000,
      artifactRoot: artifactRoot(),
    });
    expect(result.report).toContain('{"kept.txt":"EROFS","new.txt":"EROFS"}');
    expect(fs.readFileSync(path.join(workspace.workDir, 'kept.txt'), 'utf8')).toBe('uncommitted edit\n');
    expect(fs.readFileSync(path.join(workspace.workDir, 'new.txt'), 'utf8')).toBe('untracked file\n');
    expect(fs.existsSync(path.join(workspace.workDir, 'gone.txt'))).toBe(false);
    expect(result.workDirWrites).toEqual({ restored: ['gone.txt'], removed: [], relinked: [], failed: [] });
  });
});

describe('the bars of the hostile suites hold for a writable run worktree', () => {
  let server: net.Server;
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    server = net.createServer((socket) => {
      connections++;
      socket.on('error', () => undefined);
      socket.end('hello');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => server.close());

  it("cannot write the user's checkout, $HOME, git data or the linked dependencies, nor connect out; the run's node_modules stays as it was and a replaced link is made again", async () => {
    const { repo, workspace } = await runWorktree({ 'src/keep.js': 'export const keep = 1;\n' });
    const userState = repoState(repo.dir);
    const dotGit = fs.readFileSync(path.join(workspace.workDir, '.git'), 'utf8');
    const gitDir = path.resolve(workspace.workDir, (/^gitdir: (.+)$/m.exec(dotGit)?.[1] ?? '').trim());
    const commonDir = gitIn(workspace.workDir, 'rev-parse', '--path-format=absolute', '--git-common-dir');
    // Lathe's own `git status` may write the index's refreshed stat data: the index is compared by its entries.
    const gitData = () => ({ ...workTreeFiles(gitDir), index: gitIn(workspace.workDir, 'ls-files', '--stage') });
    const gitDirFiles = gitData();
    const config = sha(path.join(commonDir, 'config'));
    const realHome = os.homedir();
    const tries = {
      checkout: path.join(repo.dir, 'src/keep.js'),
      userFile: path.join(repo.dir, 'pwned.txt'),
      home: path.join(realHome, `lathe-pwned-${process.pid}.txt`),
      dotGit: '.git',
      gitDirHead: path.join(gitDir, 'HEAD'),
      config: path.join(commonDir, 'config'),
      throughLink: 'node_modules/dep/index.js',
      throughVenv: '.venv/pyvenv.cfg',
    };
    const script = `
      const fs = require('fs'); const net = require('net'); const out = {};
      for (const [name, file] of Object.entries(${JSON.stringify(tries)})) { try { fs.writeFileSync(file, 'pwned'); out[name] = 'written'; } catch (error) { out[name] = error.code; } }
      fs.writeFileSync('src/keep.js', 'pwned'); fs.mkdirSync('build'); fs.writeFileSync('build/out.js', '1');
      fs.rmSync('.venv'); fs.mkdirSync('.venv'); fs.writeFileSync('.venv/planted', '1');
      for (const [name, act] of [['removeDeps', () => fs.rmSync('node_modules', { recursive: true })], ['addToDeps', () => fs.writeFileSync('node_modules/fake.js', '1')], ['depsCache', () => fs.writeFileSync('node_modules/.vite/results.json', '{}')]]) {
        try { act(); out[name] = 'done'; } catch (error) { out[name] = error.code; }
      }
      const socket = net.connect(${port}, '127.0.0.1');
      socket.on('connect', () => { out.network = 'connected'; finish(); });
      socket.on('error', (error) => { out.network = error.code; finish(); });
      function finish() { console.log(JSON.stringify(out)); }`;
    const before = connections;
    const result = await verify({
      workDir: workspace.workDir,
      argv: [node, '-e', script],
      timeoutMs: 20_000,
      artifactRoot: artifactRoot(),
    });
    const out = JSON.parse(result.report.trim().split('\n').at(-1) ?? '{}') as Record<string, string>;
    expect(out).toEqual({
      checkout: 'EROFS',
      userFile: 'EROFS',
      home: expect.stringMatching(/^(EROFS|ENOENT|EACCES)$/),
      dotGit: expect.stringMatching(/^(EROFS|EBUSY)$/),
      gitDirHead: 'EROFS',
      config: 'EROFS',
      throughLink: 'EROFS',
      throughVenv: 'EROFS',
      removeDeps: expect.stringMatching(/^(EROFS|EBUSY)$/),
      addToDeps: 'EROFS',
      depsCache: 'done',
      network: expect.stringMatching(/^(ECONNREFUSED|ENETUNREACH)$/),
    });
    expect(connections).toBe(before);
    expect(fs.existsSync(tries.home)).toBe(false);
    expect(repoState(repo.dir)).toEqual(userState);
    expect(gitData()).toEqual(gitDirFiles);
    expect(sha(path.join(commonDir, 'config'))).toBe(config);
    expect(fs.readFileSync(path.join(workspace.workDir, '.git'), 'utf8')).toBe(dotGit);
    expect(result.workDirWrites).toEqual({
      restored: ['src/keep.js'],
      removed: ['build/'],
      relinked: ['.venv'],
      failed: [],
    });
    expect(fs.readlinkSync(path.join(workspace.workDir, '.venv'))).toBe(path.join(repo.dir, '.venv'));
    // The run's node_modules (a folder of links to the user's packages) is as it was.
    expect(fs.readlinkSync(path.join(workspace.workDir, 'node_modules', 'dep'))).toBe(
      path.join(repo.dir, 'node_modules', 'dep'),
    );
    expect(fs.existsSync(path.join(workspace.workDir, 'node_modules', 'fake.js'))).toBe(false);
    expect(fs.readFileSync(path.join(repo.dir, 'node_modules/dep/index.js'), 'utf8')).toBe('module.exports = 41;\n');
    expect(gitIn(workspace.workDir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });

  it('cannot get capabilities back to remount the file system writable, even when Lathe runs as root', async () => {
    const { workspace } = await runWorktree({ 'a.txt': 'a\n' });
    const probe = path.join(os.homedir(), `lathe-remount-probe-${process.pid}`);
    const script = `grep '^CapEff' /proc/self/status; mount -o remount,rw / 2>&1 || echo remount-refused; touch ${JSON.stringify(probe)} 2>&1 || echo touch-refused`;
    const result = await verify({
      workDir: workspace.workDir,
      argv: ['/bin/sh', '-c', script],
      timeoutMs: 20_000,
      artifactRoot: artifactRoot(),
    });
    const escaped = fs.existsSync(probe);
    fs.rmSync(probe, { force: true });
    expect(escaped).toBe(false);
    expect(result.isolation.level).toBe('bwrap');
    expect(result.report).toMatch(/CapEff:\s+0+\n/);
    expect(result.report).toContain('remount-refused');
    expect(result.report).toContain('touch-refused');
  });

  it('a source folder swapped for a symlink to the user checkout is undone without writing through it', async () => {
    const { repo, workspace } = await runWorktree({
      'src/keep.js': 'export const keep = 1;\n',
      'src/other.js': 'export const other = 2;\n',
    });
    const userState = repoState(repo.dir);
    const script = `const fs = require('fs'); fs.rmSync('src', { recursive: true }); fs.symlinkSync(${JSON.stringify(path.join(repo.dir, 'src'))}, 'src'); console.log('swapped');`;
    const result = await verify({
      workDir: workspace.workDir,
      argv: [node, '-e', script],
      timeoutMs: 20_000,
      artifactRoot: artifactRoot(),
    });
    expect(result.report).toContain('swapped');
    expect(result.workDirWrites).toEqual({
      restored: ['src/keep.js', 'src/other.js'],
      removed: ['src'],
      relinked: [],
      failed: [],
    });
    expect(fs.lstatSync(path.join(workspace.workDir, 'src')).isDirectory()).toBe(true);
    expect(repoState(repo.dir)).toEqual(userState);
    expect(gitIn(workspace.workDir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });
});

describe('the checkout fallback keeps what it can of the same guarantees', () => {
  it("a suite's git commands land in its own copy, never in the user's refs or config; what it changed is reported", async () => {
    const repo = makeTempRepo({ files: { 'src/app.js': 'module.exports = 1;\n' } });
    repos.push(repo);
    const userState = repoState(repo.dir);
    const config = sha(path.join(repo.dir, '.git', 'config'));
    const script = [
      "const { execFileSync } = require('child_process'); const fs = require('fs');",
      "const git = (...args) => execFileSync('git', args, { stdio: 'ignore' });",
      "git('branch', 'planted'); git('config', 'user.name', 'planted');",
      "fs.writeFileSync('src/app.js', 'module.exports = 0;\\n'); fs.mkdirSync('coverage'); fs.writeFileSync('coverage/lcov.info', '');",
      "console.log('done');",
    ].join('\n');
    const result = await verify({
      workDir: repo.dir,
      argv: [node, '-e', script],
      timeoutMs: 30_000,
      artifactRoot: artifactRoot(),
      isolation: 'checkout',
      commit: repo.git('rev-parse', 'HEAD'),
    });
    expect(result).toMatchObject({ status: 'PASS', isolation: { level: 'checkout' } });
    expect(result.workDirWrites).toEqual({
      restored: ['src/app.js'],
      removed: ['coverage/'],
      relinked: [],
      failed: [],
    });
    expect(repoState(repo.dir)).toEqual(userState);
    expect(sha(path.join(repo.dir, '.git', 'config'))).toBe(config);
  });
});

describe('when the engine vouches for the run worktree (decision 67)', () => {
  it('a suite that rewrites a tracked file and sets its mtime back is still caught and undone, step after step', async () => {
    const { workspace } = await runWorktree({
      'src/calc.js': 'exports.add = (a, b) => a + b;\n',
      'test.js': "console.log(require('fs').readFileSync('src/calc.js', 'utf8'));\n",
    });
    // Same size, mtime restored: only ctime (which no process can set) shows the write.
    const sneaky =
      "const fs = require('fs'); const f = 'src/calc.js'; fs.writeFileSync(f, 'exports.add = (a, b) => a - b;\\n'); fs.utimesSync(f, 1700000000, 1700000000);";
    // A whole-second mtime the suite can put back exactly.
    fs.utimesSync(path.join(workspace.workDir, 'src/calc.js'), 1_700_000_000, 1_700_000_000);
    let head: string | null = await facade.headOf(workspace);
    for (let step = 1; step <= 3; step++) {
      // Each round: a clean verify (settles the tree), then the sneaky suite, both vouched as the engine does.
      const clean = await verify({
        workDir: workspace.workDir,
        argv: [node, 'test.js'],
        timeoutMs: 20_000,
        artifactRoot: artifactRoot(),
        workTreeAt: head ?? undefined,
      });
      expect(clean.workDirWrites).toEqual({ restored: [], removed: [], relinked: [], failed: [] });
      const caught = await verify({
        workDir: workspace.workDir,
        argv: [node, '-e', sneaky],
        timeoutMs: 20_000,
        artifactRoot: artifactRoot(),
        workTreeAt: head ?? undefined,
      });
      expect(caught.workDirWrites).toEqual({ restored: ['src/calc.js'], removed: [], relinked: [], failed: [] });
      expect(fs.readFileSync(path.join(workspace.workDir, 'src/calc.js'), 'utf8')).toBe(
        'exports.add = (a, b) => a + b;\n',
      );
      // The engine's next step: a commit of another file, then the next verify is vouched at the new head.
      fs.writeFileSync(path.join(workspace.workDir, `step${step}.js`), `module.exports = ${step};\n`);
      head = await facade.commitStep(workspace, [`step${step}.js`], {
        runId: 'r1',
        taskId: `T${step}`,
        title: `step ${step}`,
        role: 'coder',
      });
    }
    expect(gitIn(workspace.workDir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(gitIn(workspace.workDir, 'log', '-p', '--format=')).not.toContain('a - b');
  });

  it('a vouched verify still removes a new untracked file and an ignored build folder, and the tree is clean after', async () => {
    const { workspace } = await runWorktree({
      '.gitignore': 'node_modules/\n.venv/\nbuild/\n',
      'src/a.js': 'exports.a = 1;\n',
    });
    const head = (await facade.headOf(workspace)) ?? undefined;
    await verify({
      workDir: workspace.workDir,
      argv: [node, '-e', '0'],
      timeoutMs: 20_000,
      artifactRoot: artifactRoot(),
      workTreeAt: head,
    });
    const writer =
      "const fs = require('fs'); fs.mkdirSync('build', { recursive: true }); fs.writeFileSync('build/out.js', '1'); fs.writeFileSync('stray.txt', 'x');";
    const result = await verify({
      workDir: workspace.workDir,
      argv: [node, '-e', writer],
      timeoutMs: 20_000,
      artifactRoot: artifactRoot(),
      workTreeAt: head,
    });
    expect(result.workDirWrites).toEqual({ restored: [], removed: ['build/', 'stray.txt'], relinked: [], failed: [] });
    expect(gitIn(workspace.workDir, 'status', '--porcelain', '--untracked-files=all', '--ignored')).not.toMatch(
      /build|stray/,
    );
    expect(fs.existsSync(path.join(workspace.workDir, 'build'))).toBe(false);
  });
});
