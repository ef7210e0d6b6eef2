import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeExampleRepo } from '../../../test-support/exampleRepo';
import { writeTinyModel } from '../../../test-support/gguf/fixtures';
import { TINY_LLAMA } from '../../../test-support/gguf/index';
import { LATHE_BIN } from '../../../test-support/runCli';
import { makeTempDir } from '../../../test-support/tempRepo';

const scratch = makeTempDir('lathe-offline-');
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Runs a command in a new network namespace: only a loopback interface, nothing can leave. */
function offline(args: string[], cwd = process.cwd()) {
  const asRoot = process.getuid?.() === 0;
  const prefix = asRoot ? ['unshare', '-n', '--'] : ['unshare', '-rn', '--'];
  return spawnSync(prefix[0] as string, [...prefix.slice(1), ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 180_000,
    env: { ...process.env, LATHE_HOME: path.join(scratch, 'home') },
  });
}

describe('offline proof: runs inside a network namespace with only loopback', () => {
  it('has no network interface but lo in the namespace', () => {
    // /proc/net/dev lists the interfaces of the reading process's own namespace.
    const probe = offline(['cat', '/proc/net/dev']);
    expect(probe.status).toBe(0);
    const interfaces = probe.stdout
      .split('\n')
      .slice(2)
      .map((line) => line.split(':')[0]?.trim())
      .filter(Boolean);
    expect(interfaces).toEqual(['lo']);
  });

  it('runs the whole replay demo', () => {
    const result = offline([
      process.execPath,
      LATHE_BIN,
      'demo',
      '--workflow',
      'supervised',
      '--dir',
      path.join(scratch, 'demo'),
    ]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('✔ complete (exit 0)');
    // The run's totals (issue 28): the replay's tokens are estimates, and say so.
    expect(result.stdout).toMatch(
      /^tokens: [\d,]+ prompt \([\d,]+ cached, [\d,]+ new\) · [\d,]+ generated \(estimated\) · elapsed [\d.]+ s$/m,
    );
  });

  it('runs a real GGUF model end to end (generated tiny model: goal not met, clean exit 1)', () => {
    const { modelPath } = writeTinyModel(path.join(scratch, 'models'), 'tiny.gguf', {
      ...TINY_LLAMA,
      contextLength: 8192,
    });
    const repo = makeExampleRepo('js-stats');
    const config = path.join(scratch, 'tiny.yaml');
    fs.writeFileSync(
      config,
      `agents:\n  default: { model: "llama:${modelPath}", context_size: 8192, max_tokens: 800 }\n`,
    );
    const result = offline([
      process.execPath,
      LATHE_BIN,
      'run',
      '--repo',
      repo.dir,
      '--goal',
      'fix median',
      '--config',
      config,
      '--threads',
      '1',
      '--json',
    ]);
    const summary = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as {
      status?: string;
      exit_code?: number;
    };
    expect(result.status, result.stderr).toBe(1);
    expect(summary).toMatchObject({ status: 'failed', exit_code: 1 });
    expect(result.stdout).toContain('"type":"agent_call"');
    repo.remove();
  });
});
