import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../../test-support/tempRepo';
import { verify } from '../../verifier/verify';
import type { VerifyRequest, VerifyResult } from '../../verifier/types';
import { reusedBareRun, VerificationCache, verificationKey } from './verificationCache';

const CHECK = `const fs = require('node:fs');\nconst text = fs.readFileSync('value.txt', 'utf8').trim();\nconsole.log('value', text);\nprocess.exit(text === 'right' ? 0 : 1);\n`;

describe('VerificationCache (lathe eval --reuse-verifications)', () => {
  const cleanup: (() => void)[] = [];
  afterEach(() => {
    for (const undo of cleanup.splice(0)) undo();
  });

  function setup(): {
    repo: TempRepo;
    store: string;
    artifactRoot: string;
    request: VerifyRequest;
    real: { calls: number; verify: (request: VerifyRequest) => Promise<VerifyResult> };
  } {
    const repo = makeTempRepo({
      files: { 'check.js': CHECK, 'value.txt': 'wrong\n', '.gitignore': 'node_modules/\n' },
    });
    const scratch = makeTempDir('lathe-vcache-');
    cleanup.push(
      () => repo.remove(),
      () => fs.rmSync(scratch, { recursive: true, force: true }),
    );
    const real = {
      calls: 0,
      verify: async (request: VerifyRequest) => {
        real.calls++;
        return verify(request);
      },
    };
    const artifactRoot = path.join(scratch, 'artifacts');
    return {
      repo,
      store: path.join(scratch, 'store'),
      artifactRoot,
      request: { workDir: repo.dir, argv: ['node', 'check.js'], timeoutMs: 30_000, artifactRoot, isolation: 'none' },
      real,
    };
  }

  it('answers an identical tree from the earlier result, its artifacts copied under a new id', async () => {
    const { repo, store, request, real } = setup();
    const cached = new VerificationCache(store).wrap(real.verify);
    const first = await cached.verify(request);
    expect(first.status).toBe('FAIL');
    const second = await cached.verify(request);
    expect(real.calls).toBe(1);
    expect(cached.stats).toEqual({ ran: 1, reused: 1 });
    expect(second.status).toBe('FAIL');
    expect(second.verifyRunId).not.toBe(first.verifyRunId);
    expect(second.artifactDir).not.toBe(first.artifactDir);
    expect(second.logPath.startsWith(second.artifactDir)).toBe(true);
    expect(fs.readFileSync(second.logPath, 'utf8')).toContain('value wrong');
    // The first run's artifacts can go (retention): the reused copy does not depend on them.
    fs.rmSync(first.artifactDir, { recursive: true, force: true });
    const third = await cached.verify(request);
    expect(real.calls).toBe(1);
    expect(fs.readFileSync(third.logPath, 'utf8')).toContain('value wrong');
    expect(repo.git('status', '--porcelain')).toBe('');
  });

  it('runs again for a changed tracked file, a new untracked file, a deleted file or another command', async () => {
    const { repo, store, request, real } = setup();
    const cached = new VerificationCache(store).wrap(real.verify);
    await cached.verify(request);
    repo.write('value.txt', 'right\n');
    expect((await cached.verify(request)).status).toBe('PASS');
    repo.write('stray.js', 'module.exports = 1;\n');
    await cached.verify(request);
    fs.rmSync(path.join(repo.dir, 'stray.js'));
    fs.rmSync(path.join(repo.dir, '.gitignore'));
    await cached.verify(request);
    await cached.verify({ ...request, argv: ['node', 'check.js', '--again'] });
    expect(real.calls).toBe(5);
    // Back to a tree seen before: reused, with that tree's verdict.
    fs.writeFileSync(path.join(repo.dir, '.gitignore'), 'node_modules/\n');
    expect((await cached.verify(request)).status).toBe('PASS');
    expect(real.calls).toBe(5);
    expect(cached.stats).toEqual({ ran: 5, reused: 1 });
  });

  it('ignores what .gitignore hides (a setup folder) but not a committed change', async () => {
    const { repo, store, request } = setup();
    const before = await verificationKey(request, store);
    repo.write('node_modules/pkg/index.js', 'x\n');
    expect(await verificationKey(request, store)).toBe(before);
    repo.write('value.txt', 'right\n');
    const changed = await verificationKey(request, store);
    repo.commitAll('fix');
    expect(await verificationKey(request, store)).toBe(changed);
    expect(changed).not.toBe(before);
  });

  it('never reuses a timed-out result, and runs for real when the request names a commit the tree is not at', async () => {
    const { repo, store, request, real } = setup();
    const cached = new VerificationCache(store).wrap(real.verify);
    repo.write('check.js', 'setTimeout(() => {}, 60_000);\n');
    const slow = { ...request, timeoutMs: 300 };
    expect((await cached.verify(slow)).timedOut).toBe(true);
    await cached.verify(slow);
    expect(real.calls).toBe(2);
    const head = repo.git('rev-parse', 'HEAD');
    expect(await verificationKey({ ...request, commit: head }, store)).not.toBeNull();
    expect(await verificationKey({ ...request, commit: '0'.repeat(40) }, store)).toBeNull();
  });

  it('keys a linked worktree by its own index and the repository it belongs to', async () => {
    const { repo, store, request } = setup();
    const linked = path.join(makeTempDir('lathe-vcache-wt-'), 'wt');
    cleanup.push(() => fs.rmSync(path.dirname(linked), { recursive: true, force: true }));
    repo.git('worktree', 'add', '--quiet', '-b', 'run', linked);
    const main = await verificationKey(request, store);
    const inLinked = await verificationKey({ ...request, workDir: linked }, store);
    expect(inLinked).toBe(main);
    fs.writeFileSync(path.join(linked, 'value.txt'), 'right\n');
    expect(await verificationKey({ ...request, workDir: linked }, store)).not.toBe(main);
    const other = makeTempRepo({
      files: { 'check.js': CHECK, 'value.txt': 'wrong\n', '.gitignore': 'node_modules/\n' },
    });
    cleanup.push(() => other.remove());
    expect(await verificationKey({ ...request, workDir: other.dir }, store)).not.toBe(main);
  });

  it("runs the judge's bare run of a tree once per process, but again after a timeout, and always without a cache", async () => {
    const cache = new VerificationCache(makeTempDir('lathe-vcache-bare-'));
    let runs = 0;
    const run = (timedOut: boolean) => async () => ({ commit: `c${++runs}`, timed_out: timedOut });
    expect(await reusedBareRun(cache, 'repo\u0000tree1\u0000npm test', run(false))).toEqual({
      commit: 'c1',
      timed_out: false,
    });
    expect(await reusedBareRun(cache, 'repo\u0000tree1\u0000npm test', run(false))).toEqual({
      commit: 'c1',
      timed_out: false,
    });
    expect(await reusedBareRun(cache, 'repo\u0000tree2\u0000npm test', run(true))).toEqual({
      commit: 'c2',
      timed_out: true,
    });
    expect(await reusedBareRun(cache, 'repo\u0000tree2\u0000npm test', run(false))).toEqual({
      commit: 'c3',
      timed_out: false,
    });
    expect(await reusedBareRun(undefined, 'repo\u0000tree1\u0000npm test', run(false))).toEqual({
      commit: 'c4',
      timed_out: false,
    });
    expect(await reusedBareRun(cache, null, run(false))).toEqual({ commit: 'c5', timed_out: false });
  });
});
