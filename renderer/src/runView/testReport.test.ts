import { describe, expect, it } from 'vitest';
import { recordedLog } from './fixtures/loadLog';
import { testReportOf } from './testReport';

const log = recordedLog('supervised');

describe('a test run report read from the log by seq', () => {
  it('finds the report of every test run and nothing for other events', () => {
    const runs = log.filter(
      (event) => event.type === 'test_result' && typeof event.data.report === 'string' && event.data.report.length > 0,
    );
    expect(runs.length).toBeGreaterThan(1);
    for (const run of runs) expect(testReportOf(log, run.seq)).toBe(run.data.report);
    const other = log.find((event) => event.type !== 'test_result');
    expect(testReportOf(log, other?.seq ?? -1)).toBe('');
    expect(testReportOf(log, (log.at(-1)?.seq ?? 0) + 1)).toBe('');
  });
});
