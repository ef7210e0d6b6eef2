import fs from 'node:fs';
import path from 'node:path';
import type { RepoPreflight } from './types';
import { dirtyPathsOf } from './dirtyPaths';
import { isomorphicUnsafeReason, readIndexFormat } from './indexFormat';
import { openRepo, readHeadOf, type RepoContext } from './repoContext';
import { resolveRepoRoot } from './repoStatus';

/** Everything Lathe checks before it touches a repository: HEAD, dirtiness, index format, submodules. */
export async function preflightRepo(
  requested: string,
  options: { useNative: boolean },
): Promise<{ preflight: RepoPreflight; context: RepoContext }> {
  const repoRoot = await resolveRepoRoot(requested);
  const context = await openRepo(repoRoot, options);
  const { branch, head } = await readHeadOf(context, context.dirs.gitDir);
  const index = await readIndexFormat(context.dirs.gitDir, context.dirs.objectFormat);
  const unsafe = isomorphicUnsafeReason(index, context.dirs.objectFormat);
  // isomorphic-git cannot read an index it would misread; with native git the status comes from git itself.
  const dirtyPaths = unsafe && !context.native ? [] : await dirtyPathsOf(context, repoRoot, head);
  const hasSubmodules = index.gitlinks > 0 || fs.existsSync(path.join(repoRoot, '.gitmodules'));
  return {
    context,
    preflight: {
      repoRoot,
      branch,
      head,
      detached: branch === null && head !== null,
      dirtyPaths,
      nativeGit: context.native,
      index: { version: index.version, split: index.split },
      isomorphicUnsafeReason: unsafe,
      hasSubmodules,
    },
  };
}
