import fs from 'node:fs';
import path from 'node:path';

/** Past this many entries the snapshot is not taken: git's own status is then the cheaper look. */
export const MAX_SNAPSHOT_ENTRIES = 20_000;

/** Every entry of a work tree with what changes when it is written: type, mode, size, mtime, ctime, inode. */
export type WorkTreeSnapshot = Map<string, string>;

/**
 * The work tree's entries as the file system sees them, in this process. Folders in `skip` (git data,
 * what the sandbox binds read-only, the caches it lets the commands keep) are not entered; symlinks
 * are recorded, never followed. ctime is in the key as git's own status has it: a suite that rewrites
 * a file and sets its mtime back still moves its ctime, which no unprivileged process can set.
 * Null when the tree is larger than `MAX_SNAPSHOT_ENTRIES` or cannot be read whole.
 */
export function snapshotWorkTree(workDir: string, skip: readonly string[]): WorkTreeSnapshot | null {
  const skipped = new Set(skip.map((entry) => path.resolve(entry)));
  const snapshot: WorkTreeSnapshot = new Map();
  // Relative paths are carried along: path.relative per entry cost more than the stat.
  const folders: { absolute: string; relative: string }[] = [{ absolute: path.resolve(workDir), relative: '' }];
  try {
    for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
      for (const entry of fs.readdirSync(folder.absolute, { withFileTypes: true })) {
        const absolute = `${folder.absolute}${path.sep}${entry.name}`;
        if (skipped.has(absolute)) continue;
        const relative = folder.relative ? `${folder.relative}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          // Its entries are listed; its own times move with them and say nothing more.
          snapshot.set(relative, 'folder');
          folders.push({ absolute, relative });
        } else {
          // Millisecond doubles keep sub-microsecond precision here, and cost half of a bigint stat.
          const stat = fs.lstatSync(absolute);
          snapshot.set(relative, `${stat.mode}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`);
        }
        if (snapshot.size > MAX_SNAPSHOT_ENTRIES) return null;
      }
    }
  } catch {
    // catch-ok: A folder the commands made unreadable, or one removed mid-walk: let git look.
    return null;
  }
  return snapshot;
}

/** True when nothing was added, removed or written between the two snapshots. */
export function sameSnapshot(before: WorkTreeSnapshot, after: WorkTreeSnapshot): boolean {
  if (before.size !== after.size) return false;
  for (const [entry, key] of before) if (after.get(entry) !== key) return false;
  return true;
}
