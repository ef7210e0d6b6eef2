import { readRunEvent, stepIdOf, type RunEvent } from '../../../shared/engine/readRunEvent';
import type { RunLogEvent } from '../../../shared/schemas/run';
import { RUN_EVENT_LINES } from './describeRunEvents';
import { GATE_EVENT_LINES } from './describeGateEvents';
import { WORK_EVENT_LINES } from './describeWorkEvents';
import type { EventDescribers, EventSummary } from './eventText';

const LINES: EventDescribers = { ...RUN_EVENT_LINES, ...WORK_EVENT_LINES, ...GATE_EVENT_LINES };

/** One line for the timeline: what happened, in the words a user would use. */
export function describeEvent(event: RunLogEvent): EventSummary {
  const known = readRunEvent(event);
  // A type this version does not know (a newer Lathe wrote it): shown by its name.
  if (!known) return { text: event.type.replaceAll('_', ' '), tone: 'info' };
  const stepId = stepIdOf(known);
  // The table pairs each type with its describer; the compiler cannot pair `known.type` with `known`.
  const describe = LINES[known.type] as ((event: RunEvent, at: string) => EventSummary) | undefined;
  return describe
    ? describe(known, stepId ? ` ${stepId}` : '')
    : { text: known.type.replaceAll('_', ' '), tone: 'info' };
}
