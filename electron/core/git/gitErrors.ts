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
