import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { countTests, formatCount } from './countTests.mjs';

const dirs: string[] = [];
function resultsDir(files: Record<string, unknown>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-count-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files))
    fs.writeFileSync(path.join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const report = (passed: number, failed: number, unloaded = 0) => ({
  numPassedTests: passed,
  numFailedTests: failed,
  testResults: Array.from({ length: unloaded }, () => ({ status: 'failed', assertionResults: [] })),
});

describe('countTests', () => {
  it('sums every tier report, a file that failed to load counting as a failure', () => {
    const dir = resultsDir({
      'vitest-unit.json': report(10, 1),
      'vitest-integration.json': report(5, 0, 2),
      'vitest-slow.json': report(3, 0),
      'playwright.json': { stats: { expected: 4, flaky: 1, unexpected: 1 } },
    });
    expect(formatCount(countTests(dir))).toBe('23 passed, 4 failed');
  });

  it('counts a failed stage with no report (or a cut-off one) as one failure, and one with a report by its tests', () => {
    const stages = [
      { name: 'lint', passed: false },
      { name: 'unit', passed: false },
      { name: 'integration', passed: false },
      { name: 'slow', passed: true },
    ];
    const dir = resultsDir({
      'stages.json': stages,
      'vitest-unit.json': report(7, 2),
      'vitest-integration.json': '{"numPassedTests": 3,',
    });
    expect(countTests(dir)).toEqual({ passed: 7, failed: 2 + 1 + 1 });
  });

  it('still reads the single report of a plain `vitest run`', () => {
    expect(countTests(resultsDir({ 'vitest.json': report(2, 0) }))).toEqual({ passed: 2, failed: 0 });
  });
});
