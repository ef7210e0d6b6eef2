import type { LineChange } from '../../../shared/diff/lineDiff';

/** `same` on both sides; `changed` pairs a removed line with an added one on one row (side by side only). */
export type DiffRowKind = 'same' | 'removed' | 'added' | 'changed';

/** One row of a diff view: a 1-based line number on each side that has one. */
export interface DiffRow {
  kind: DiffRowKind;
  before: number | null;
  after: number | null;
}

/** A text's lines as the core's line diff counts them: a final newline ends the last line, `\r\n` is one break. */
export function splitLines(text: string | null): string[] {
  if (!text) return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/**
 * The rows of a diff view from the core's changed blocks. Side by side, a block's removed and added lines
 * share rows as Monaco aligns them (the shorter side padded); inline, its removed lines come before its
 * added ones. The lines between blocks are the same on both sides.
 */
export function diffRows(
  beforeCount: number,
  afterCount: number,
  changes: readonly LineChange[],
  sideBySide: boolean,
): DiffRow[] {
  const rows: DiffRow[] = [];
  let before = 1;
  let after = 1;
  const same = (untilBefore: number) => {
    for (; before < untilBefore && before <= beforeCount && after <= afterCount; before++, after++)
      rows.push({ kind: 'same', before, after });
  };
  for (const change of changes) {
    same(change.beforeStart);
    before = change.beforeStart;
    after = change.afterStart;
    // Blocks come over the contract: one that runs past its text is cut at the text's end.
    const removed = Math.max(0, Math.min(change.beforeLines, beforeCount - before + 1));
    const added = Math.max(0, Math.min(change.afterLines, afterCount - after + 1));
    if (sideBySide) {
      for (let index = 0; index < Math.max(removed, added); index++) {
        const left = index < removed ? before + index : null;
        const right = index < added ? after + index : null;
        rows.push({
          kind: left !== null && right !== null ? 'changed' : left !== null ? 'removed' : 'added',
          before: left,
          after: right,
        });
      }
    } else {
      for (let index = 0; index < removed; index++) rows.push({ kind: 'removed', before: before + index, after: null });
      for (let index = 0; index < added; index++) rows.push({ kind: 'added', before: null, after: after + index });
    }
    before += change.beforeLines;
    after += change.afterLines;
  }
  same(Number.POSITIVE_INFINITY);
  return rows;
}
