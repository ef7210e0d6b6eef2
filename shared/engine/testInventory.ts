import { z } from 'zod';
import type { TestRecord } from '../schemas/testInventory';

/** One test as the runner reported it: the inventory a verification compares with the run's start. */
type InventoryTest = Pick<TestRecord, 'id' | 'outcome'>;

/** What one verification knew of the suite: its counts, and every test's id when the runner names them all. */
export interface InventorySnapshot {
  counts: { passed: number; failed: number; skipped: number; total: number } | null;
  tests: readonly InventoryTest[] | null;
}

/** How many names a check keeps; the counts say how many there were. */
const NAMES_KEPT = 20;

/**
 * A verification against the run's start. Weakened: a test that existed is missing (removed or
 * renamed), one that ran is now skipped, or the total is lower. `compared` says what could be
 * compared: every name, or only the totals (a runner that names only failures).
 */
export const InventoryCheckSchema = z.object({
  compared: z.enum(['names', 'totals']),
  before_total: z.number().int().nonnegative(),
  after_total: z.number().int().nonnegative(),
  before_passed: z.number().int().nonnegative(),
  after_passed: z.number().int().nonnegative(),
  missing: z.array(z.string()),
  missing_count: z.number().int().nonnegative(),
  skipped_now: z.array(z.string()),
  skipped_now_count: z.number().int().nonnegative(),
  /** Existing test files the run's change modified or deleted (relative to its base). */
  test_files_changed: z.array(z.string()).default([]),
  weakened: z.boolean(),
});
export type InventoryCheck = z.infer<typeof InventoryCheckSchema>;

function countIds(tests: readonly InventoryTest[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const test of tests) counts.set(test.id, (counts.get(test.id) ?? 0) + 1);
  return counts;
}

/** Ids of `before` that `after` lacks, as multisets (a parametrised test printed twice counts twice). */
function missingIds(before: readonly InventoryTest[], after: readonly InventoryTest[]): string[] {
  const left = countIds(after);
  const missing: string[] = [];
  for (const test of before) {
    const remaining = left.get(test.id) ?? 0;
    if (remaining > 0) left.set(test.id, remaining - 1);
    else missing.push(test.id);
  }
  return missing;
}

function skippedNow(before: readonly InventoryTest[], after: readonly InventoryTest[]): string[] {
  const ran = new Set(before.filter((test) => test.outcome !== 'skipped').map((test) => test.id));
  const skippedAfter = new Set(after.filter((test) => test.outcome === 'skipped').map((test) => test.id));
  const ranAfter = new Set(after.filter((test) => test.outcome !== 'skipped').map((test) => test.id));
  return [...ran].filter((id) => skippedAfter.has(id) && !ranAfter.has(id));
}

/**
 * A test file that could not load is reported as one failing "test" named after the file (node's and
 * pytest's collection errors): once the file loads, its tests take that entry's place.
 */
export function isLoadFailureEntry(test: InventoryTest): boolean {
  return (
    test.outcome === 'failed' &&
    !/ > |::/.test(test.id) &&
    /(^|[\\/])[^\\/\s]+\.(c|m)?[jt]sx?$|\.py$/.test(test.id.trim())
  );
}

/** Null when the later run reported no counts (it did not get as far as the tests): nothing to compare. */
export function compareInventory(
  before: InventorySnapshot,
  after: InventorySnapshot,
  testFilesChanged: readonly string[] = [],
): InventoryCheck | null {
  const start = before.counts;
  const now = after.counts;
  if (!start || !now) return null;
  const named =
    before.tests !== null &&
    after.tests !== null &&
    before.tests.length === start.total &&
    after.tests.length === now.total;
  const loadFailures = new Set((before.tests ?? []).filter(isLoadFailureEntry).map((test) => test.id));
  const missing = named
    ? missingIds(before.tests ?? [], after.tests ?? []).filter(
        (id) => !(loadFailures.has(id) && now.total >= start.total),
      )
    : [];
  const skipped = named ? skippedNow(before.tests ?? [], after.tests ?? []) : [];
  const lower = now.total < start.total;
  return {
    compared: named ? 'names' : 'totals',
    before_total: start.total,
    after_total: now.total,
    before_passed: start.passed,
    after_passed: now.passed,
    missing: missing.slice(0, NAMES_KEPT),
    missing_count: missing.length,
    skipped_now: skipped.slice(0, NAMES_KEPT),
    skipped_now_count: skipped.length,
    test_files_changed: [...testFilesChanged],
    weakened: missing.length > 0 || skipped.length > 0 || lower,
  };
}

function listed(names: readonly string[], count: number): string {
  const shown = names.slice(0, 8).map((name) => `  - ${name}`);
  return [...shown, ...(count > shown.length ? [`  … and ${count - shown.length} more`] : [])].join('\n');
}

/** The writer's feedback for a weakened suite: what went missing, and what to do instead. */
export function weakenedFeedback(check: InventoryCheck): string {
  const lines = [
    `TESTS_WEAKENED: the run started with ${check.before_total} tests; this change leaves ${check.after_total}.`,
  ];
  if (check.missing_count > 0)
    lines.push(
      `${check.missing_count} test(s) that existed are gone or renamed:\n${listed(check.missing, check.missing_count)}`,
    );
  if (check.skipped_now_count > 0)
    lines.push(
      `${check.skipped_now_count} test(s) that ran are now skipped:\n${listed(check.skipped_now, check.skipped_now_count)}`,
    );
  if (check.test_files_changed.length > 0)
    lines.push(`The change modified existing test files: ${check.test_files_changed.join(', ')}.`);
  lines.push(
    'Tests must not be removed, renamed, skipped or rewritten to pass: leave the existing tests as they are and change the code under test instead.',
  );
  return lines.join('\n');
}

/**
 * Whether `after` keeps every line of `before`, in order, and only adds lines: new tests written into
 * an existing test file, which weaken nothing (a skip it adds still shows in the inventory).
 */
export function onlyAddsLines(before: string, after: string): boolean {
  const kept = before.split('\n');
  const lines = after.split('\n');
  let at = 0;
  for (const line of lines) if (at < kept.length && line === kept[at]) at++;
  return at === kept.length;
}
