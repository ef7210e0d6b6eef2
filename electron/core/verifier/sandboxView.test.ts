import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ROOT, REPLAYS, runFixturePerTest } from '../../../test-support/exampleRepo';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { resolveRunConfig } from '../config/resolveConfig';
import { createDefaultDeps, createEngineEnv } from '../engine/defaultDeps';
import { startRun } from '../engine/runner';
import { probeSandbox } from './sandbox';
import { sandboxView } from './sandboxView';
import { verify } from './verify';

/**
 * What a hostile test suite can reach of the machine. The fake home and the "/run"-like folder sit
 * outside /tmp on purpose: the old sandbox (`--ro-bind / /` with a private /tmp) hid only /tmp.
 */
const SECRET = `lathe-secret-${process.pid}-${Date.now()}`;
const realHome = os.homedir();
let home: string;
let runLike: string;
let tmpSockets: string;
let artifactRoot: string;
const servers: net.Server[] = [];
const repos: TempRepo[] = [];
let bwrap = false;

/** A folder outside /tmp: /run when this user may write there (root, CI), else /var/tmp. */
function outsideTmp(prefix: string): string {
  for (const base of ['/run', '/var/tmp']) {
    try {
      return fs.mkdtempSync(path.join(base, prefix));
    } catch {
      // Not writable here: the next one.
    }
  }
  throw new Error('neither /run nor /var/tmp is writable');
}

function listen(socketPath: string): Promise<void> {
  const server = net.createServer((socket) => socket.end(`${SECRET}\n`));
  servers.push(server);
  return new Promise((resolve) => server.listen(socketPath, resolve));
}

beforeAll(async () => {
  bwrap = (await probeSandbox()).available;
  home = fs.realpathSync(outsideTmp('lathe-home-'));
  for (const [file, content] of Object.entries({
    '.ssh/id_rsa': SECRET,
    '.gnupg/private-keys-v1.d/k.key': SECRET,
    '.aws/credentials': SECRET,
    '.config/chromium/Default/Cookies': SECRET,
    'src/other-repo/.env': SECRET,
  })) {
    fs.mkdirSync(path.dirname(path.join(home, file)), { recursive: true });
    fs.writeFileSync(path.join(home, file), `${content}\n`);
  }
  // A toolchain under the home folder, as pyenv, nvm or cargo put theirs.
  fs.mkdirSync(path.join(home, '.fakelang/bin'), { recursive: true });
  fs.mkdirSync(path.join(home, '.fakelang/lib'), { recursive: true });
  fs.writeFileSync(path.join(home, '.fakelang/lib/runtime.txt'), 'fakelang runtime\n');
  fs.writeFileSync(path.join(home, '.fakelang/bin/fakelang'), `#!/bin/sh\ncat "$(dirname "$0")/../lib/runtime.txt"\n`, {
    mode: 0o755,
  });
  fs.writeFileSync(path.join(home, '.fakelang/credentials.toml'), `token = "${SECRET}"\n`);
  runLike = fs.realpathSync(outsideTmp('lathe-run-'));
  tmpSockets = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-sock-'));
  await listen(path.join(runLike, 'daemon.sock'));
  await listen(path.join(tmpSockets, 'daemon.sock'));
  await listen(`\0lathe-abstract-${process.pid}`);
  artifactRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-art-'));
  process.env.HOME = home;
});

