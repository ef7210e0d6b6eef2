import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { RunLogEvent } from '../../../../shared/schemas/run';
import { formatTime } from '../../lib/format';
import { markPainted } from '../../lib/paintMarks';
import { describeEvent } from '../../runView/describeEvent';
import { isOrphaned } from '../../../../shared/runView/reduceRunEvents';
import { countBy, EMPTY_FILTER, filterEvents, type TimelineFilter } from '../../runView/timelineFilter';
import { useRunViewStore } from '../../stores/runViewStore';

const ROW_HEIGHT = 26;
const describeText = (event: RunLogEvent) => describeEvent(event).text;

/** Every log event, virtualized (10k rows stay smooth), filtered by role, type and text; follows live. */
export function Timeline() {
  const events = useRunViewStore((state) => state.events);
  const orphaned = useRunViewStore((state) => state.view.orphaned);
  const loading = useRunViewStore((state) => state.loading);
  const [filter, setFilter] = useState<TimelineFilter>(EMPTY_FILTER);
  const [selected, setSelected] = useState<number | null>(null);
  const [follow, setFollow] = useState(true);
  const scroller = useRef<HTMLDivElement>(null);

  const counts = useMemo(() => countBy(events), [events]);
  const shown = useMemo(() => filterEvents(events, filter, describeText), [events, filter]);
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();

  useEffect(() => {
    if (follow && shown.length > 0) virtualizer.scrollToIndex(shown.length - 1, { align: 'end' });
  }, [follow, shown.length, virtualizer]);
  useEffect(() => {
    if (!loading && items.length > 0) markPainted('timeline');
  }, [loading, items.length]);

  const toggleRole = (role: string) =>
    setFilter((current) => ({
      ...current,
      roles: current.roles.includes(role) ? current.roles.filter((item) => item !== role) : [...current.roles, role],
    }));
  const onScroll = () => {
    const element = scroller.current;
    if (element) setFollow(element.scrollHeight - element.scrollTop - element.clientHeight < ROW_HEIGHT * 2);
  };
  const detail = selected === null ? null : (events.find((event) => event.seq === selected) ?? null);

  return (
    <section className="timeline" aria-labelledby="timeline-heading" data-testid="timeline">
      <div className="timeline-bar">
        <h3 id="timeline-heading">
          Timeline{' '}
          <span className="muted small">
            {shown.length === events.length ? `${events.length} events` : `${shown.length} of ${events.length} events`}
          </span>
        </h3>
        <div className="role-filters" role="group" aria-label="Filter by role">
          {[...counts.roles.entries()].map(([role, count]) => (
            <button
              key={role}
              type="button"
              className={`chip-button role-${role}`}
              aria-pressed={filter.roles.includes(role)}
              onClick={() => toggleRole(role)}
            >
              {role} <span className="muted">{count}</span>
            </button>
          ))}
        </div>
        <label className="visually-hidden" htmlFor="timeline-type">
          Event type
        </label>
        <select
          id="timeline-type"
          value={filter.type ?? ''}
          onChange={(event) => setFilter({ ...filter, type: event.target.value || null })}
        >
          <option value="">All types</option>
          {[...counts.types.entries()]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([type, count]) => (
              <option key={type} value={type}>
                {type} ({count})
              </option>
            ))}
        </select>
        <input
          type="search"
          aria-label="Search events"
          placeholder="Search…"
          value={filter.text}
          onChange={(event) => setFilter({ ...filter, text: event.target.value })}
        />
        {!follow && (
          <button type="button" className="small-button" onClick={() => setFollow(true)}>
            Follow live
          </button>
        )}
      </div>
      <div ref={scroller} className="timeline-scroller" onScroll={onScroll} tabIndex={0} aria-label="Run events">
        <div role="list" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const event = shown[item.index];
            if (!event) return null;
            const summary = describeEvent(event);
            const skipped = isOrphaned(orphaned, event.seq);
            return (
              <div
                key={event.seq}
                role="listitem"
                className={`timeline-row tone-${summary.tone}${skipped ? ' orphaned' : ''}${selected === event.seq ? ' selected' : ''}`}
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                data-type={event.type}
              >
                <button
                  type="button"
                  className="timeline-button"
                  onClick={() => setSelected(selected === event.seq ? null : event.seq)}
                  aria-expanded={selected === event.seq}
                >
                  <span className="seq mono">{event.seq}</span>
                  <span className="time mono">{formatTime(event.ts)}</span>
                  <span className={`role role-${event.role}`}>{event.role}</span>
                  <span className="type mono">{event.type}</span>
                  <span className="summary">
                    {skipped ? '(redone after a crash) ' : ''}
                    {summary.text}
                  </span>
                </button>
              </div>
            );
          })}
        </div>
      </div>
      {detail && (
        <div className="timeline-detail">
          <div className="panel-title-row">
            <strong>
              #{detail.seq} {detail.type}
            </strong>
            <button type="button" className="small-button" onClick={() => setSelected(null)}>
              Close
            </button>
          </div>
          <pre className="json">{JSON.stringify(detail.data, null, 2)}</pre>
        </div>
      )}
    </section>
  );
}
