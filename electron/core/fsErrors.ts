import path from 'node:path';
import { isLatheError, LatheError } from '../../shared/errors';

/**
 * The file (or a folder on its way) is not there: ENOENT, or ENOTDIR when a file stands where a folder
 * should be. Every other failure (EACCES, EIO, EMFILE, …) means it exists but could not be read, and
 * must not be taken for absence: an edit planned against "no file" would overwrite one.
 */
export function isMissing(error: unknown): boolean {
  const code = errnoOf(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** The errno code (ENOENT, EACCES, ESRCH…) a Node call failed with, or null for any other error. */
export function errnoOf(error: unknown): string | null {
  const code =
    typeof error === 'object' && error !== null && 'code' in error ? (error as { code: unknown }).code : undefined;
  return typeof code === 'string' ? code : null;
}

/**
 * A `.catch` handler for a read that may find nothing: `fallback` when the file is not there
 * (`isMissing`), and any other failure rethrown — as FILE_UNREADABLE naming `path` when one is given —
 * so "cannot read" never passes for "not there".
 */
export function whenMissing<T>(fallback: T, path?: string): (error: unknown) => T {
  return (error) => {
    if (isMissing(error)) return fallback;
    throw path === undefined ? error : unreadable(path, error);
  };
}

/** A `.catch` handler that expects only the errno codes named (EEXIST, ENOTEMPTY…): `fallback` for those, any other rethrown. */
export function whenErrno<T>(codes: readonly string[], fallback: T): (error: unknown) => T {
  return (error) => {
    const code = errnoOf(error);
    if (code !== null && codes.includes(code)) return fallback;
    throw error;
  };
}

/** The error for a file that exists but could not be read or listed. */
export function unreadable(path: string, error: unknown): LatheError {
  const code =
    typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : null;
  return new LatheError(
    'FILE_UNREADABLE',
    `${path} exists but could not be read: ${error instanceof Error ? error.message : String(error)}`,
    { path, errno: code },
  );
}

/** What git (or a tool) prints when a write found no space: its own words, in C and in English locales. */
const NO_SPACE = /No space left on device|Out of diskspace|Disk quota exceeded|ENOSPC|EDQUOT/i;

/**
 * The disk is full: ENOSPC or EDQUOT from a Node call, a LatheError already saying so, or native git
 * failing with "No space left on device" (GIT_FAILED with git's stderr).
 */
export function isDiskFull(error: unknown): boolean {
  if (isLatheError(error, 'DISK_FULL')) return true;
  const code =
    typeof error === 'object' && error !== null && 'code' in error ? (error as { code: unknown }).code : undefined;
  if (code === 'ENOSPC' || code === 'EDQUOT') return true;
  return isLatheError(error, 'GIT_FAILED') && NO_SPACE.test(String(error.data?.stderr ?? error.message));
}

/**
 * DISK_FULL naming the folder on the full disk: the folder of the file a Node call was writing, else
 * where native git ran, else `fallback`. An error that already is DISK_FULL is kept as it is.
 */
export function diskFull(error: unknown, fallback: string): LatheError {
  if (isLatheError(error, 'DISK_FULL')) return error;
  const file =
    typeof error === 'object' && error !== null && 'path' in error ? (error as { path: unknown }).path : undefined;
  const git = isLatheError(error, 'GIT_FAILED') ? error.data : undefined;
  // git names the file it could not write ("could not write to '/…/.git'"): its folder is on the full disk, not where git ran.
  const named = /'(\/[^']+)'/.exec(String(git?.stderr ?? ''))?.[1];
  const folder =
    typeof file === 'string'
      ? path.dirname(file)
      : named
        ? path.dirname(named)
        : typeof git?.cwd === 'string'
          ? git.cwd
          : fallback;
  const cause = error instanceof Error ? error.message.split('\n')[0]?.slice(0, 300) : String(error);
  return new LatheError('DISK_FULL', `the disk holding ${folder} is full (${cause}); free some space there`, {
    folder,
    cause,
  });
}
