import { lineDiff } from '../../../shared/diff/lineDiff';

export interface LineCounts {
  added: number;
  removed: number;
}

/** Lines added and removed between two versions of a text file (null: the file is absent on that side). */
export function countChangedLines(before: string | null, after: string | null): LineCounts {
  const { added, removed } = lineDiff(before, after);
  return { added, removed };
}
