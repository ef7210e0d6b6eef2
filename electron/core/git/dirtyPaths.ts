import git from 'isomorphic-git';
import { fastDirtyPaths } from './fastStatus';
import { gitError } from './gitErrors';
import { hasRawBytes } from '../../../shared/gitPath';
import type { RepoContext } from './repoContext';

/** Uncommitted paths of a whole work tree by native git (fast): modified, staged, untracked; not ignored. */
export async function nativeDirtyPaths(context: RepoContext, workTree: string, paths?: string[]): Promise<string[]> {
  const args = ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames'];
  if (paths?.length === 0) return [];
  // A name that is not UTF-8 cannot be an argument (shared/gitPath.ts): then the whole tree's status, filtered.
  if (paths?.some(hasRawBytes)) {
    const wanted = new Set(paths);
    return (await nativeDirtyPaths(context, workTree)).filter((file) => wanted.has(file));
  }
  // Literal pathspecs (GIT_LITERAL_PATHSPECS), in chunks so a long list never exceeds the argv limit.
  const chunks = paths
    ? Array.from({ length: Math.ceil(paths.length / 500) }, (_, index) => paths.slice(index * 500, index * 500 + 500))
    : [null];
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
  const matrix = await git.statusMatrix({
    ...context.iso,
    dir: workTree,
    gitdir: context.dirs.gitDir,
    filepaths: paths,
  });
  return matrix
    .filter(([, head, workdir, stage]) => !(head === 1 && workdir === 1 && stage === 1))
    .map(([filepath]) => filepath)
    .sort();
}

/** Lathe's own folder (runs, knowledge notes) is never a user change, even before it is excluded. */
const isLatheOwn = (path: string) => path === '.lathe' || path.startsWith('.lathe/');

/** Whole-tree status: native git when installed, else Lathe's own index-stat comparison (never a whole-tree statusMatrix). */
export async function dirtyPathsOf(
  context: RepoContext,
  workTree: string,
  headCommit: string | null,
): Promise<string[]> {
  if (context.native) return (await nativeDirtyPaths(context, workTree)).filter((path) => !isLatheOwn(path));
  const fast = await fastDirtyPaths(context, workTree, headCommit);
  if (fast) return fast.filter((path) => !isLatheOwn(path));
  throw gitError('ISOMORPHIC_UNSAFE', 'the index format cannot be read without the git command line', { workTree });
}
