import type { RunEventOf } from '../../../shared/engine/readRunEvent';
import type { RunEventType } from '../../../shared/engine/runEvents';

export type EventTone = 'ok' | 'fail' | 'warn' | 'info' | 'gate';

export interface EventSummary {
  text: string;
  tone: EventTone;
}

/** The timeline line of one event type; `at` is ` <step id>` when the event names a step, else ''. */
export type EventDescriber<T extends RunEventType> = (event: RunEventOf<T>, at: string) => EventSummary;

/** Describers by event type; a type without one is shown by its name. */
export type EventDescribers = { [T in RunEventType]?: EventDescriber<T> };

export const seconds = (ms: number | null) => (ms === null ? '' : ` (${(ms / 1000).toFixed(1)} s)`);

export const list = (items: string[], max = 4) =>
  items.length > max ? `${items.slice(0, max).join(', ')} +${items.length - max}` : items.join(', ');

export function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 140 ? `${line.slice(0, 139)}…` : line;
}
