import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../test-support/tempRepo';
import type { CliIo } from './command';
import { runCli } from './main';

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((fn) => fn()));

function tempDir(): string {
  const dir = makeTempDir('lathe-not-a-repo-');
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function cli(args: string[], cwd: string): Promise<{ code: number; err: string }> {
  const err: string[] = [];
  const io: CliIo = {
    out: () => undefined,
    err: (line) => err.push(line),
    env: { LATHE_HOME: path.join(cwd, 'home') },
    cwd,
  };
  return { code: await runCli(args, io), err: err.join('\n') };
}

// Issue 29 / docs/cli.md: a missing --repo folder exited 2, a folder outside git 64; both are usage errors.
describe('a --repo that is not a git repository is a usage error (exit 64), in every command', () => {
  const commands: [string, string[]][] = [
    ['run', ['run', '--goal', 'fix median', '--model', 'replay:/none.json']],
    ['runs', ['runs']],
    ['undo', ['undo', '20260101T000000Z']],
    ['diff', ['diff', '20260101T000000Z']],
    ['merge', ['merge', '20260101T000000Z']],
    ['prune', ['prune', '--dry-run']],
  ];

  it.each(commands)('%s: a folder that does not exist', async (_name, args) => {
    const dir = tempDir();
    const missing = path.join(dir, 'no-such-folder');
    const { code, err } = await cli([...args, '--repo', missing], dir);
    expect(code).toBe(64);
    expect(err).toContain(
      `--repo ${missing}: no such folder: ${missing}; give --repo the folder of a git repository [NOT_A_REPO]`,
    );
    expect(fs.existsSync(missing)).toBe(false);
  });

  it.each(commands)('%s: a folder outside any git repository, given or the current one', async (_name, args) => {
    const dir = tempDir();
    const given = await cli([...args, '--repo', dir], dir);
    expect(given.code).toBe(64);
    expect(given.err).toMatch(/--repo .*: not inside a git repository: .*\[NOT_A_REPO\]/);
    const current = await cli(args, dir);
    expect(current.code).toBe(64);
    expect(current.err).toContain('the current folder (no --repo given): not inside a git repository');
  });

  it('eval --corpus of a folder that does not exist', async () => {
    const dir = tempDir();
    const { code, err } = await cli(
      ['eval', '--corpus', path.join(dir, 'none'), '--model', 'oracle:', '--workflow', 'minimal'],
      dir,
    );
    expect(code).toBe(64);
    expect(err).toContain('[BAD_CORPUS]');
  });
});
