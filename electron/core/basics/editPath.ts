import path from 'node:path';
import { LIMITS } from '../../../shared/schemas/agents/bounds';
import { rejectEdit } from './rejection';

function hasControlChar(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 32 || code === 127) return true;
  }
  return false;
}
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** `.git`, and the names Windows and macOS treat as `.git` (`.GIT`, `.git.`, `.git `). */
const GIT_SEGMENT = /^\.git[. ]*$/i;

/**
 * Lexical checks of one repo-relative path; returns it normalized (`a/./b` → `a/b`). The symlink
 * check needs the disk and lives in `symlinks.ts`.
 */
export function normalizeEditPath(raw: string): string {
  const shown = raw.slice(0, LIMITS.path);
  if (typeof raw !== 'string' || raw.length === 0) throw rejectEdit('invalid-path', shown, 'empty path');
  if (raw.length > LIMITS.path) throw rejectEdit('invalid-path', shown, `path longer than ${LIMITS.path} characters`);
  if (hasControlChar(raw)) throw rejectEdit('invalid-path', shown, 'control character in path');
  // `\udce9` in JSON is no character: on disk it would be U+FFFD, in the commit a raw byte (shared/gitPath.ts).
  if (LONE_SURROGATE.test(raw))
    throw rejectEdit(
      'invalid-path',
      shown,
      'a lone \\uD800-\\uDFFF escape in path is not a character; write the name in plain UTF-8',
    );
  if (raw.startsWith('/') || raw.startsWith('~') || /^[A-Za-z]:/.test(raw) || raw.startsWith('\\\\')) {
    throw rejectEdit('absolute-path', shown, 'absolute paths are not allowed; use a path relative to the repository');
  }
  if (raw.includes('\\')) throw rejectEdit('invalid-path', shown, 'backslash in path; use forward slashes');
  if (raw.endsWith('/')) throw rejectEdit('invalid-path', shown, 'path names a folder, not a file');
  const normalized = path.posix.normalize(raw).replace(/^(\.\/)+/, '');
  if (normalized === '..' || normalized.startsWith('../'))
    throw rejectEdit('escapes-repo', shown, 'path leaves the repository');
  if (normalized === '.' || normalized === '')
    throw rejectEdit('invalid-path', shown, 'path names the repository itself');
  const segments = normalized.split('/');
  if (segments.some((segment) => GIT_SEGMENT.test(segment)))
    throw rejectEdit('git-dir', normalized, 'nothing under .git/ may be written');
  if (segments[0]?.toLowerCase() === '.lathe')
    throw rejectEdit('lathe-dir', normalized, "nothing under .lathe/ (Lathe's run store) may be written");
  return normalized;
}
