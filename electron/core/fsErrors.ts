import { LatheError } from '../../shared/errors';

/**
 * The file (or a folder on its way) is not there: ENOENT, or ENOTDIR when a file stands where a folder
 * should be. Every other failure (EACCES, EIO, EMFILE, …) means it exists but could not be read, and
 * must not be taken for absence: an edit planned against "no file" would overwrite one.
 */
export function isMissing(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? (error as { code: unknown }).code : undefined;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** The error for a file that exists but could not be read or listed. */
export function unreadable(path: string, error: unknown): LatheError {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : null;
  return new LatheError('FILE_UNREADABLE', `${path} exists but could not be read: ${error instanceof Error ? error.message : String(error)}`, { path, errno: code });
}
