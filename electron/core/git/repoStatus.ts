import fs from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import type { RepoStatus } from '../../../shared/schemas/repo';
import { LatheError } from '../../../shared/errors';
import { isMissing, unreadable } from '../fsErrors';
import { isGitNotFound, whenGitNotFound } from './gitErrors';
import { nativeGitVersion, runNativeGit } from './nativeGit';

const MAX_LISTED_CHANGES = 200;

/** Resolves a client-supplied path to the top of its git work tree, or throws NOT_A_REPO / NOT_FOUND. */
export async function resolveRepoRoot(requested: string): Promise<string> {
  const absolute = path.resolve(requested);
  let real: string;
  try {
    real = await fs.promises.realpath(absolute);
  } catch (error) {
    if (!isMissing(error)) throw unreadable(absolute, error);
    throw new LatheError('NOT_FOUND', `no such folder: ${absolute}`, { path: absolute });
  }
  const stat = await fs.promises.stat(real);
  if (!stat.isDirectory()) throw new LatheError('NOT_FOUND', `not a folder: ${real}`, { path: real });
  try {
    return await git.findRoot({ fs, filepath: real });
  } catch (error) {
    if (!isGitNotFound(error)) throw error;
    throw new LatheError('NOT_A_REPO', `not inside a git repository: ${real}`, { path: real });
  }
}

/** Branch, HEAD and uncommitted changes of a work tree; native git when installed (it is much faster). */
export async function readGitStatus(requested: string): Promise<Omit<RepoStatus, 'testCommand' | 'testCommandReason'>> {
  const root = await resolveRepoRoot(requested);
  const base = { path: root, name: path.basename(root) };
  const native = (await nativeGitVersion()) !== null;
  const [branch, head, allChanged] = await Promise.all([
    readBranch(root),
    readHead(root),
    native ? changedPathsNative(root) : changedPathsIsomorphic(root),
  ]);
  // Lathe's own folder (runs, knowledge notes) is not a change of the user's.
  const changed = allChanged.filter((file) => file !== '.lathe' && !file.startsWith('.lathe/'));
  return {
    ...base,
    branch,
    head,
    dirty: changed.length > 0,
    changedFiles: changed.slice(0, MAX_LISTED_CHANGES),
    changedCount: changed.length,
  };
}

/** HEAD followed to the ref it names (depth 2), not the commit, so an unborn branch (no commits yet) still has its name. */
async function readBranch(root: string): Promise<string | null> {
  const target = await git.resolveRef({ fs, dir: root, ref: 'HEAD', depth: 2 }).catch(whenGitNotFound(null));
  return target?.startsWith('refs/heads/') ? target.slice('refs/heads/'.length) : null;
}

async function readHead(root: string): Promise<string | null> {
  try {
    return await git.resolveRef({ fs, dir: root, ref: 'HEAD' });
  } catch (error) {
    // An unborn branch has no commit yet.
    if (isGitNotFound(error)) return null;
    throw error;
  }
}

async function changedPathsNative(root: string): Promise<string[]> {
  const result = await runNativeGit(root, ['status', '--porcelain=v1', '-z', '--untracked-files=all']);
  if (result.code !== 0) {
    throw new LatheError('GIT_FAILED', `git status failed: ${result.stderr.trim().slice(0, 500)}`, { path: root });
  }
  const paths: string[] = [];
  const records = result.stdout.split('\0');
  for (let index = 0; index < records.length; index++) {
    const record = records[index];
    if (!record) continue;
    const status = record.slice(0, 2);
    paths.push(record.slice(3));
    // A rename or copy carries its source path as the next record.
    if (status.includes('R') || status.includes('C')) index++;
  }
  return paths.sort();
}

async function changedPathsIsomorphic(root: string): Promise<string[]> {
  const matrix = await git.statusMatrix({ fs, dir: root });
  return matrix
    .filter(
      ([, headStatus, workdirStatus, stageStatus]) => !(headStatus === 1 && workdirStatus === 1 && stageStatus === 1),
    )
    .map(([filepath]) => filepath)
    .sort();
}
