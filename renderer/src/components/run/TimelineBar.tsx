import type { Dispatch, SetStateAction } from 'react';
import type { countBy, TimelineFilter } from '../../runView/timelineFilter';

interface TimelineBarProps {
  shownCount: number;
  eventCount: number;
  counts: ReturnType<typeof countBy>;
  filter: TimelineFilter;
  setFilter: Dispatch<SetStateAction<TimelineFilter>>;
  follow: boolean;
  onFollow: () => void;
}

/** The timeline's heading and filters: by role, by type, by text; and the way back to following live. */
export function TimelineBar({ shownCount, eventCount, counts, filter, setFilter, follow, onFollow }: TimelineBarProps) {
  const toggleRole = (role: string) =>
    setFilter((current) => ({
      ...current,
      roles: current.roles.includes(role) ? current.roles.filter((item) => item !== role) : [...current.roles, role],
    }));
  return (
    <div className="timeline-bar">
      <h3 id="timeline-heading">
        Timeline{' '}
        <span className="muted small">
          {shownCount === eventCount ? `${eventCount} events` : `${shownCount} of ${eventCount} events`}
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
        <button type="button" className="small-button" onClick={onFollow}>
          Follow live
        </button>
      )}
    </div>
  );
}
