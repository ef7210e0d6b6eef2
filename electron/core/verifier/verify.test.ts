import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { processesWith, uniqueSleepSeconds } from '../../../test-support/processes';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { probeSandbox } from './sandbox';
import { readTestInventory } from './testInventory';
import { verify } from './verify';

const repos: TempRepo[] = [];
const dirs: string[] = [];
afterEach(() => {
  repos.splice(0).forEach((repo) => repo.remove());
  dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
});

function project(files: Record<string, string>): TempRepo {
  const repo = makeTempRepo({ files });
  repos.push(repo);
  return repo;
}
function artifactRoot(): string {
  const dir = makeTempDir('lathe-artifacts-');
  dirs.push(dir);
  return dir;
}
const node = process.execPath;

const PYTEST_PROJECT = {
  'calc.py': 'def add(a, b):\n    return a + b\n',
  'tests/test_calc.py':
    'from calc import add\n\n\ndef test_adds():\n    assert add(1, 2) == 3\n\n\ndef test_broken():\n    assert add(1, 1) == 3, "one plus one"\n',
  'conftest.py': 'import sys, os\nsys.path.insert(0, os.path.dirname(__file__))\n',
};

it('bubblewrap is installed and works on this machine (the sandbox tests below rely on it)', async () => {
  expect(await probeSandbox()).toMatchObject({ available: true });
  expect(probeSandbox()).toBe(probeSandbox());
});