afterAll(async () => {
  process.env.HOME = realHome;
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  repos.forEach((repo) => repo.remove());
  for (const dir of [home, runLike, tmpSockets, artifactRoot]) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs `script` with node in the sandbox; its stdout is the report. */
async function probe(script: string, env: Record<string, string> = {}, readPaths: string[] = []) {
  const repo = makeTempRepo({ files: { 'probe.js': script } });
  repos.push(repo);
  const result = await verify({
    workDir: repo.dir,
    argv: ['node', 'probe.js'],
    timeoutMs: 20_000,
    artifactRoot,
    isolation: 'bwrap',
    env,
    readPaths,
  });
  expect(result.isolation.level).toBe('bwrap');
  return result;
}

/** Every file under `dir` whose bytes contain the secret. */
function filesWithSecret(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((name) => {
    const file = path.join(dir, name);
    return fs.lstatSync(file).isFile() && fs.readFileSync(file).includes(SECRET);
  });
}

const TRY_READ = (files: string[]) => `
  const fs = require('node:fs');
  const out = {};
  for (const file of ${JSON.stringify(files)}) { try { out[file] = fs.readFileSync(file, 'utf8'); } catch (error) { out[file] = error.code; } }
  console.log(JSON.stringify(out));
`;

describe('the sandbox shows the tests only what they need', () => {
  it("cannot read the home folder's secrets, other repositories or a toolchain's token; the secret reaches no artifact", async (context) => {
    if (!bwrap) return context.skip('no bubblewrap here');
    const files = [
      '.ssh/id_rsa',
      '.gnupg/private-keys-v1.d/k.key',
      '.aws/credentials',
      '.config/chromium/Default/Cookies',
      'src/other-repo/.env',
      '.fakelang/credentials.toml',
    ].map((file) => path.join(home, file));
    const result = await probe(TRY_READ(files), { PATH: `${home}/.fakelang/bin:${process.env.PATH}` });
    const read = JSON.parse(result.report.trim().split('\n').at(-1) as string) as Record<string, string>;
    for (const file of files.slice(0, 5)) expect(read[file], file).toBe('ENOENT');
    // Masked by an empty device node: read as nothing, or refused.
    expect(['', 'EACCES']).toContain(read[files[5] as string]);
    expect(filesWithSecret(result.artifactDir)).toEqual([]);
  });

  it('runs a toolchain that lives under the home folder, with its own files', async (context) => {
    if (!bwrap) return context.skip('no bubblewrap here');
    const result = await probe(`process.stdout.write(require('node:child_process').execFileSync('fakelang'));`, {
      PATH: `${home}/.fakelang/bin:${process.env.PATH}`,
    });
    expect(result.report).toContain('fakelang runtime');
    expect(result.status).toBe('PASS');
  });

  it('runs a pyenv interpreter through its shim, pyenv living under the home folder', async (context) => {
    const root = path.join(realHome, '.pyenv');
    if (!bwrap || !fs.existsSync(path.join(root, 'shims', 'python3'))) return context.skip('no pyenv here');
    const repo = makeTempRepo({ files: { 'README.md': '#\n' } });
    repos.push(repo);
    const env = { PATH: `${root}/shims:${root}/bin:${process.env.PATH}`, PYENV_ROOT: root };
    const result = await verify({
      workDir: repo.dir,
      argv: ['python3', '-c', 'import sys; print(sys.executable)'],
      timeoutMs: 30_000,
      artifactRoot,
      isolation: 'bwrap',
      env,
    });
    expect(result.status).toBe('PASS');
    expect(result.report).toContain(root);
  });

  it('gets an empty private HOME and no /run, /var/run or host /proc', async (context) => {
    if (!bwrap) return context.skip('no bubblewrap here');
    const result = await probe(`
      const fs = require('node:fs');
      const list = (dir) => { try { return fs.readdirSync(dir); } catch (error) { return error.code; } };
      console.log(JSON.stringify({ home: process.env.HOME, inHome: list(process.env.HOME), run: list('/run'), varRun: list('/var/run'), host: list('/proc/${process.pid}'), pids: list('/proc').filter((name) => /^\\d+$/.test(name)).length }));
    `);
    const seen = JSON.parse(result.report.trim().split('\n').at(-1) as string);
    expect(seen).toMatchObject({ home: '/tmp/home', inHome: [], run: 'ENOENT', varRun: 'ENOENT', host: 'ENOENT' });
    expect(seen.pids).toBeLessThan(10);
  });

  it('shows a filtered /etc: what programs need, not shadow, ssh keys, ssl/private or the machine id', async (context) => {
    if (!bwrap) return context.skip('no bubblewrap here');
    const wanted = ['/etc/passwd', '/etc/ld.so.cache', '/etc/ssl/certs'].filter((file) => fs.existsSync(file));
    const hidden = ['/etc/shadow', '/etc/ssh', '/etc/ssl/private', '/etc/machine-id', '/etc/sudoers'].filter((file) =>
      fs.existsSync(file),
    );
    const result = await probe(
      `const fs = require('node:fs'); console.log(JSON.stringify(${JSON.stringify([...wanted, ...hidden])}.map((file) => fs.existsSync(file))));`,
    );
    expect(JSON.parse(result.report.trim().split('\n').at(-1) as string)).toEqual([
      ...wanted.map(() => true),
      ...hidden.map(() => false),
    ]);
  });

  it('cannot connect to a Unix socket the host listens on: under a /run-like folder, under the real /tmp, or abstract', async (context) => {
    if (!bwrap) return context.skip('no bubblewrap here');
    const targets = [
      path.join(runLike, 'daemon.sock'),
      path.join(tmpSockets, 'daemon.sock'),
      `\0lathe-abstract-${process.pid}`,
    ];
    const result = await probe(`
      const net = require('node:net');
      const tryOne = (target) => new Promise((resolve) => {
        const socket = net.connect(target);
        socket.on('data', (data) => resolve('connected: ' + data));
        socket.on('error', (error) => resolve(error.code));
      });
      Promise.all(${JSON.stringify(targets)}.map(tryOne)).then((results) => console.log(JSON.stringify(results)));
    `);
    const results = JSON.parse(result.report.trim().split('\n').at(-1) as string) as string[];
    expect(results).toEqual(['ENOENT', 'ENOENT', 'ECONNREFUSED']);
    expect(filesWithSecret(result.artifactDir)).toEqual([]);
  });

  it('has a private /tmp capped in size, or says it is not', async (context) => {
    if (!bwrap) return context.skip('no bubblewrap here');
    const result = await probe(`const s = require('node:fs').statfsSync('/tmp'); console.log(s.bsize * s.blocks);`);
    if (!(await probeSandbox()).capsTmp) {
      expect(result.isolation.detail).toContain('not size-capped: bubblewrap older than 0.5');
      return;
    }
    expect(Number(result.report.trim().split('\n').at(-1))).toBe(512 * 1024 * 1024);
    expect(result.isolation.detail).toContain('a private /tmp of 512 MB');
  });

  it('shows what policies.sandbox.read_paths names, read-only, and nothing beside it', async (context) => {
    if (!bwrap) return context.skip('no bubblewrap here');
    const shared = path.join(home, 'src', 'shared-data');
    fs.mkdirSync(shared, { recursive: true });
    fs.writeFileSync(path.join(shared, 'table.csv'), 'a,b\n');
    const result = await probe(
      `const fs = require('node:fs'); let write; try { fs.writeFileSync(${JSON.stringify(path.join(shared, 'x'))}, 'x'); write = 'written'; } catch (error) { write = error.code; }
       console.log(JSON.stringify([fs.readFileSync(${JSON.stringify(path.join(shared, 'table.csv'))}, 'utf8'), write, fs.existsSync(${JSON.stringify(path.join(home, 'src', 'other-repo'))})]));`,
      {},
      [shared, path.join(home, 'not-there')],
    );
    expect(JSON.parse(result.report.trim().split('\n').at(-1) as string)).toEqual(['a,b\n', 'EROFS', false]);
    expect(result.isolation.detail).toContain(
      `policies.sandbox.read_paths): ${shared}, ${path.join(home, 'not-there')} (not found: ${path.join(home, 'not-there')})`,
    );
  });
});

describe('sandboxView', () => {
  it("binds a toolchain's whole folder, a symlinked PATH entry at both paths, never the home folder", () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-view-')));
    repos.push({ remove: () => fs.rmSync(root, { recursive: true, force: true }) } as TempRepo);
    const user = path.join(root, 'home');
    for (const dir of ['.tool/bin', '.tool/lib', 'bin', '.ssh'])
      fs.mkdirSync(path.join(user, dir), { recursive: true });
    fs.writeFileSync(path.join(user, '.tool/credentials.toml'), 'token\n');
    fs.symlinkSync(path.join(user, '.tool/bin'), path.join(root, 'linked'));
    const view = sandboxView({
      env: { PATH: `${user}/bin:${root}/linked:${user}:/usr/bin:relative/bin` },
      commands: [],
      cwd: root,
      readPaths: [],
      shown: [],
      home: user,
    });
    expect(view.readOnly).toEqual(
      expect.arrayContaining([path.join(user, '.tool'), path.join(root, 'linked'), path.join(user, 'bin'), '/usr']),
    );
    expect(view.readOnly).not.toContain(user);
    expect(view.readOnly.filter((dir) => dir.includes('.ssh'))).toEqual([]);
    expect(view.masked).toEqual([path.join(user, '.tool/credentials.toml')]);
    expect(view.readOnly).not.toContain('/etc/shadow');
  });
});

describe('a whole run whose tests print a secret of the home folder', () => {
  const setup = runFixturePerTest();

  it('keeps the secret out of the test log, log.jsonl and state.json', async (context) => {
    if (!bwrap) return context.skip('no bubblewrap here');
    const { repo, dataDir } = setup();
    const config = resolveRunConfig(
      { repoRoot: repo.dir },
      { workflow: 'minimal', model: `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}` },
    );
    config.test_command = ['sh', '-c', `cat ${home}/.ssh/id_rsa; node --test`];
    const env = createEngineEnv({ appRoot: APP_ROOT, dataDir, retryBackoffMs: 1, deps: createDefaultDeps() });
    const state = await startRun(env, { repoRoot: repo.dir, goal: 'fix median', config });
    expect(state.result?.status).toBe('complete');
    expect(filesWithSecret(path.join(repo.dir, '.lathe'))).toEqual([]);
    expect(filesWithSecret(dataDir)).toEqual([]);
  });
});
