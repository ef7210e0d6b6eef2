import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../test-support/tempRepo';
import { checkShellCommand, DEFAULT_SHELL_ALLOWLIST, runShellCommand } from './shell';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

// docs/seeds.md 1.10: seed 001's ShellTool allowlist
describe('checkShellCommand', () => {
  it("allows seed 001's commands by argv prefix", () => {
    expect(DEFAULT_SHELL_ALLOWLIST.map((rule) => rule.join(' '))).toEqual([
      'pytest',
      'npm test',
      'git',
      'pip',
      'npm',
      'make',
    ]);
    expect(checkShellCommand(['pytest', '-q'], DEFAULT_SHELL_ALLOWLIST)).toEqual({ allowed: true, rule: ['pytest'] });
    expect(checkShellCommand(['git', 'status'], DEFAULT_SHELL_ALLOWLIST)).toMatchObject({ allowed: true });
    expect(checkShellCommand(['make', 'test'], [['make', 'test']])).toMatchObject({ allowed: true });
    expect(checkShellCommand(['make', 'install'], [['make', 'test']])).toMatchObject({ allowed: false });
  });

  it('rejects other programs, paths posing as allowed names, shell strings and git option tricks', () => {
    expect(checkShellCommand(['rm', '-rf', '/'], DEFAULT_SHELL_ALLOWLIST)).toMatchObject({
      allowed: false,
      command: 'rm -rf /',
    });
    expect(checkShellCommand(['./git', 'status'], DEFAULT_SHELL_ALLOWLIST)).toMatchObject({ allowed: false });
    expect(checkShellCommand(['/tmp/evil/pytest'], DEFAULT_SHELL_ALLOWLIST)).toMatchObject({ allowed: false });
    expect(checkShellCommand(['pytest -q; rm -rf ~'], DEFAULT_SHELL_ALLOWLIST)).toMatchObject({ allowed: false });
    expect(checkShellCommand(['sh', '-c', 'pytest'], DEFAULT_SHELL_ALLOWLIST)).toMatchObject({ allowed: false });
    expect(checkShellCommand(['git', '-c', 'core.pager=sh -c x', 'log'], DEFAULT_SHELL_ALLOWLIST)).toMatchObject({
      allowed: false,
    });
    expect(checkShellCommand(['git', 'rebase', '-x', 'sh evil.sh', 'HEAD~1'], DEFAULT_SHELL_ALLOWLIST)).toMatchObject({
      allowed: false,
    });
    expect(checkShellCommand(['git', 'submodule', 'foreach', 'rm -rf /'], DEFAULT_SHELL_ALLOWLIST)).toMatchObject({
      allowed: false,
    });
    expect(checkShellCommand(['git', 'config', 'alias.x', '!sh'], DEFAULT_SHELL_ALLOWLIST)).toMatchObject({
      allowed: false,
    });
    expect(checkShellCommand(['git', 'config', '--get', 'user.name'], DEFAULT_SHELL_ALLOWLIST)).toMatchObject({
      allowed: true,
    });
    expect(checkShellCommand(['git', 'add', '-u'], DEFAULT_SHELL_ALLOWLIST)).toMatchObject({ allowed: true });
    expect(checkShellCommand([], DEFAULT_SHELL_ALLOWLIST)).toMatchObject({ allowed: false });
  });
});

describe('runShellCommand', () => {
  it('runs an allowed command without a shell and reports its output and exit code', async () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const result = await runShellCommand(['git', 'init', '--quiet', 'sub'], { cwd: dir, timeoutMs: 20_000 });
    expect(result).toMatchObject({ argv: ['git', 'init', '--quiet', 'sub'], exitCode: 0, timedOut: false });
    expect(fs.existsSync(`${dir}/sub/.git`)).toBe(true);
    const failing = await runShellCommand(['git', 'no-such-subcommand'], { cwd: dir, timeoutMs: 20_000 });
    expect(failing.exitCode).not.toBe(0);
    expect(failing.output).toMatch(/not a git command/);
  });

  it('rejects a command off the allowlist with COMMAND_NOT_ALLOWED naming it, running nothing', async () => {
    const dir = makeTempDir();
    dirs.push(dir);
    await expect(runShellCommand(['touch', 'made.txt'], { cwd: dir, timeoutMs: 5000 })).rejects.toMatchObject({
      code: 'COMMAND_NOT_ALLOWED',
      message: expect.stringContaining('touch made.txt'),
      data: { command: 'touch made.txt' },
    });
    expect(fs.existsSync(`${dir}/made.txt`)).toBe(false);
  });

  it('kills a command at its timeout', async () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const result = await runShellCommand([process.execPath, '-e', 'setInterval(() => {}, 1000)'], {
      cwd: dir,
      timeoutMs: 500,
      allowlist: [[process.execPath]],
    });
    expect(result).toMatchObject({ timedOut: true, exitCode: null });
  });
});
