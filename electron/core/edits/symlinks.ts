import fs from 'node:fs';
import path from 'node:path';
import { isMissing, unreadable } from '../fsErrors';
import { normalizeEditPath } from '../basics/editPath';
import { rejectEdit } from '../basics/rejection';

/** True when `candidate` is `root` or inside it (both absolute, resolved). */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * Walks an already-normalized relative path from the real repo root: every existing component that
 * is a symlink must resolve inside the repo, and the file itself may not be a symlink (a rename
 * would replace the link and a write would follow it). Returns the absolute target path.
 * Synchronous lstat calls: one per path segment on every edit and read, where a thread-pool round
 * trip costs ten times the call (decision 65).
 */
export async function resolveInsideRepo(
  realRoot: string,
  normalized: string,
  options: { forReading?: boolean } = {},
): Promise<string> {
  const segments = normalized.split('/');
  let current = realRoot;
  for (let index = 0; index < segments.length; index++) {
    const next = path.join(current, segments[index] as string);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(next);
    } catch (error) {
      if (!isMissing(error)) throw unreadable(segments.slice(0, index + 1).join('/'), error);
      // The rest of the path does not exist yet: nothing below can be a link.
      return path.join(next, ...segments.slice(index + 1));
    }
    if (stat.isSymbolicLink()) {
      let target: string;
      try {
        target = fs.realpathSync(next);
      } catch (error) {
        if (!isMissing(error)) throw unreadable(segments.slice(0, index + 1).join('/'), error);
        throw rejectEdit('symlink-escape', normalized, 'path goes through a dangling symlink');
      }
      if (!isInside(realRoot, target))
        throw rejectEdit(
          'symlink-escape',
          normalized,
          'path goes through a symlink that points outside the repository',
        );
      const landing = [path.relative(realRoot, target), ...segments.slice(index + 1)].filter(Boolean).join('/');
      try {
        if (landing) normalizeEditPath(landing);
      } catch {
        // catch-ok: any refusal of the landing path means the same: the edit goes through a symlink out of bounds
        throw rejectEdit('symlink-escape', normalized, `path goes through a symlink into ${landing}`);
      }
      if (index === segments.length - 1 && !options.forReading) {
        throw rejectEdit('invalid-path', normalized, 'the file is a symlink; edit the file it points to instead');
      }
      current = target;
      continue;
    }
    if (index < segments.length - 1 && !stat.isDirectory()) {
      throw rejectEdit('invalid-path', normalized, `${segments.slice(0, index + 1).join('/')} is a file, not a folder`);
    }
    if (index === segments.length - 1 && !stat.isFile() && !options.forReading)
      throw rejectEdit('invalid-path', normalized, 'not a regular file');
    current = next;
  }
  return current;
}
