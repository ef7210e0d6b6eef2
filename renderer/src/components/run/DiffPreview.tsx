import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useImperativeHandle, useMemo, useRef, type Ref, type RefObject } from 'react';
import type { LineChange } from '../../../../shared/diff/lineDiff';
import { diffRows, splitLines, type DiffRow } from '../../runView/diffRows';

/** Monaco's line height at its 13 px font on Linux and Windows, so the hand-over to Monaco does not jump. */
const ROW_HEIGHT = 18;

export interface DiffPreviewHandle {
  /** The first row at the top of the view that has a line on the new side, to open Monaco at the same place. */
  topRow(): DiffRow | null;
}

interface DiffPreviewProps {
  before: string | null;
  after: string | null;
  changes: readonly LineChange[];
  sideBySide: boolean;
  /** Called once, on the frame after the first rows are drawn. */
  onPainted: () => void;
  handle?: Ref<DiffPreviewHandle>;
}

function LineCells({
  number,
  text,
  side,
  kind,
}: {
  number: number | null;
  text: string | undefined;
  side: 'before' | 'after';
  kind: DiffRow['kind'];
}) {
  const tone = number === null ? 'filler' : kind === 'same' ? 'same' : side === 'before' ? 'removed' : 'added';
  return (
    <>
      <span className={`diff-number ${tone}`}>{number ?? ''}</span>
      <span className={`diff-text ${tone}`}>{number === null ? '' : text}</span>
    </>
  );
}

/**
 * The diff as plain rows from the core's line diff: shown as soon as the texts arrive, while Monaco (a
 * 3 MB chunk, an editor and a worker diff, ~0.5 s on a 2-core laptop) gets ready to replace it. Only the
 * rows in view are drawn, so a 5,000-line file costs what 30 lines do.
 */
export function DiffPreview({ before, after, changes, sideBySide, onPainted, handle }: DiffPreviewProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const beforeLines = useMemo(() => splitLines(before), [before]);
  const afterLines = useMemo(() => splitLines(after), [after]);
  const rows = useMemo(
    () => diffRows(beforeLines.length, afterLines.length, changes, sideBySide),
    [beforeLines, afterLines, changes, sideBySide],
  );
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  useTopRowHandle(handle, rows, scroller);
  // An empty file has no rows and is drawn all the same.
  usePaintedOnce(items.length > 0 || rows.length === 0, onPainted);

  return (
    <div
      ref={scroller}
      className={`diff-preview mono ${sideBySide ? 'side-by-side' : 'inline'}`}
      tabIndex={0}
      aria-label="Diff (plain text while the editor loads)"
    >
      <div role="list" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          return (
            <DiffPreviewRow
              key={item.index}
              row={row}
              start={item.start}
              sideBySide={sideBySide}
              beforeLines={beforeLines}
              afterLines={afterLines}
            />
          );
        })}
      </div>
    </div>
  );
}

interface DiffPreviewRowProps {
  row: DiffRow;
  /** Where the virtualizer places the row, in pixels from the top. */
  start: number;
  sideBySide: boolean;
  beforeLines: readonly string[];
  afterLines: readonly string[];
}

/** One row: both sides' numbers and texts side by side, or both numbers and the one text inline. */
function DiffPreviewRow({ row, start, sideBySide, beforeLines, afterLines }: DiffPreviewRowProps) {
  return (
    <div
      role="listitem"
      className={`diff-row row-${row.kind}`}
      style={{ transform: `translateY(${start}px)`, height: ROW_HEIGHT }}
    >
      {sideBySide ? (
        <>
          <LineCells number={row.before} text={beforeLines[(row.before ?? 0) - 1]} side="before" kind={row.kind} />
          <LineCells number={row.after} text={afterLines[(row.after ?? 0) - 1]} side="after" kind={row.kind} />
        </>
      ) : (
        <>
          <span className={`diff-number ${row.kind}`}>{row.before ?? ''}</span>
          <span className={`diff-number ${row.kind}`}>{row.after ?? ''}</span>
          <span className={`diff-text ${row.kind}`}>
            {row.after !== null ? afterLines[row.after - 1] : beforeLines[(row.before ?? 0) - 1]}
          </span>
        </>
      )}
    </div>
  );
}

/** Lets DiffView ask which row is at the top of the view, to open Monaco at the same place. */
function useTopRowHandle(
  handle: Ref<DiffPreviewHandle> | undefined,
  rows: DiffRow[],
  scroller: RefObject<HTMLDivElement | null>,
) {
  useImperativeHandle(
    handle,
    () => ({
      topRow: () => {
        const first = Math.floor((scroller.current?.scrollTop ?? 0) / ROW_HEIGHT);
        for (let index = first; index < rows.length; index++)
          if (rows[index]?.after !== null) return rows[index] ?? null;
        return rows[first] ?? null;
      },
    }),
    [rows, scroller],
  );
}

/** Calls `onPainted` once, on the frame after the rows are first drawn. */
function usePaintedOnce(drawn: boolean, onPainted: () => void) {
  const painted = useRef(false);
  useEffect(() => {
    if (!drawn || painted.current) return;
    const frame = requestAnimationFrame(() => {
      painted.current = true;
      onPainted();
    });
    return () => cancelAnimationFrame(frame);
  }, [drawn, onPainted]);
}
