import { z } from 'zod';

/**
 * How one test ended, in the words the counts use: pending, todo and xfail are `skipped`, errors are
 * `failed`, so an inventory's outcomes add up to the counts the Verifier reports.
 */
export const TestRecordOutcomeSchema = z.enum(['passed', 'failed', 'skipped']);
export type TestRecordOutcome = z.infer<typeof TestRecordOutcomeSchema>;

/**
 * One test the runner named, with its id exactly as a failure of that test is named (mocha's full
 * title, vitest's `file > describe > test`, pytest's node id, go's `TestName/sub`, …), so a failure
 * and an inventory entry can be matched by id.
 */
export const TestRecordSchema = z.object({
  id: z.string(),
  outcome: TestRecordOutcomeSchema,
  /** The test's file, when the runner names it. */
  file: z.string().nullable().optional(),
});
export type TestRecord = z.infer<typeof TestRecordSchema>;

/** Where a verification's inventory is kept, inside its artifact folder. */
export const TEST_INVENTORY_FILE = 'tests.json';

/**
 * `<artifactDir>/tests.json`: every test one verification's runner reported, in its order (the same
 * id can appear twice: parametrised tests printed alike are two tests). Written only when the runner's
 * output named every test.
 */
export const TestInventoryFileSchema = z.object({
  /** The runner and what was read, as the Verifier's `resultsFrom` names them (`mocha`, `spec output`). */
  runner: z.string(),
  source: z.string(),
  tests: z.array(TestRecordSchema),
});
export type TestInventoryFile = z.infer<typeof TestInventoryFileSchema>;
