import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { markedPids } from '../basics/processTree';
import { verify } from './verify';

/** Every tracked and untracked file's hash, so "unchanged" means byte for byte. */
function fingerprint(dir: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name of fs.readdirSync(dir, { recursive: true }) as string[]) {
    if (name.startsWith('.git')) continue;
    const file = path.join(dir, name);
    const stat = fs.lstatSync(file);
    result[name] = stat.isFile()
      ? crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex')
      : stat.isDirectory()
        ? 'dir'
        : 'other';
  }
  return result;
}

let outside: string;
let artifactRoot: string;
let server: net.Server;
let port = 0;
let connections = 0;
const repos: TempRepo[] = [];

beforeAll(async () => {
  outside = makeTempDir('lathe-outside-');
  fs.writeFileSync(path.join(outside, 'sentinel.txt'), 'untouched\n');
  artifactRoot = makeTempDir('lathe-artifacts-');
  server = net.createServer((socket) => {
    connections++;
    socket.end('hello\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  repos.forEach((repo) => repo.remove());
  fs.rmSync(outside, { recursive: true, force: true });
  fs.rmSync(artifactRoot, { recursive: true, force: true });
});

function hostileRepo(script: string): TempRepo {
  const repo = makeTempRepo({ files: { 'src/keep.js': 'export const keep = 1;\n', 'hostile.js': script } });
  repos.push(repo);
  return repo;
}

async function runHostile(repo: TempRepo, timeoutMs = 5_000, isolation: 'auto' | 'checkout' = 'auto') {
  const before = fingerprint(repo.dir);
  const result = await verify({ workDir: repo.dir, argv: ['node', 'hostile.js'], timeoutMs, artifactRoot, isolation });
  expect(fingerprint(repo.dir)).toEqual(before);
  expect(repo.git('status', '--porcelain')).toBe('');
  expect(fs.readFileSync(path.join(outside, 'sentinel.txt'), 'utf8')).toBe('untouched\n');
  expect(await markedPids(result.verifyRunId)).toEqual([]);
  return result;
}

describe('hostile test suites are contained', () => {
  it('cannot write into the repository, the real home or anywhere outside', async () => {
    const repo = hostileRepo(`
      const fs = require('node:fs');
      const tries = { repo: 'src/keep.js', created: 'pwned.txt', outside: ${JSON.stringify(path.join(outside, 'sentinel.txt'))}, home: process.env.HOME + '/pwned.txt' };
      const results = {};
      for (const [name, file] of Object.entries(tries)) {
        try { fs.writeFileSync(file, 'pwned'); results[name] = 'written'; } catch (error) { results[name] = error.code; }
      }
      console.log(JSON.stringify(results));
      process.exit(results.repo === 'written' || results.outside === 'written' || results.created === 'written' ? 0 : 1);
    `);
    const result = await runHostile(repo);
    expect(result.status).toBe('FAIL');
    // Outside folders under /tmp do not even exist in the sandbox's private /tmp; $HOME is a private temp folder.
    expect(result.report).toMatch(/"repo":"EROFS","created":"EROFS","outside":"(EROFS|ENOENT)","home":"written"/);
    expect(result.isolation.level).toBe('bwrap');
  });

  it('cannot reach the network, not even this machine', async () => {
    const before = connections;
    const repo = hostileRepo(`
      const net = require('node:net');
      const socket = net.connect(${port}, '127.0.0.1');
      socket.on('connect', () => { console.log('connected'); process.exit(0); });
      socket.on('error', (error) => { console.log('refused: ' + error.code); process.exit(1); });
    `);
    const result = await runHostile(repo);
    expect(result.status).toBe('FAIL');
    expect(result.report).toContain('refused: ECONNREFUSED');
    expect(connections).toBe(before);
  });

  it('kills a fork bomb at the timeout, under a process cap, leaving nothing running', async () => {
    const repo = hostileRepo(`
      const { spawn } = require('node:child_process');
      const bomb = () => { try { spawn('/bin/sh', ['-c', ':(){ :|:& };:'], { detached: true, stdio: 'ignore' }); } catch {} };
      for (let i = 0; i < 4; i++) bomb();
      setInterval(() => {}, 1000);
    `);
    let peak = 0;
    const sampler = setInterval(() => {
      const count = fs.readdirSync('/proc').filter((name) => /^\\d+$/.test(name)).length;
      peak = Math.max(peak, count);
    }, 50);
    const baseline = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).length;
    const result = await runHostile(repo, 3_000);
    clearInterval(sampler);
    expect(result.status).toBe('FAIL');
    expect(result.timedOut).toBe(true);
    expect(result.reason).toContain('timed out');
    expect(result.isolation.detail).toMatch(/at most 512 (more )?processes/);
    expect(peak - baseline).toBeLessThan(700);
  });

  it('kills a command that floods 1 GB of output, keeping memory and the log bounded', async () => {
    const repo = hostileRepo(`
      const chunk = Buffer.alloc(1024 * 1024, 'x');
      let written = 0;
      const write = () => { while (written < 1024) { written++; if (!process.stdout.write(chunk)) return process.stdout.once('drain', write); } };
      write();
    `);
    const result = await runHostile(repo, 60_000);
    expect(result.status).toBe('FAIL');
    expect(result.reason).toMatch(/more than \d+ MB of output/);
    expect(fs.statSync(result.logPath).size).toBeLessThan(40 * 1024 * 1024);
    expect(result.report.length).toBeLessThanOrEqual(4_000 + 10);
  });

  it('cannot delete the repository files, and in the checkout fallback only deletes its own copy', async () => {
    const script = `
      const fs = require('node:fs');
      try { fs.rmSync('src', { recursive: true }); console.log('deleted'); } catch (error) { console.log('refused: ' + error.code); }
      process.exit(fs.existsSync('src') ? 1 : 0);
    `;
    const sandboxed = await runHostile(hostileRepo(script));
    expect(sandboxed.status).toBe('FAIL');
    expect(sandboxed.report).toContain('refused: EROFS');
    const fallback = await runHostile(hostileRepo(script), 5_000, 'checkout');
    expect(fallback.isolation.level).toBe('checkout');
    expect(fallback.report).toContain('deleted');
  });

  it('kills a child that escaped with setsid at the timeout', async () => {
    const repo = hostileRepo(`
      const { spawn } = require('node:child_process');
      spawn('setsid', ['sleep', '300'], { detached: true, stdio: 'ignore' }).unref();
      setInterval(() => {}, 1000);
    `);
    const result = await runHostile(repo, 1_500);
    expect(result).toMatchObject({ status: 'FAIL', timedOut: true });
  });
});
