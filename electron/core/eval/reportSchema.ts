import { z } from 'zod';
import { MedianTokensSchema, TokenCountsSchema } from '../../../shared/engine/tokenCounts';
import { EVAL_KINDS, EVAL_LANGUAGES } from './taskSuite';

/** `eval-report.json` (documented field by field in docs/eval.md). snake_case, like every file Lathe persists. */
export const EVAL_REPORT_FORMAT = 'lathe-eval/1';

const count = z.number().int().nonnegative();

export const RoleQualitySchema = z.object({
  /** Model calls, retries included. */
  calls: count,
  prompt_tokens: count,
  completion_tokens: count,
  /** Answers that parsed and validated (`agent_output`, `agent_declined`). */
  well_formed: count,
  /** Answers that did not (`agent_retry` with INVALID_OUTPUT, `agent_failed`). */
  malformed: count,
  /** Failed calls that produced no answer to judge (timeouts, provider errors), retried. */
  errors: count,
  /** well_formed / (well_formed + malformed); null when the role produced no answer. */
  well_formed_rate: z.number().min(0).max(1).nullable(),
  /** Decode rate of its answers (local models; null for replay and servers that do not say). */
  tokens_per_second: z.number().nonnegative().nullable().default(null),
  /** Prompt-lookup decoding, when the role used it: predictions confirmed / refuted and the share confirmed. */
  prompt_lookup: z
    .object({ validated: count, refuted: count, acceptance_rate: z.number().min(0).max(1).nullable() })
    .nullable()
    .default(null),
  /** What the two rates are computed from (summed over tasks). */
  decode_ms: z.number().nonnegative().default(0),
  decoded_tokens: count.default(0),
  /** Of the tokens generated, those the grammar forced and the decode loop picked (local models; decision 76). */
  steered_tokens: count.default(0),
});
export type RoleQuality = z.infer<typeof RoleQualitySchema>;

export const TestOutcomeSchema = z.object({
  status: z.enum(['PASS', 'FAIL', 'INFRA_ERROR']),
  counts: z.object({ passed: count, failed: count, skipped: count, total: count }).nullable(),
  first_failure: z.object({ test_id: z.string(), message: z.string() }).nullable(),
  reason: z.string().nullable(),
  isolation: z.string(),
  duration_ms: z.number().nonnegative(),
});
export type TestOutcome = z.infer<typeof TestOutcomeSchema>;

export const TaskOutcomeSchema = z.enum([
  /** The hidden tests passed on the run's final commit. */
  'solved',
  /** They ran and failed (or the run changed nothing that makes them pass). */
  'unsolved',
  /** The task could not be judged: the run could not start, or the hidden tests could not run. */
  'error',
  /** The eval was interrupted before or during this task. */
  'interrupted',
]);
export type TaskOutcome = z.infer<typeof TaskOutcomeSchema>;

export const EvalTaskResultSchema = z.object({
  id: z.string(),
  language: z.enum(EVAL_LANGUAGES),
  kind: z.enum(EVAL_KINDS),
  title: z.string(),
  outcome: TaskOutcomeSchema,
  solved: z.boolean(),
  run: z
    .object({
      run_id: z.string(),
      status: z.string(),
      exit_code: z.number().int().nullable(),
      reason: z.string().nullable(),
      branch: z.string().nullable(),
      base_commit: z.string(),
      head_commit: z.string(),
      commits: count,
    })
    .nullable(),
  hidden_tests: TestOutcomeSchema.nullable(),
  /** The run's last verification of the repository's own (visible) tests. */
  visible_tests: TestOutcomeSchema.nullable(),
  /** Writer attempts over every step of every plan. */
  attempts: count,
  /** Plans made after the first top-level plan (rejected plans, seed 004 REPLANs). */
  replans: count,
  sub_plans: count,
  fix_cycles: count,
  verifications: count,
  /** The run's tokens (docs/eval.md, "Tokens"); `completion` (= generated) and `total` (prompt + generated) as before. */
  tokens: TokenCountsSchema.extend({ completion: count, total: count }),
  /** Minutes the model's share of this task would take on each reference laptop (docs/eval.md, "Laptop time"), by profile id. */
  laptop_minutes: z.record(z.string(), z.number().nonnegative()),
  roles: z.record(z.string(), RoleQualitySchema),
  /** The run, from start to its last event. */
  wall_ms: z.number().nonnegative(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** Relative to the report folder. */
  files: z.object({ run_dir: z.string().nullable(), hidden_log: z.string().nullable() }),
});
export type EvalTaskResult = z.infer<typeof EvalTaskResultSchema>;

const tally = z.object({ tasks: count, solved: count });

export const EvalReportSchema = z.object({
  format: z.literal(EVAL_REPORT_FORMAT),
  lathe_version: z.string(),
  started_at: z.string(),
  finished_at: z.string(),
  interrupted: z.boolean(),
  settings: z.object({
    workflow: z.string(),
    /** The spec given with --model (with any `{task}` placeholder), or null. */
    model: z.string().nullable(),
    role_models: z.record(z.string(), z.string()),
    /** `--config FILE`, or null. */
    config_file: z.string().nullable(),
    /** The edit format the runs used (the workflow's, unless the config file changes it). */
    edit_format: z.string().nullable(),
    tasks_pattern: z.string().nullable(),
    jobs: z.number().int().positive(),
    time_limit_ms: z.number().int().positive().nullable(),
    threads: z.number().int().positive().nullable(),
    suite_dir: z.string(),
  }),
  machine: z.object({
    platform: z.string(),
    arch: z.string(),
    cpu_model: z.string(),
    logical_cpus: count,
    physical_cores: count,
    total_memory_bytes: count,
    node: z.string(),
  }),
  summary: z.object({
    tasks: count,
    solved: count,
    unsolved: count,
    errors: count,
    interrupted: count,
    /** solved / judged tasks (solved + unsolved); null when none was judged. */
    solve_rate: z.number().min(0).max(1).nullable(),
    by_language: z.record(z.string(), tally),
    by_kind: z.record(z.string(), tally),
    roles: z.record(z.string(), RoleQualitySchema),
    tokens: z.object({ prompt: count, completion: count, total: count, cached: count, prefill: count }),
    /** Per-task medians of the tasks' `tokens` (null: no task). */
    median_tokens: MedianTokensSchema.nullable(),
    /** The median task's model minutes on each reference laptop, by profile id. */
    median_laptop_minutes: z.record(z.string(), z.number().nonnegative()),
    attempts: count,
    replans: count,
    /** Eval start to end (tasks overlap with --jobs). */
    elapsed_ms: z.number().nonnegative(),
    task_wall_ms: z.object({
      total: z.number().nonnegative(),
      median: z.number().nonnegative(),
      max: z.number().nonnegative(),
    }),
  }),
  tasks: z.array(EvalTaskResultSchema),
});
export type EvalReport = z.infer<typeof EvalReportSchema>;
