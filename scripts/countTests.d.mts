/** Types for scripts/countTests.mjs (plain Node: npm test and .ci/run call it). */
export interface TestCount {
  passed: number;
  failed: number;
}
export function countTests(dir?: string): TestCount;
export function formatCount(count: TestCount): string;
