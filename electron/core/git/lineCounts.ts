import { diffLines } from 'diff';

export interface LineCounts {
  added: number;
  removed: number;
}

/** Lines added and removed between two versions of a text file (null: the file is absent on that side). */
export function countChangedLines(before: string | null, after: string | null): LineCounts {
  if (before === after) return { added: 0, removed: 0 };
  let added = 0;
  let removed = 0;
  for (const part of diffLines(before ?? '', after ?? '')) {
    if (part.added) added += part.count ?? 0;
    else if (part.removed) removed += part.count ?? 0;
  }
  return { added, removed };
}
