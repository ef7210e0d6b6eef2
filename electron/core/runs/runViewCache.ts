import type { RunLogEvent } from '../../../shared/schemas/run';
import { buildRunView, reduceRunEventBatch } from '../../../shared/runView/reduceRunEvents';
import type { RunView } from '../../../shared/runView/types';

interface Projection {
  /** The log array the view was reduced from (the log cache hands out a new array when lines are appended). */
  events: readonly RunLogEvent[];
  view: RunView;
}

const MAX_RUNS = 16;

/**
 * One run-view projection per run log, kept by the core and moved forward by the events appended
 * since the last read, so no window replays a whole log to paint it.
 */
export class RunViewCache {
  private readonly projections = new Map<string, Projection>();

  /** The view of `events`, the whole log of `file` as read now. */
  viewOf(file: string, events: readonly RunLogEvent[]): RunView {
    const known = this.projections.get(file);
    this.projections.delete(file);
    const view = known ? this.advance(known, events) : buildRunView(events);
    this.projections.set(file, { events, view });
    // Least recently read first: drop it when too many runs were opened in this process.
    if (this.projections.size > MAX_RUNS) this.projections.delete(this.projections.keys().next().value ?? '');
    return view;
  }

  private advance(known: Projection, events: readonly RunLogEvent[]): RunView {
    if (known.events === events) return known.view;
    const before = known.events.length;
    // A log rewritten under us (shorter, or not the same first lines) is reduced again from the start.
    if (events.length < before || (before > 0 && events[before - 1]?.seq !== known.events[before - 1]?.seq))
      return buildRunView(events);
    const next = reduceRunEventBatch(known.view, events.slice(before));
    return next.needsRebuild ? buildRunView(events) : next;
  }
}
