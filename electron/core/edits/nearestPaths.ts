import path from 'node:path';
import type { WorkspaceReader } from './types';

/** Levenshtein distance, given up (Infinity) past `limit`: only near names matter. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return Infinity;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let row = 1; row <= a.length; row++) {
    const current = [row];
    let best = row;
    for (let column = 1; column <= b.length; column++) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      const value = Math.min(
        (previous[column] as number) + 1,
        (current[column - 1] as number) + 1,
        (previous[column - 1] as number) + cost,
      );
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return Infinity;
    previous = current;
  }
  const distance = previous[b.length] as number;
  return distance > limit ? Infinity : distance;
}

/** Within this many edits a base name is the same name mistyped (`sqls.py` for `sql.py`). */
const nameTypos = (name: string) => Math.max(1, Math.floor(name.length / 5));
/** Within this many edits a whole path is the same path mistyped (`grouping.pyx`); more would offer any sibling (`cli.py` for `sqls.py`). */
const pathTypos = (wanted: string) => Math.max(2, Math.floor(wanted.length / 8));

/**
 * The existing files a wrong path most likely meant, nearest first, at most `limit`: the same file
 * name in another folder, then a mistyped name with the same extension, then any path
 * a few edits away. Empty when nothing is near: the path is then really new.
 */
export function nearestPaths(wanted: string, files: readonly string[], limit = 3): string[] {
  const base = path.posix.basename(wanted).toLowerCase();
  const extension = path.posix.extname(base);
  const scored: { file: string; tier: number; distance: number }[] = [];
  for (const file of files) {
    if (file === wanted) continue;
    const fileBase = path.posix.basename(file).toLowerCase();
    const distance = editDistance(wanted, file, pathTypos(wanted) + base.length);
    if (fileBase === base) scored.push({ file, tier: 0, distance });
    else if (
      path.posix.extname(fileBase) === extension &&
      editDistance(base, fileBase, nameTypos(base)) <= nameTypos(base)
    )
      scored.push({ file, tier: 1, distance });
    else if (distance <= pathTypos(wanted)) scored.push({ file, tier: 2, distance });
  }
  scored.sort((a, b) => a.tier - b.tier || a.distance - b.distance || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return scored.slice(0, limit).map((entry) => entry.file);
}

/**
 * The refusal for an edit to a file that does not exist: the paths it most likely meant, or, only
 * when nothing is near, how to create it (`howToCreate`, in the format's terms).
 */
export async function missingFileMessage(
  filePath: string,
  reader: WorkspaceReader,
  howToCreate: string,
): Promise<{ message: string; suggestions: string[] }> {
  const suggestions = reader.listFiles ? nearestPaths(filePath, await reader.listFiles()) : [];
  if (suggestions.length > 0)
    return { message: `${filePath} does not exist; did you mean ${suggestions.join(', ')}?`, suggestions };
  return { message: `${filePath} does not exist, and no file has a similar name; ${howToCreate}`, suggestions };
}
