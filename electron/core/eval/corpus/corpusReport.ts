import { z } from 'zod';
import { MedianTokensSchema, TokenCountsSchema } from '../../../../shared/engine/tokenCounts';
import { FaultRunSchema, FaultSkipSchema } from './corpusFaults';
import { DamageSchema } from './damage';

const CountsSchema = z.object({ passed: z.number(), failed: z.number(), skipped: z.number(), total: z.number() });

const BareSchema = z.object({
  commit: z.string(),
  exit_code: z.number().nullable(),
  timed_out: z.boolean(),
  counts: CountsSchema.nullable(),
  duration_ms: z.number(),
});

/** One line of `lathe eval --corpus … --json`: a task run in one workflow and edit format. */
export const CorpusTaskLineSchema = z.object({
  task: z.string(),
  repo: z.string(),
  workflow: z.string(),
  edit_format: z.string(),
  model: z.string().nullable(),
  /** The run ended complete and the task's test command passes bare on the run branch. */
  green: z.boolean(),
  /**
   * Green, and the run's own last verification counted what the bare command counts on the fixed
   * tree (and on the run branch): Lathe ran and read the real suite as its user would.
   */
  faithful: z.boolean(),
  /** Why a run is not green or not faithful, in words; null when it is both. */
  miss: z.string().nullable(),
  run: z
    .object({
      run_id: z.string(),
      status: z.string(),
      exit_code: z.number().nullable(),
      reason: z.string().nullable(),
      branch: z.string().nullable(),
      commits: z.number(),
      undone: z.boolean(),
    })
    .nullable(),
  /** The run's last verification by Lathe's Verifier. */
  run_tests: z.object({ status: z.string(), counts: CountsSchema.nullable() }).nullable(),
  /** The test command bare on the run branch's head. */
  head_tests: BareSchema.nullable(),
  /** The test command bare on the starting commit with the gold patch applied. */
  fixed_tests: BareSchema.nullable(),
  /** The writer's answers in the run (its model calls for the code, retries included); null when the run did not happen. */
  attempts: z.number().nullable().default(null),
  /** What the run branch changed beyond the fix, measured before the run is undone (docs/eval.md, "Damage"). */
  damage: DamageSchema.nullable().default(null),
  /** The faults the oracle's writer was spoiled with (`--faults`); null for a perfect model. */
  faults: FaultRunSchema.nullable().default(null),
  /** The kinds the steps' first writer answers carried. */
  faults_applied: z.array(z.string()).default([]),
  /** Kinds that could not apply to a first answer, and why (that answer stayed correct there). */
  faults_skipped: z.array(FaultSkipSchema).default([]),
  /** The most byte-identical writer answers seen in one step (the repeat kind's measure; goal ≤ 3). */
  most_identical_answers: z.number().default(0),
  /** What the task's setup did beyond its command: the install `auto` chose, lockfiles the installer rewrote and Lathe restored. */
  setup_note: z.string().nullable().default(null),
  /** With `--reuse-verifications`: the run's verifications the tests ran for, and those answered from an identical tree's. */
  verifications: z.object({ ran: z.number(), reused: z.number() }).nullable().default(null),
  /** The run's model tokens (docs/eval.md, "Tokens"); null when the run did not happen. */
  tokens: TokenCountsSchema.nullable().default(null),
  wall_ms: z.number(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type CorpusTaskLine = z.infer<typeof CorpusTaskLineSchema>;

/** The last line: totals over the tasks. */
export const CorpusSummaryLineSchema = z.object({
  tasks: z.number(),
  green: z.number(),
  faithful: z.number(),
  errors: z.number(),
  /** Tasks whose run branch carried any damage. */
  damaging: z.number().default(0),
  /** faithful / tasks; null for no tasks. */
  fidelity: z.number().nullable(),
  workflow: z.string(),
  edit_format: z.string(),
  model: z.string().nullable(),
  faults: FaultRunSchema.nullable().default(null),
  corpus: z.string(),
  /** Medians over the tasks that ran of their `tokens` (null: none ran, or a summary written before). */
  median_tokens: MedianTokensSchema.nullable().default(null),
  elapsed_ms: z.number(),
  interrupted: z.boolean(),
});
export type CorpusSummaryLine = z.infer<typeof CorpusSummaryLineSchema>;

export function sameCounts(
  a: z.infer<typeof CountsSchema> | null | undefined,
  b: z.infer<typeof CountsSchema> | null | undefined,
): boolean {
  return !!a && !!b && a.passed === b.passed && a.failed === b.failed && a.skipped === b.skipped;
}

export function describeCounts(counts: z.infer<typeof CountsSchema> | null | undefined): string {
  return counts ? `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped` : 'no counts';
}
