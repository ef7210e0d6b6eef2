import fs from 'node:fs';

/** Less free than this is a full disk: a suite that filled it, or a machine Lathe cannot record a run on. */
export const FULL_BELOW_BYTES = 1024 * 1024;

/**
 * The first of `folders` whose file system has less than FULL_BELOW_BYTES available to an ordinary
 * user (`bavail`: root's reserved blocks do not count), or null. A folder that cannot be asked is
 * skipped: this only tells a full disk from a failing test.
 */
export function fullDiskAmong(folders: readonly string[]): string | null {
  for (const folder of folders) {
    let stats: fs.StatsFs;
    try {
      stats = fs.statfsSync(folder);
    } catch {
      // catch-ok: Gone, or not a folder statfs can ask about: no answer is no evidence of a full disk.
      continue;
    }
    if (stats.bavail * stats.bsize < FULL_BELOW_BYTES) return folder;
  }
  return null;
}
