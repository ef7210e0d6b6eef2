import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';

const repos: TempRepo[] = [];
const dirs: string[] = [];
afterEach(() => {
  repos.splice(0).forEach((repo) => repo.remove());
  dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
  vi.resetModules();
  vi.doUnmock('./sandbox');
});

function setup(): { repo: TempRepo; artifacts: string } {
  const repo = makeTempRepo({ files: { 'a.txt': 'a\n' } });
  repos.push(repo);
  const artifacts = makeTempDir('lathe-art-');
  dirs.push(artifacts);
  return { repo, artifacts };
}

/** verify() as on a machine where bubblewrap is refused (AppArmor, macOS, Windows). */
async function verifyWithoutSandbox() {
  vi.doMock('./sandbox', async (original) => ({
    ...(await original<object>()),
    probeSandbox: async () => ({
      available: false,
      detail: 'bubblewrap is refused here (exit 1): setting up uid map: Permission denied',
    }),
  }));
  return (await import('./verify')).verify;
}

describe('when bubblewrap is missing or refused', () => {
  it('auto falls back to a temporary checkout and says why isolation is reduced', async () => {
    const { repo, artifacts } = setup();
    const verify = await verifyWithoutSandbox();
    const result = await verify({
      workDir: repo.dir,
      argv: ['/bin/sh', '-c', 'echo probe > written.txt'],
      timeoutMs: 20_000,
      artifactRoot: artifacts,
    });
    expect(result).toMatchObject({ status: 'PASS', isolation: { level: 'checkout' } });
    expect(result.isolation.detail).toContain('Permission denied');
    // The write landed in the throwaway checkout, not in the repository.
    expect(fs.existsSync(`${repo.dir}/written.txt`)).toBe(false);
  });

  it('a forced bwrap isolation reports INFRA_ERROR instead of running unsandboxed', async () => {
    const { repo, artifacts } = setup();
    const verify = await verifyWithoutSandbox();
    const result = await verify({
      workDir: repo.dir,
      argv: ['/bin/sh', '-c', 'echo probe > written.txt'],
      timeoutMs: 20_000,
      artifactRoot: artifacts,
      isolation: 'bwrap',
    });
    expect(result).toMatchObject({ status: 'INFRA_ERROR', isolation: { level: 'bwrap' }, exitCode: null });
    expect(result.reason).toMatch(/sandbox is not available/);
  });
});

describe('cancellation', () => {
  it('an aborted run is stopped and reported as INFRA_ERROR', async () => {
    const { repo, artifacts } = setup();
    const { verify } = await import('./verify');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const result = await verify({
      workDir: repo.dir,
      argv: [process.execPath, '-e', 'setInterval(() => {}, 1000)'],
      timeoutMs: 30_000,
      artifactRoot: artifacts,
      signal: controller.signal,
    });
    expect(result).toMatchObject({
      status: 'INFRA_ERROR',
      timedOut: false,
      reason: expect.stringContaining('cancelled'),
    });
    expect(result.durationMs).toBeLessThan(10_000);
  });
});