describe('inside the bubblewrap sandbox', () => {
  // docs/seeds.md 4.8 (sandbox, read-only repo, ARTIFACT_DIR, manifest), 4.9 (PASS/FAIL/INFRA_ERROR, tail, artifacts)
  it('the repository is read-only, ARTIFACT_DIR is writable, and the result records it', async () => {
    const repo = project({ 'a.txt': 'a\n' });
    const script = 'echo kept > "$ARTIFACT_DIR/build/out.txt"; echo nope > inside.txt';
    const result = await verify({
      workDir: repo.dir,
      argv: ['/bin/sh', '-c', script],
      timeoutMs: 20_000,
      artifactRoot: artifactRoot(),
    });
    expect(result).toMatchObject({ status: 'FAIL', isolation: { level: 'bwrap' }, timedOut: false });
    expect(result.report).toMatch(/Read-only file system/);
    expect(fs.existsSync(path.join(repo.dir, 'inside.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(result.artifactDir, 'build', 'out.txt'), 'utf8')).toBe('kept\n');
    const manifest = JSON.parse(fs.readFileSync(result.manifestPath, 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      run_id: result.verifyRunId,
      status: 'FAIL',
      commit: repo.git('rev-parse', 'HEAD'),
      requested_argv: ['/bin/sh', '-c', script],
      exit_code: 2,
      isolation: { level: 'bwrap' },
      platform: { os: 'linux' },
    });
    expect(fs.readFileSync(result.logPath, 'utf8')).toMatch(/Read-only file system/);
    expect(result.tail).toMatch(/Read-only file system/);
  });

  describe('the network', () => {
    let server: net.Server;
    let port = 0;
    beforeAll(async () => {
      server = net.createServer((socket) => {
        socket.on('error', () => undefined);
        socket.end('hello');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as net.AddressInfo).port;
    });
    afterAll(() => server.close());
    const connect = () =>
      `require('net').connect(${port}, '127.0.0.1').on('connect', () => process.exit(0)).on('error', (e) => { console.log(e.code); process.exit(3); })`;

    // docs/seeds.md 0.1: no network for the tests
    it('is cut in the sandbox', async () => {
      const repo = project({ 'a.txt': 'a\n' });
      const result = await verify({
        workDir: repo.dir,
        argv: [node, '-e', connect()],
        timeoutMs: 20_000,
        artifactRoot: artifactRoot(),
      });
      expect(result).toMatchObject({ status: 'FAIL', exitCode: 3, isolation: { level: 'bwrap' } });
      expect(result.report).toMatch(/ECONNREFUSED|ENETUNREACH/);
    });

    it('is reachable in the forced checkout fallback, which says its isolation is reduced', async () => {
      const repo = project({ 'a.txt': 'a\n' });
      const result = await verify({
        workDir: repo.dir,
        argv: [node, '-e', connect()],
        timeoutMs: 20_000,
        artifactRoot: artifactRoot(),
        isolation: 'checkout',
      });
      expect(result).toMatchObject({ status: 'PASS', isolation: { level: 'checkout' } });
      expect(result.isolation.detail).toMatch(/reduced isolation.*network/);
    });
  });

  // docs/seeds.md 0.29, 3.14: a timeout kills the test process tree
  it.each(['bwrap', 'checkout'] as const)(
    '%s: a timeout kills a setsid child that holds the pipe, leaving nothing running',
    async (isolation) => {
      const repo = project({ 'a.txt': 'a\n' });
      const seconds = uniqueSleepSeconds();
      const script = `require('child_process').spawn('setsid', ['sleep', '${seconds}'], { stdio: 'inherit' }); console.log('started'); setInterval(() => {}, 1000);`;
      const started = Date.now();
      const result = await verify({
        workDir: repo.dir,
        argv: [node, '-e', script],
        timeoutMs: 1500,
        artifactRoot: artifactRoot(),
        isolation,
      });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(result).toMatchObject({ status: 'FAIL', timedOut: true, isolation: { level: isolation } });
      expect(result.reason).toMatch(/timed out/);
      expect(result.report).toContain('started');
      expect(processesWith('sleep', seconds)).toEqual([]);
    },
  );

  // docs/seeds.md 0.15 (pytest, exit code and output), 2.14 (coverage of the changed file measured)
  it('runs pytest (Debian python3-pytest) and reads counts and the first failure from JUnit, writing nothing to the repo', async () => {
    const repo = project(PYTEST_PROJECT);
    const result = await verify({
      workDir: repo.dir,
      argv: ['/usr/bin/python3', '-m', 'pytest', '-q'],
      timeoutMs: 60_000,
      artifactRoot: artifactRoot(),
      coverageFor: ['calc.py'],
    });
    expect(result).toMatchObject({
      status: 'FAIL',
      exitCode: 1,
      counts: { passed: 1, failed: 1, skipped: 0, total: 2 },
    });
    expect(result.firstFailure?.testId).toBe('tests/test_calc.py::test_broken');
    expect(result.firstFailure?.location).toMatch(/^tests\/test_calc\.py:\d+$/);
    expect(result.resultsFrom).toBe('pytest (JUnit XML)');
    expect(result.firstFailure?.message).toContain('one plus one');
    expect(fs.existsSync(path.join(result.artifactDir, 'junit.xml'))).toBe(true);
    expect(result.coverage).toEqual({ percent: 100, files: { 'calc.py': 100 } });
    expect(repo.git('status', '--porcelain', '--ignored', '--untracked-files=all')).toBe('');
    // The inventory: every test, in the result and in tests.json beside the manifest.
    const tests = [
      { id: 'tests/test_calc.py::test_adds', outcome: 'passed', file: 'tests/test_calc.py' },
      { id: 'tests/test_calc.py::test_broken', outcome: 'failed', file: 'tests/test_calc.py' },
    ];
    expect(result.tests).toEqual(tests);
    expect(await readTestInventory(result.artifactDir)).toEqual({ runner: 'pytest', source: 'JUnit XML', tests });
    expect(JSON.parse(fs.readFileSync(result.manifestPath, 'utf8'))).toMatchObject({
      tests_file: path.join(result.artifactDir, 'tests.json'),
    });
  });

  it('runs node --test and reads its JUnit report', async () => {
    const repo = project({
      'package.json': '{"type":"module"}\n',
      'math.test.js':
        "import { test, describe } from 'node:test';\nimport assert from 'node:assert';\ndescribe('math', () => {\n  test('adds', () => assert.equal(1 + 1, 2));\n  test('fails', () => assert.equal(1 + 1, 3));\n  test('later', { skip: true }, () => {});\n});\n",
    });
    const result = await verify({
      workDir: repo.dir,
      argv: ['node', '--test'],
      timeoutMs: 60_000,
      artifactRoot: artifactRoot(),
    });
    expect(result).toMatchObject({
      status: 'FAIL',
      counts: { passed: 1, failed: 1, skipped: 1, total: 3 },
      firstFailure: { testId: 'math > fails' },
    });
    expect(result.tail.split('\n').length).toBeLessThanOrEqual(200);
    expect(result.tests?.map((test) => `${test.outcome} ${test.id}`)).toEqual([
      'passed math > adds',
      'failed math > fails',
      'skipped math > later',
    ]);
  });

  it('keeps no inventory when the output names no test, only counts', async () => {
    const repo = project({ 'a.txt': 'a\n' });
    const result = await verify({
      workDir: repo.dir,
      argv: [node, '-e', "console.log('unit: 2 passed, 0 failed')"],
      timeoutMs: 20_000,
      artifactRoot: artifactRoot(),
    });
    expect(result).toMatchObject({
      status: 'PASS',
      counts: { passed: 2, failed: 0, skipped: 0, total: 2 },
      tests: null,
    });
    expect(fs.existsSync(path.join(result.artifactDir, 'tests.json'))).toBe(false);
    expect(await readTestInventory(result.artifactDir)).toBeNull();
    expect(JSON.parse(fs.readFileSync(result.manifestPath, 'utf8'))).toMatchObject({ tests_file: null });
  });

  it('reports INFRA_ERROR for a command that does not exist', async () => {
    const repo = project({ 'a.txt': 'a\n' });
    const result = await verify({
      workDir: repo.dir,
      argv: ['no-such-test-runner-xyz', '--all'],
      timeoutMs: 20_000,
      artifactRoot: artifactRoot(),
    });
    expect(result).toMatchObject({
      status: 'INFRA_ERROR',
      exitCode: null,
      reason: expect.stringContaining('command not found: no-such-test-runner-xyz'),
    });
    expect(JSON.parse(fs.readFileSync(result.manifestPath, 'utf8'))).toMatchObject({ status: 'INFRA_ERROR' });
  });

  it('caps captured output but keeps the head and the tail', async () => {
    const repo = project({ 'a.txt': 'a\n' });
    const script = "for (let i = 0; i < 200000; i++) console.log('line ' + i);";
    const result = await verify({
      workDir: repo.dir,
      argv: [node, '-e', script],
      timeoutMs: 30_000,
      artifactRoot: artifactRoot(),
      outputCapBytes: 64 * 1024,
    });
    expect(result.status).toBe('PASS');
    expect(result.report.length).toBe(2500 + 5 + 1000);
    expect(result.report.startsWith('line 0\n')).toBe(true);
    expect(result.tail.split('\n')).toHaveLength(200);
    expect(result.tail.endsWith('line 199999')).toBe(true);
    expect(fs.statSync(result.logPath).size).toBeGreaterThan(2_000_000);
  });
});

describe('the checkout fallback', () => {
  it('tests the given commit, not the uncommitted work, and pytest passes there', async () => {
    const repo = project({
      ...PYTEST_PROJECT,
      'tests/test_calc.py': 'from calc import add\n\n\ndef test_adds():\n    assert add(1, 2) == 3\n',
    });
    const commit = repo.git('rev-parse', 'HEAD');
    repo.write('calc.py', 'def add(a, b):\n    return a - b\n');
    const result = await verify({
      workDir: repo.dir,
      argv: ['/usr/bin/python3', '-m', 'pytest', '-q'],
      timeoutMs: 60_000,
      artifactRoot: artifactRoot(),
      isolation: 'checkout',
      commit,
    });
    expect(result).toMatchObject({
      status: 'PASS',
      counts: { passed: 1, failed: 0 },
      isolation: { level: 'checkout' },
    });
    expect(result.isolation.detail).toContain(commit.slice(0, 12));
    expect(repo.git('worktree', 'list').split('\n')).toHaveLength(1);
  });

  it('runs in a copy of the current files when no commit is given', async () => {
    const repo = project(PYTEST_PROJECT);
    repo.write('calc.py', 'def add(a, b):\n    return 2\n');
    const result = await verify({
      workDir: repo.dir,
      argv: ['/usr/bin/python3', '-m', 'pytest', '-q'],
      timeoutMs: 60_000,
      artifactRoot: artifactRoot(),
      isolation: 'checkout',
    });
    expect(result).toMatchObject({ status: 'FAIL', counts: { passed: 0, failed: 2 } });
  });
});
