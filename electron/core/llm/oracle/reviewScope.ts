import { parsePatch } from 'diff';
import type { GoldPatch } from './goldPatch';

const lineSpan = (start: number, count: number) =>
  count <= 1 ? `line ${start}` : `lines ${start}-${start + count - 1}`;
const bare = (line: string) => line.replace(/\r?\n$/, '').trimEnd();

/**
 * The hunks of a reviewed diff that are not the gold change: a perfect reviewer knows the fix and
 * rejects anything else it sees — a file the fix does not touch, or lines it neither removes nor
 * writes. Each is named by its file and its lines in the file before the change.
 */
export function foreignHunks(diff: string, gold: GoldPatch): string[] {
  let patches;
  try {
    patches = parsePatch(diff);
  } catch {
    // catch-ok: a diff that does not parse has no hunks to judge
    return [];
  }
  const byPath = new Map(gold.files.map((file) => [file.path, file]));
  const found: string[] = [];
  for (const patch of patches) {
    const path = (
      patch.newFileName && patch.newFileName !== '/dev/null' ? patch.newFileName : (patch.oldFileName ?? '')
    ).replace(/^[ab]\//, '');
    if (!path) continue;
    const file = byPath.get(path);
    for (const hunk of patch.hunks) {
      const removed = hunk.lines.filter((line) => line.startsWith('-')).map((line) => bare(line.slice(1)));
      const added = hunk.lines.filter((line) => line.startsWith('+')).map((line) => bare(line.slice(1)));
      if (removed.length === 0 && added.length === 0) continue;
      const where = `${path} ${lineSpan(hunk.oldStart, Math.max(1, hunk.oldLines))} of the file before the change`;
      if (!file) {
        found.push(`${where}: the fix does not touch ${path}`);
        continue;
      }
      const goldBefore = new Set(file.hunks.flatMap((gh) => gh.before.map(bare)));
      const goldAfter = new Set(file.hunks.flatMap((gh) => gh.after.map(bare)));
      const stray = [
        ...removed.filter((line) => !goldBefore.has(line)),
        ...added.filter((line) => !goldAfter.has(line)),
      ];
      if (stray.length > 0)
        found.push(`${where}: not part of the fix (${JSON.stringify(stray[0]?.trim().slice(0, 60) ?? '')})`);
    }
  }
  return found;
}
