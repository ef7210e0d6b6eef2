import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

export function gitIn(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, env: ENV, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim();
}

/** Runs git and returns its exit code and output instead of throwing (fsck, check-ignore). */
export function gitResult(dir: string, ...args: string[]): { code: number; output: string } {
  try {
    return {
      code: 0,
      output: execFileSync('git', args, { cwd: dir, env: ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
    };
  } catch (error) {
    const failure = error as { status?: number; stdout?: string; stderr?: string };
    return { code: failure.status ?? 1, output: `${failure.stdout ?? ''}${failure.stderr ?? ''}` };
  }
}

/** Every file under `dir` (`.git` skipped, symlinks as their target text) with a content hash and mode. */
export function workTreeFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (child === '.git') continue;
      const full = path.join(dir, child);
      if (entry.isSymbolicLink()) out[child] = `link:${fs.readlinkSync(full)}`;
      else if (entry.isDirectory()) walk(child);
      else
        out[child] =
          `${(fs.statSync(full).mode & 0o777).toString(8)}:${crypto.createHash('sha1').update(fs.readFileSync(full)).digest('hex')}`;
    }
  };
  walk('');
  return out;
}

/** What "the user's repository is exactly as it was" means: HEAD, refs, index, status and every file. */
export function repoState(dir: string) {
  return {
    head: gitResult(dir, 'symbolic-ref', '-q', 'HEAD').output.trim() || gitIn(dir, 'rev-parse', 'HEAD'),
    headCommit: gitIn(dir, 'rev-parse', 'HEAD'),
    refs: gitIn(dir, 'for-each-ref', '--format=%(refname) %(objectname)'),
    index: gitIn(dir, 'ls-files', '--stage'),
    status: gitIn(dir, 'status', '--porcelain=v1', '--untracked-files=all', '--ignored'),
    worktrees: gitIn(dir, 'worktree', 'list', '--porcelain'),
    files: workTreeFiles(dir),
  };
}

/** `git fsck --strict` must print nothing and exit 0 (dangling objects of an undone run are not damage). */
export function fsckStrict(dir: string): { code: number; output: string } {
  return gitResult(dir, 'fsck', '--strict', '--no-progress', '--no-dangling');
}
