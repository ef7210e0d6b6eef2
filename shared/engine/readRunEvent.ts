import { z } from 'zod';
import type { RunLogEvent } from '../schemas/run';
import { isRunEventType, RUN_EVENTS, type RunEventData, type RunEventType } from './runEvents';

/**
 * A logged event as a reader sees it: its type from the event map, its `data` typed by that map but
 * every field optional. Logs outlive versions: a field an older Lathe did not write yet, or wrote in
 * another shape, reads as absent instead of hiding the whole event (docs/events.md, "Reading a log").
 */
export type RunEvent = {
  [T in RunEventType]: Omit<RunLogEvent, 'type' | 'data'> & { type: T; data: Partial<RunEventData<T>> };
}[RunEventType];
export type RunEventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;

/** Each type's schema with every field optional and a malformed field dropped (read as absent). */
const TOLERANT: Record<string, z.ZodType> = Object.fromEntries(
  Object.entries(RUN_EVENTS).map(([type, schema]) => [
    type,
    z.object(
      Object.fromEntries(Object.entries(schema.shape).map(([key, field]) => [key, field.optional().catch(undefined)])),
    ),
  ]),
);

const read = new WeakMap<RunLogEvent, RunEvent | null>();

/** Logs written before the step id had one name call it `task_id` on patch, commit, test_result, tester_report and fix_plan. */
export function withStepId(data: unknown): unknown {
  if (typeof data !== 'object' || data === null || !('task_id' in data) || 'step_id' in data) return data;
  const { task_id: stepId, ...rest } = data;
  return { ...rest, step_id: stepId };
}

/**
 * The typed view of a logged event, or null for a type this version does not know (written by a
 * newer one, or no longer written): readers show such an event by its type and skip it otherwise.
 */
export function readRunEvent(event: RunLogEvent): RunEvent | null {
  const cached = read.get(event);
  if (cached !== undefined) return cached;
  const schema = isRunEventType(event.type) ? TOLERANT[event.type] : undefined;
  const parsed = schema?.safeParse(withStepId(event.data));
  // The tolerant schema of `type` yields exactly Partial<RunEventData<type>>; the compiler cannot pair the two.
  const typed = parsed?.success ? ({ ...event, data: parsed.data } as RunEvent) : null;
  read.set(event, typed);
  return typed;
}

/** The step an event is about, when it names one. */
export function stepIdOf(event: RunEvent): string | null {
  const { data } = event;
  return 'step_id' in data && typeof data.step_id === 'string' ? data.step_id : null;
}
