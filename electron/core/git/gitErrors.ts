import { LatheError, type GitErrorReason } from '../../../shared/errors';
import type { NativeGitResult } from './nativeGit';

/** The failures git shares with the rest of the core, under their one name (shared/errors.ts). */
type SharedReason = 'DIRTY_WORKTREE' | 'INVALID_PATH' | 'ISOMORPHIC_UNSAFE';
const SHARED_REASONS = new Set<string>([
  'DIRTY_WORKTREE',
  'INVALID_PATH',
  'ISOMORPHIC_UNSAFE',
] satisfies SharedReason[]);

/** Every git failure of the facade: `GIT_<REASON>` (or a shared reason's plain name) with plain data. */
export function gitError(
  reason: GitErrorReason | SharedReason,
  message: string,
  data: Record<string, unknown> = {},
): LatheError {
  return new LatheError(
    SHARED_REASONS.has(reason) ? (reason as SharedReason) : `GIT_${reason as GitErrorReason}`,
    message,
    data,
  );
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
