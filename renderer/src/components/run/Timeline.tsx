import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { RunLogEvent } from '../../../../shared/schemas/run';
import { formatTime } from '../../lib/format';
import { markPainted } from '../../lib/paintMarks';
import { describeEvent } from '../../runView/describeEvent';
import { isOrphaned } from '../../../../shared/runView/reduceRunEvents';
import { countBy, EMPTY_FILTER, filterEvents, type TimelineFilter } from '../../runView/timelineFilter';
import { useRunViewStore } from '../../stores/runViewStore';
import { TimelineBar } from './TimelineBar';

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

  const onScroll = () => {
    const element = scroller.current;
    if (element) setFollow(element.scrollHeight - element.scrollTop - element.clientHeight < ROW_HEIGHT * 2);
  };
  const detail = selected === null ? null : (events.find((event) => event.seq === selected) ?? null);

  return (
    <section className="timeline" aria-labelledby="timeline-heading" data-testid="timeline">
      <TimelineBar
        shownCount={shown.length}
        eventCount={events.length}
        counts={counts}
        filter={filter}
        setFilter={setFilter}
        follow={follow}
        onFollow={() => setFollow(true)}
      />
      <div ref={scroller} className="timeline-scroller" onScroll={onScroll} tabIndex={0} aria-label="Run events">
        <div role="list" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const event = shown[item.index];
            if (!event) return null;
            return (
              <TimelineRow
                key={event.seq}
                event={event}
                start={item.start}
                skipped={isOrphaned(orphaned, event.seq)}
                selected={selected === event.seq}
                onToggle={() => setSelected(selected === event.seq ? null : event.seq)}
              />
            );
          })}
        </div>
      </div>
      {detail && <TimelineDetail detail={detail} onClose={() => setSelected(null)} />}
    </section>
  );
}

interface TimelineRowProps {
  event: RunLogEvent;
  /** Where the virtualizer places the row, in pixels from the top. */
  start: number;
  /** Redone after a crash: the resume orphaned it. */
  skipped: boolean;
  selected: boolean;
  onToggle: () => void;
}

function TimelineRow({ event, start, skipped, selected, onToggle }: TimelineRowProps) {
  const summary = describeEvent(event);
  return (
    <div
      role="listitem"
      className={`timeline-row tone-${summary.tone}${skipped ? ' orphaned' : ''}${selected ? ' selected' : ''}`}
      style={{ transform: `translateY(${start}px)`, height: ROW_HEIGHT }}
      data-type={event.type}
    >
      <button type="button" className="timeline-button" onClick={onToggle} aria-expanded={selected}>
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
}

function TimelineDetail({ detail, onClose }: { detail: RunLogEvent; onClose: () => void }) {
  return (
    <div className="timeline-detail">
      <div className="panel-title-row">
        <strong>
          #{detail.seq} {detail.type}
        </strong>
        <button type="button" className="small-button" onClick={onClose}>
          Close
        </button>
      </div>
      <pre className="json">{JSON.stringify(detail.data, null, 2)}</pre>
    </div>
  );
}
