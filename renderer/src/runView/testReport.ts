import type { RunLogEvent } from '../../../shared/schemas/run';

/**
 * A test run's report, read from its log event by seq: the projection leaves the text out, since the
 * window holds the events anyway and a long run's reports would double the projection it is sent.
 */
export function testReportOf(events: readonly RunLogEvent[], seq: number): string {
  let low = 0;
  let high = events.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const event = events[middle];
    if (!event) break;
    if (event.seq === seq)
      return event.type === 'test_result' && typeof event.data.report === 'string' ? event.data.report : '';
    if (event.seq < seq) low = middle + 1;
    else high = middle - 1;
  }
  return '';
}
