import fs from 'node:fs';
import path from 'node:path';
import { TestRecordSchema } from '../../../shared/schemas/testInventory';
import {
  compareInventory,
  onlyAddsLines,
  weakenedFeedback,
  type InventoryCheck,
  type InventorySnapshot,
} from '../../../shared/engine/testInventory';
import type { RunState, TestSummary } from '../../../shared/engine/runState';
import { z } from 'zod';
import { isTestFile } from '../edits/policy';
import { isMissing } from '../fsErrors';
import type { VerifyResult } from '../verifier/types';
import type { EngineDeps } from './engineDeps';

/** The run's starting suite, names included, beside its state (`.lathe/runs/<id>/baseline-tests.json`). */
export const BASELINE_FILE = 'baseline-tests.json';

const SnapshotFileSchema = z.object({
  counts: z.object({ passed: z.number(), failed: z.number(), skipped: z.number(), total: z.number() }).nullable(),
  tests: z.array(TestRecordSchema.pick({ id: true, outcome: true })).nullable(),
});

function snapshotOf(result: Pick<VerifyResult, 'counts' | 'tests'>): InventorySnapshot {
  // The baseline keeps what the comparison needs: a name and an outcome per test.
  return { counts: result.counts, tests: result.tests?.map(({ id, outcome }) => ({ id, outcome })) ?? null };
}

export function writeBaseline(runDir: string, result: Pick<VerifyResult, 'counts' | 'tests'>): void {
  fs.writeFileSync(path.join(runDir, BASELINE_FILE), `${JSON.stringify(snapshotOf(result))}\n`);
}

/** Null when the run has no recorded start (a state saved before baselines, or a run without a test command). */
export function readBaseline(runDir: string): InventorySnapshot | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(runDir, BASELINE_FILE), 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  return SnapshotFileSchema.parse(JSON.parse(text));
}

/** Existing test files (there at the run's base) the run's change rewrote or deleted — adding tests to one is no change to them — less those a gate approved. */
export async function changedTestFiles(deps: EngineDeps, state: RunState): Promise<string[]> {
  const workspace = state.workspace;
  const base = state.baseline?.commit ?? workspace?.baseCommit ?? null;
  if (!workspace || !state.head || !base || state.head === base) return [];
  const diff = await deps.git.diffRun(workspace, base, state.head);
  const approved = new Set(state.approved_test_files);
  const rewritten = (file: (typeof diff)[number]) =>
    file.before !== null && (file.after === null || !onlyAddsLines(file.before, file.after));
  return diff
    .filter((file) => rewritten(file) && isTestFile(file.path) && !approved.has(file.path))
    .map((file) => file.path);
}

/**
 * This verification against the run's start. Under `tests: protect` the suite is weakened when a test
 * went missing, was skipped or the total fell, and the tests passed anyway or the change rewrote test
 * files: a run that merely broke an import loses tests too, but fails, and is told so as a failure.
 */
export async function checkInventory(
  deps: EngineDeps,
  state: RunState,
  runDir: string,
  result: VerifyResult,
): Promise<InventoryCheck | null> {
  const baseline = readBaseline(runDir);
  if (!baseline) return null;
  const testFiles = await changedTestFiles(deps, state);
  const check = compareInventory(baseline, snapshotOf(result), testFiles);
  if (!check) return null;
  const counts = check.weakened && (result.status === 'PASS' || testFiles.length > 0);
  return { ...check, weakened: counts && state.config.tests_policy === 'protect' };
}

/** A weakened suite is a failed verification, whatever the runner's exit code: its text leads every view of it. */
export function failWeakened(summary: TestSummary, check: InventoryCheck): TestSummary {
  const text = weakenedFeedback(check);
  return {
    ...summary,
    status: 'FAIL',
    passed: false,
    reason: text.split('\n')[0] ?? 'TESTS_WEAKENED',
    report: `${text}\n\n${summary.report}`,
    excerpt: `${text}\n\n${summary.excerpt}`,
    tail: `${text}\n\n${summary.tail}`,
    inventory: check,
  };
}
