import path from 'node:path';
import { LatheError } from '../../../shared/errors';
import { runNativeGit } from '../git/nativeGit';

/** Files package managers and toolchains rewrite on an install; restoring one undoes no work of the setup's. */
const LOCKFILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'bun.lock',
  'Cargo.lock',
  'go.sum',
  'poetry.lock',
  'Pipfile.lock',
  'uv.lock',
  'pdm.lock',
  'pixi.lock',
  'composer.lock',
  'Gemfile.lock',
]);

export const isLockfile = (file: string): boolean => LOCKFILES.has(path.posix.basename(file));

export interface SetupChanges {
  /** Tracked files the setup changed, deleted or staged. */
  tracked: string[];
  /** New files the repository does not ignore. */
  untracked: string[];
}

/** What a setup left in a work tree that git sees: changed tracked files, and new files not ignored. */
export async function setupChanges(dir: string): Promise<SetupChanges> {
  const status = await runNativeGit(dir, ['status', '--porcelain=v1', '-z', '--untracked-files=normal']);
  if (status.code !== 0)
    throw new LatheError('GIT_FAILED', `git status failed after the setup: ${status.stderr.trim().slice(0, 500)}`, {
      path: dir,
    });
  const tracked: string[] = [];
  const untracked: string[] = [];
  const records = status.stdout.split('\0');
  for (let index = 0; index < records.length; index++) {
    const record = records[index];
    if (!record) continue;
    const code = record.slice(0, 2);
    const file = record.slice(3);
    if (code === '??') untracked.push(file.replace(/\/$/, ''));
    else tracked.push(file);
    // A rename carries its source as the next record: that path changed too.
    if (code.includes('R') || code.includes('C')) {
      const source = records[++index];
      if (source) tracked.push(source);
    }
  }
  return { tracked, untracked };
}

/**
 * Puts tracked files back as HEAD has them (index and work tree): a lockfile the installer rewrote,
 * or anything else a setup changed, so the run starts from its base and nothing of it is committed.
 * A file the setup staged that HEAD lacks is unstaged (it stays, untracked).
 */
export async function restoreTracked(dir: string, files: string[]): Promise<void> {
  if (files.length === 0) return;
  const inHead = await runNativeGit(dir, ['ls-tree', '-z', '--name-only', 'HEAD', '--', ...files]);
  if (inHead.code !== 0)
    throw new LatheError('GIT_FAILED', `git ls-tree failed: ${inHead.stderr.trim().slice(0, 500)}`, { path: dir });
  const known = new Set(inHead.stdout.split('\0').filter(Boolean));
  const restore = files.filter((file) => known.has(file));
  const unstage = files.filter((file) => !known.has(file));
  for (const [args, list] of [
    [['checkout', '-q', 'HEAD', '--'], restore],
    [['reset', '-q', 'HEAD', '--'], unstage],
  ] as const) {
    if (list.length === 0) continue;
    const result = await runNativeGit(dir, [...args, ...list]);
    if (result.code !== 0)
      throw new LatheError(
        'GIT_FAILED',
        `could not restore what the setup changed (${list.join(', ')}): ${result.stderr.trim().slice(0, 500)}`,
        { path: dir },
      );
  }
}

/** The setup's tracked changes in words, lockfiles first: `restored package-lock.json (the installer rewrote it)`. */
export function describeRestored(files: string[]): string {
  const locks = files.filter(isLockfile);
  const others = files.filter((file) => !isLockfile(file));
  return [
    ...(locks.length
      ? [`restored ${locks.join(', ')} (the installer rewrote ${locks.length === 1 ? 'it' : 'them'})`]
      : []),
    ...(others.length
      ? [
          `restored ${others.join(', ')}: the setup changed tracked files, which a run must start without (write generated files where git ignores them)`,
        ]
      : []),
  ].join('; ');
}
