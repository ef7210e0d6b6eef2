/**
 * When the run view's parts have painted, as performance.now() values (milliseconds since navigation
 * start). The perf bench reads `data-run-view-ready` on <html>, set once the timeline and the diff
 * both painted.
 */
export type PaintedPart = 'timeline' | 'diff';

let marks: Partial<Record<PaintedPart, number>> = {};
let key: string | null = null;

export function resetPaintMarks(viewKey: string): void {
  if (viewKey === key) return;
  key = viewKey;
  marks = {};
  if (typeof document !== 'undefined') delete document.documentElement.dataset.runViewReady;
}

/** Call after the part's first frame with content; the mark is taken on the next animation frame. */
export function markPainted(part: PaintedPart): void {
  if (marks[part] !== undefined || typeof window === 'undefined') return;
  const forKey = key;
  window.requestAnimationFrame(() => {
    if (forKey !== key || marks[part] !== undefined) return;
    marks[part] = performance.now();
    document.documentElement.dataset[`${part}PaintedAt`] = marks[part].toFixed(1);
    if (marks.timeline !== undefined && marks.diff !== undefined) {
      document.documentElement.dataset.runViewReady = Math.max(marks.timeline, marks.diff).toFixed(1);
    }
  });
}

/** A named moment on the page's performance timeline (read by the perf bench). */
export function markMoment(
  name: 'run-log-read' | 'run-view-built' | 'diff-read' | 'diff-editor-created' | 'diff-computed',
): void {
  if (typeof performance !== 'undefined' && typeof performance.mark === 'function') performance.mark(`lathe:${name}`);
}
