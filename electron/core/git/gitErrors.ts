import { LatheError, type GitErrorReason } from '../../../shared/errors';
import type { NativeGitResult } from './nativeGit';

/** Every git failure of the facade: `GIT_<REASON>` with plain data. */
export function gitError(reason: GitErrorReason, message: string, data: Record<string, unknown> = {}): LatheError {
  return new LatheError(`GIT_${reason}`, message, data);
}

/** Throws GIT_FAILED with the command and git's own words when a native call failed. */
export function checkNative(result: NativeGitResult, args: readonly string[], cwd: string): NativeGitResult {
  if (result.code === 0) return result;
  const stderr = result.stderr.trim().slice(0, 1000);
  throw gitError('FAILED', `git ${args.slice(0, 3).join(' ')} failed: ${stderr || `exit ${result.code}`}`, {
    args: [...args].slice(0, 20),
    cwd,
    exitCode: result.code,
    stderr,
  });
}

/** isomorphic-git found no such ref, object or repository (its NotFoundError): the failure a lookup may expect. */
export function isGitNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'NotFoundError';
}

/** A `.catch` handler for a lookup that may find nothing: `fallback` on NotFoundError, anything else rethrown. */
export function whenGitNotFound<T>(fallback: T): (error: unknown) => T {
  return (error) => {
    if (isGitNotFound(error)) return fallback;
    throw error;
  };
}
