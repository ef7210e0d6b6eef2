import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLathe } from '../../../test-support/runCli';
import { commands, runCli } from './main';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { out: (line: string) => out.push(line), err: (line: string) => err.push(line), env: {}, cwd: process.cwd() },
    out,
    err,
  };
}

describe('lathe CLI', () => {
  it('prints the command overview and exits 64 without a command', async () => {
    const { io, out } = capture();
    expect(await runCli([], io)).toBe(64);
    expect(out.join('\n')).toMatch(
      /Commands:[\s\S]*run[\s\S]*serve[\s\S]*models[\s\S]*runs[\s\S]*undo[\s\S]*diff[\s\S]*merge[\s\S]*prune/,
    );
    expect(out.join('\n')).toContain(
      'Exit codes: 0 done, 1 goal not met (or a merge the repository refused), 2 git or infrastructure error, 64 usage error.',
    );
  });

  it('exits 64 on an unknown command or an unknown flag', async () => {
    const unknown = capture();
    expect(await runCli(['frobnicate'], unknown.io)).toBe(64);
    expect(unknown.err.join('\n')).toContain("unknown command 'frobnicate'");
    const badFlag = capture();
    expect(await runCli(['serve', '--nope'], badFlag.io)).toBe(64);
    expect(badFlag.err.join('\n')).toMatch(/Unknown option '--nope'[\s\S]*Usage: lathe serve/);
  });

  it('rejects a bad port as a usage error', async () => {
    const { io, err } = capture();
    expect(await runCli(['serve', '--port', '70000'], io)).toBe(64);
    expect(err.join('\n')).toContain('--port must be 0-65535');
  });

  it('lists each command with the name and summary its own module declares', async () => {
    for (const entry of commands) {
      const command = await entry.load();
      expect({ name: command.name, summary: command.summary }).toEqual({ name: entry.name, summary: entry.summary });
    }
  });

  it.each(['run', 'serve', 'models', 'runs', 'undo', 'diff', 'merge', 'prune'])(
    '%s --help prints its usage and exits 0',
    async (name) => {
      const { io, out } = capture();
      expect(await runCli([name, '--help'], io)).toBe(0);
      expect(out.join('\n')).toContain(`Usage: lathe ${name}`);
    },
  );
});

describe('lathe bin', () => {
  it('runs from the package bin and exits with the command status', async () => {
    const result = await runLathe(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: lathe <command>');
  });

  it('is declared as the package bin', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve('package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(pkg.bin.lathe).toBe('bin/lathe.mjs');
  });
});
