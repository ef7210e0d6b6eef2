import fs from 'node:fs';
import git, { type PromiseFsClient } from 'isomorphic-git';
import { localFs } from './localFs';
import { resolveGitDirs, type GitDirs } from './gitDirs';
import { isoCacheFor } from './isoCache';
import { nativeGitVersion, runNativeGit, type NativeGitResult } from './nativeGit';
import { checkNative, isGitNotFound } from './gitErrors';
import { whenMissing } from '../fsErrors';

/** What every facade call needs about one repository: its dirs, the shared cache and native git. */
export interface RepoContext {
  repoRoot: string;
  dirs: GitDirs;
  cache: object;
  native: string | null;
  /** isomorphic-git's common arguments: objects and refs live in the common dir. */
  iso: { fs: PromiseFsClient; gitdir: string; cache: object };
  /** Runs native git (must be installed) and throws GIT_FAILED on a non-zero exit. */
  git(
    cwd: string,
    args: readonly string[],
    options?: { input?: string; allowFailure?: boolean; literalPathspecs?: boolean },
  ): Promise<NativeGitResult>;
}

/** Hooks, filters and every other program the repository's config names are off in runNativeGit itself. */
const NATIVE_PREFIX = ['-c', 'core.quotePath=false'] as const;
const NATIVE_ENV = { GIT_LITERAL_PATHSPECS: '1', GIT_OPTIONAL_LOCKS: '0' };

export async function openRepo(repoRoot: string, options: { useNative: boolean }): Promise<RepoContext> {
  const dirs = await resolveGitDirs(repoRoot);
  const cache = isoCacheFor(dirs.commonDir);
  const native = options.useNative ? await nativeGitVersion() : null;
  return {
    repoRoot,
    dirs,
    cache,
    native,
    iso: { fs: localFs, gitdir: dirs.commonDir, cache },
    async git(cwd, args, gitOptions = {}) {
      const full = [...NATIVE_PREFIX, ...args];
      const env = gitOptions.literalPathspecs === false ? { ...NATIVE_ENV, GIT_LITERAL_PATHSPECS: '0' } : NATIVE_ENV;
      const result = await runNativeGit(cwd, full, { input: gitOptions.input, env });
      return gitOptions.allowFailure ? result : checkNative(result, args, cwd);
    },
  };
}

export async function resolveBranch(context: RepoContext, branch: string): Promise<string | null> {
  try {
    return await git.resolveRef({ ...context.iso, ref: `refs/heads/${branch}` });
  } catch (error) {
    if (!isGitNotFound(error)) throw error;
    return null;
  }
}

/** HEAD of a work tree: the branch it names (null when detached) and the commit (null when unborn). */
export async function readHeadOf(
  context: RepoContext,
  gitDir: string,
): Promise<{ branch: string | null; head: string | null }> {
  const text = (await fs.promises.readFile(`${gitDir}/HEAD`, 'utf8').catch(whenMissing(''))).trim();
  const symbolic = /^ref: refs\/heads\/(.+)$/.exec(text);
  if (symbolic) return { branch: symbolic[1] as string, head: await resolveBranch(context, symbolic[1] as string) };
  return { branch: null, head: /^[0-9a-f]{40,64}$/.test(text) ? text : null };
}
