import fs from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import type { RepoContext } from './repoContext';

/** Uncommitted paths of a whole work tree by native git (fast): modified, staged, untracked; not ignored. */
export async function nativeDirtyPaths(context: RepoContext, workTree: string, paths?: string[]): Promise<string[]> {
  const args = ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames'];
  if (paths?.length === 0) return [];
  // Literal pathspecs (GIT_LITERAL_PATHSPECS), in chunks so a long list never exceeds the argv limit.
  const chunks = paths ? Array.from({ length: Math.ceil(paths.length / 500) }, (_, index) => paths.slice(index * 500, index * 500 + 500)) : [null];
  const found: string[] = [];
  for (const chunk of chunks) {
    const result = await context.git(workTree, chunk ? [...args, '--', ...chunk] : args);
    for (const record of result.stdout.split('\0')) if (record.length > 3) found.push(record.slice(3));
  }
  return found.sort();
}

/**
 * isomorphic-git's status, scoped to `paths`: its whole-tree statusMatrix is far slower than native
 * git on big repositories, so callers always name the paths (the run's touched ones).
 */
export async function isoDirtyPaths(context: RepoContext, workTree: string, paths: string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  const matrix = await git.statusMatrix({ ...context.iso, dir: workTree, gitdir: context.dirs.gitDir, filepaths: paths });
  return matrix
    .filter(([, head, workdir, stage]) => !(head === 1 && workdir === 1 && stage === 1))
    .map(([filepath]) => filepath)
    .sort();
}

/** Whole-tree status: native when installed; without it, isomorphic-git once (preflight only). */
export async function dirtyPathsOf(context: RepoContext, workTree: string): Promise<string[]> {
  if (context.native) return nativeDirtyPaths(context, workTree);
  const matrix = await git.statusMatrix({ ...context.iso, dir: workTree, gitdir: context.dirs.gitDir });
  return matrix
    .filter(([, head, workdir, stage]) => !(head === 1 && workdir === 1 && stage === 1))
    .map(([filepath]) => filepath)
    .sort();
}

/**
 * Candidates for "changed by a command since the run started" without a whole-tree status: files
 * modified after `sinceMs` (ignored folders and .git skipped) plus tracked files now missing.
 */
export async function pathsTouchedSince(context: RepoContext, workTree: string, sinceMs: number): Promise<string[]> {
  const found = new Set<string>();
  const tracked = await git.listFiles({ ...context.iso, dir: workTree, gitdir: context.dirs.gitDir });
  const walk = async (relative: string): Promise<void> => {
    const entries = await fs.promises.readdir(path.join(workTree, relative), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (!relative && (entry.name === '.git' || entry.name === '.lathe')) continue;
      if (entry.isDirectory()) {
        if (await git.isIgnored({ ...context.iso, dir: workTree, gitdir: context.dirs.gitDir, filepath: child })) continue;
        await walk(child);
      } else {
        const stat = await fs.promises.lstat(path.join(workTree, child)).catch(() => null);
        if (stat && Math.max(stat.mtimeMs, stat.ctimeMs) >= sinceMs) found.add(child);
      }
    }
  };
  await walk('');
  for (const file of tracked) {
    if (!(await fs.promises.lstat(path.join(workTree, file)).catch(() => null))) found.add(file);
  }
  return [...found].sort();
}
