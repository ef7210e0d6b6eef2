import { diffLines } from 'diff';
import { z } from 'zod';

const lineNumber = z.number().int().positive();
export const LineCountSchema = z.number().int().nonnegative();

/**
 * One changed block of lines, 1-based: `beforeLines` lines from `beforeStart` became `afterLines` lines
 * from `afterStart`. A side with 0 lines is a pure insertion or deletion placed before that side's start line.
 */
export const LineChangeSchema = z.object({
  beforeStart: lineNumber,
  beforeLines: LineCountSchema,
  afterStart: lineNumber,
  afterLines: LineCountSchema,
});
export type LineChange = z.infer<typeof LineChangeSchema>;

/**
 * The counts and the changed blocks of one line diff. A removal next to an addition is one block, as a
 * diff view pairs them; `diff` reports them as two parts.
 */
export function lineDiff(
  before: string | null,
  after: string | null,
): { added: number; removed: number; changes: LineChange[] } {
  const changes: LineChange[] = [];
  if (before === after) return { added: 0, removed: 0, changes };
  let added = 0;
  let removed = 0;
  let beforeLine = 1;
  let afterLine = 1;
  let open: LineChange | null = null;
  for (const part of diffLines(before ?? '', after ?? '')) {
    const count = part.count ?? 0;
    if (!part.added && !part.removed) {
      open = null;
      beforeLine += count;
      afterLine += count;
      continue;
    }
    if (!open) {
      open = { beforeStart: beforeLine, beforeLines: 0, afterStart: afterLine, afterLines: 0 };
      changes.push(open);
    }
    if (part.added) {
      open.afterLines += count;
      afterLine += count;
      added += count;
    } else {
      open.beforeLines += count;
      beforeLine += count;
      removed += count;
    }
  }
  return { added, removed, changes };
}
