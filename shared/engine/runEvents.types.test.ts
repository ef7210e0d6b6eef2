import { describe, expectTypeOf, it } from 'vitest';
import type { PendingEvent } from './runEvents';
import type { RunEvent } from './readRunEvent';

/*
 * Checked by `tsc -b` (this file is in tsconfig.node.json): each `@ts-expect-error` below must stay an
 * error, or the build fails with "Unused '@ts-expect-error' directive".
 */
export const writes: PendingEvent[] = [
  { role: 'engine', type: 'step_failed', data: { step_id: 'T1', reason: 'red' } },
  // @ts-expect-error a renamed field (`task` for `step_id`) is not the event's data
  { role: 'engine', type: 'step_failed', data: { task: 'T1', reason: 'red' } },
  // @ts-expect-error an event type the map does not hold
  { role: 'engine', type: 'step_exploded', data: { step_id: 'T1', reason: 'red' } },
  // @ts-expect-error a field of the wrong type
  { role: 'git', type: 'commit', data: { sha: 'abc', step_id: 'T1', files: 'a.ts' } },
];

export function readsTyped(event: RunEvent): string | undefined {
  if (event.type !== 'step_failed') return undefined;
  // @ts-expect-error a reader cannot ask for a field the type does not have
  return event.data.message ?? event.data.reason;
}

describe('the run-event union', () => {
  it('narrows data by type for writers and readers', () => {
    expectTypeOf<Extract<PendingEvent, { type: 'commit' }>['data']['files']>().toEqualTypeOf<string[]>();
    expectTypeOf<Extract<RunEvent, { type: 'commit' }>['data']['files']>().toEqualTypeOf<string[] | undefined>();
  });
});
