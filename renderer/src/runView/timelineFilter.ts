import type { RunLogEvent } from '../../../shared/schemas/run';

export interface TimelineFilter {
  /** Roles to show; empty = every role. */
  roles: string[];
  /** Event type to show; null = every type. */
  type: string | null;
  text: string;
}

export const EMPTY_FILTER: TimelineFilter = { roles: [], type: null, text: '' };

/** How many events each role and type has, for the filter controls. */
export function countBy(events: readonly RunLogEvent[]): { roles: Map<string, number>; types: Map<string, number> } {
  const roles = new Map<string, number>();
  const types = new Map<string, number>();
  for (const event of events) {
    roles.set(event.role, (roles.get(event.role) ?? 0) + 1);
    types.set(event.type, (types.get(event.type) ?? 0) + 1);
  }
  return { roles, types };
}

/** The events a filter keeps, in log order; the same array when nothing is filtered. */
export function filterEvents(
  events: readonly RunLogEvent[],
  filter: TimelineFilter,
  describe: (event: RunLogEvent) => string,
): readonly RunLogEvent[] {
  const text = filter.text.trim().toLowerCase();
  if (filter.roles.length === 0 && filter.type === null && !text) return events;
  const roles = new Set(filter.roles);
  return events.filter(
    (event) =>
      (roles.size === 0 || roles.has(event.role)) &&
      (filter.type === null || event.type === filter.type) &&
      (!text || describe(event).toLowerCase().includes(text) || event.type.includes(text)),
  );
}
