import { z } from 'zod';
import { ErrorCodeSchema } from '../errors';
import { RunClosureSchema, RunStatusSchema } from '../schemas/run';
import { GateKindSchema } from '../schemas/gates';
import { EditFormatNameSchema, RunConfigSchema } from './runConfig';
import { EditorBriefSchema } from '../schemas/agents/scout';
import { InventoryCheckSchema } from './testInventory';

/**
 * Where a run stands. The engine asks `nextAction` what to do in each phase, runs the effect, and
 * `applyOutcome` moves the phase on. Pure phases (`selecting`) have no effect.
 */
export const PhaseSchema = z.enum([
  /** Creating the run branch and workspace. */
  'preparing',
  /** Seed 001: running the tests before any model call. */
  'preflight',
  /** Seed 004: Scouts answering the Editor's questions. */
  'scouting',
  /** The Planner (or a one-task plan from the goal). */
  'planning',
  /** Plan gate. */
  'plan_review',
  /** Choosing the next task whose dependencies are done. */
  'selecting',
  /** The Coder/Editor writing a proposal for the current task. */
  'coding',
  /** Code gate. */
  'code_review',
  /** Guardrails, writing the files, committing. */
  'applying',
  /** The Verifier running the test command and extra verification tools. */
  'verifying',
  /** The Tester reporting on (or planning fixes for) the result. */
  'testing',
  /** Step gate. */
  'step_review',
  /** Goal gate after the last task. */
  'goal_review',
  'finished',
]);
export type Phase = z.infer<typeof PhaseSchema>;

export const StepStatusSchema = z.enum(['pending', 'in_progress', 'completed', 'failed', 'blocked']);

export const PlanStepSchema = z.object({
  id: z.string(),
  title: z.string(),
  rationale: z.string(),
  acceptance: z.string(),
  artifacts: z.array(z.string()),
  complexity: z.enum(['simple', 'medium', 'complex']).nullable(),
  depends_on: z.array(z.string()),
  status: StepStatusSchema,
  attempts: z.number().int().nonnegative(),
  depth: z.number().int().min(0).max(3),
  parent_step_id: z.string().nullable(),
  sub_plan_id: z.string().nullable(),
  fail_reason: z.string().nullable(),
  commits: z.array(z.string()),
});
export type PlanStep = z.infer<typeof PlanStepSchema>;

export const PlanRecordSchema = z.object({
  plan_id: z.string(),
  analysis: z.string(),
  depth: z.number().int().min(0).max(3),
  parent_plan_id: z.string().nullable(),
  parent_step_id: z.string().nullable(),
  steps: z.array(PlanStepSchema),
  status: z.enum(['pending', 'in_progress', 'completed', 'failed']),
});
export type PlanRecord = z.infer<typeof PlanRecordSchema>;

/** What the engine keeps of a Verifier result (the full one is in the artifact folder). */
export const TestSummarySchema = z.object({
  status: z.enum(['PASS', 'FAIL', 'INFRA_ERROR']),
  passed: z.boolean(),
  exit_code: z.number().int().nullable(),
  counts: z.object({ passed: z.number(), failed: z.number(), skipped: z.number(), total: z.number() }).nullable(),
  first_failure: z
    .object({ test_id: z.string(), message: z.string(), location: z.string().nullable().default(null) })
    .nullable(),
  /** Where the counts were read from (`mocha (spec output)`); null when the output matched no runner Lathe reads. */
  results_from: z.string().nullable().default(null),
  /** Seed 000's truncated output (the minimal workflow's Tester reads it). */
  report: z.string(),
  /** The failure-focused excerpt (summary, each failure's name, message and frames, then the tail): what other models see. */
  excerpt: z.string().default(''),
  /** Seed 004: the last 200 lines of the output, for the Editor. */
  tail: z.string().default(''),
  reason: z.string().nullable(),
  isolation: z.string(),
  duration_ms: z.number(),
  verify_run_id: z.string(),
  artifact_dir: z.string(),
  coverage_percent: z.number().nullable(),
  /** Which command decided a non-PASS status: seed 004's build step, or the tests. */
  failed_phase: z.enum(['build', 'test']).nullable().default(null),
  /** What the commands wrote in the run's work tree and how it was undone; null when it was read-only. */
  work_dir_writes: z
    .object({
      restored: z.array(z.string()),
      removed: z.array(z.string()),
      relinked: z.array(z.string()),
      failed: z.array(z.string()),
    })
    .nullable()
    .default(null),
  /** This run's tests against the run's start (names or totals); null for the start itself or when either run reported no counts. */
  inventory: InventoryCheckSchema.nullable().default(null),
  /** Seed 003's registered tools in order, the test command first (`tests`); `reason` when one did not pass. */
  tools: z.array(
    z.object({
      name: z.string(),
      status: z.enum(['PASS', 'FAIL', 'INFRA_ERROR']),
      required: z.boolean(),
      reason: z.string().nullable().default(null),
    }),
  ),
});
export type TestSummary = z.infer<typeof TestSummarySchema>;

/**
 * One piece of a critique and who wrote it: the human's comment at a gate, the human's rewrite of the
 * Supervisor's feedback, the Supervisor's verdict, or the engine's own note. Kept so a recorded agent
 * call can show where each part of the writer's feedback came from (docs/events.md, `calls/`).
 */
export const FeedbackPartSchema = z.object({
  source: z.enum(['human', 'human_edit', 'supervisor', 'engine']),
  gate: z.enum(['plan', 'code', 'step', 'goal']).nullable(),
  text: z.string(),
});
export type FeedbackPart = z.infer<typeof FeedbackPartSchema>;

export const FeedbackSchema = z.object({
  kind: z.enum([
    'test_output',
    'first_failure',
    'fix_plan',
    'critique',
    'edit_rejected',
    'agent_error',
    'tests_weakened',
    'rolled_back',
    'repeated_answer',
  ]),
  text: z.string(),
  /** A critique's parts by origin, joined by newlines into `text`; absent for other kinds and in states written before them. */
  parts: z.array(FeedbackPartSchema).optional(),
});
export type Feedback = z.infer<typeof FeedbackSchema>;

export const VerdictSchema = z.object({
  approved: z.boolean(),
  score: z.number().min(0).max(100),
  issues: z.array(z.string()),
  feedback: z.string(),
  /** Hunks the reviewer names as unrelated to the task (older states lack it). */
  unrelated: z.array(z.string()).default([]),
});
export type Verdict = z.infer<typeof VerdictSchema>;

/** A gate waiting for the Supervisor and/or the user; persisted so a restart shows the same gate. */
export const PendingGateSchema = z.object({
  gate_id: z.string(),
  kind: GateKindSchema,
  step_id: z.string().nullable(),
  threshold: z.number(),
  verdict: VerdictSchema.nullable(),
  escalation: z.string().nullable(),
  opened_at: z.string(),
  /** Why the Supervisor could not review this gate (every retry failed): a person must decide it. */
  unreviewed: z.string().nullable().default(null),
  /** Seed 002's goal gate: the final full test run is still to be made before the review. */
  needs_final_test: z.boolean().default(false),
  /** Existing test files the change under review modifies (`tests: protect`): passing the gate approves them, and `--yes` never does. */
  test_files: z.array(z.string()).default([]),
  /** The change's hunks classed as unrelated to the task (`path lines A-B: why`), shown apart for the reviewer. */
  unrelated: z.array(z.string()).default([]),
});
export type PendingGate = z.infer<typeof PendingGateSchema>;

export const WorkspaceRecordSchema = z.object({
  runId: z.string(),
  repoRoot: z.string(),
  workDir: z.string(),
  mode: z.enum(['worktree', 'in-place']),
  branch: z.string(),
  baseCommit: z.string(),
  originalBranch: z.string().nullable(),
  protectedPaths: z.array(z.string()),
});

export const CountersSchema = z.object({
  consecutive_verify_failures: z.number().int().nonnegative(),
  total_verify_loops: z.number().int().nonnegative(),
  replans: z.number().int().nonnegative(),
  plan_attempts: z.number().int().nonnegative(),
  fix_cycles: z.number().int().nonnegative(),
  consecutive_low_scores: z.number().int().nonnegative(),
  gates_opened: z.number().int().nonnegative(),
});
export type Counters = z.infer<typeof CountersSchema>;

/** Model calls and their tokens while one step was current (calls outside steps, such as planning, count only per role). */
export const StepTokensSchema = z.object({
  calls: z.number().int().nonnegative(),
  prompt_tokens: z.number().int().nonnegative(),
  cached_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  estimated: z.boolean(),
});
export type StepTokens = z.infer<typeof StepTokensSchema>;

export const MetricsSchema = z.object({
  total_steps: z.number().int().nonnegative(),
  completed_steps: z.number().int().nonnegative(),
  failed_steps: z.number().int().nonnegative(),
  replan_count: z.number().int().nonnegative(),
  fix_cycles: z.number().int().nonnegative(),
  verifications_passed: z.number().int().nonnegative(),
  verifications_failed: z.number().int().nonnegative(),
  agents: z.record(
    z.string(),
    z.object({
      status: z.enum(['idle', 'working', 'failed']),
      calls: z.number().int().nonnegative(),
      prompt_tokens: z.number().int().nonnegative(),
      completion_tokens: z.number().int().nonnegative(),
      /** Of the prompt tokens, those served from a reused KV-cache prefix; absent in states written before they were counted. */
      cached_tokens: z.number().int().nonnegative().optional(),
      /** Some of the counts are estimates (oracle, replay). */
      estimated: z.boolean().optional(),
    }),
  ),
  /** The same counts per plan step (its id), for the calls made while it was the current step. */
  steps: z.record(z.string(), StepTokensSchema).optional(),
});
export type Metrics = z.infer<typeof MetricsSchema>;

export const RunResultSchema = z.object({
  status: RunStatusSchema,
  exit_code: z.number().int(),
  reason: z.string(),
  /** The error code that ended the run at exit 2 (`MODEL_LOAD_FAILED`, a git error…); absent otherwise. */
  code: ErrorCodeSchema.optional(),
});
export type RunResult = z.infer<typeof RunResultSchema>;

/** The suite at the run's start: what every later verification is compared with (names on disk, `baseline-tests.json`). */
export const BaselineSchema = z.object({
  status: z.enum(['PASS', 'FAIL', 'INFRA_ERROR']),
  counts: TestSummarySchema.shape.counts,
  commit: z.string().nullable(),
});
export type Baseline = z.infer<typeof BaselineSchema>;

/**
 * The best state of the current step so far: the base its next attempt builds on. An attempt that
 * leaves more failing tests, weakens the tests or breaks the build is rolled back to it.
 */
export const AttemptBaseSchema = z.object({
  commit: z.string(),
  commit_count: z.number().int().nonnegative(),
  /** Failing tests there; null when unknown (not verified yet, or no counts). */
  failed: z.number().int().nonnegative().nullable(),
  /** Tests there, to tell a new failing test (a test written first) from one that broke. */
  total: z.number().int().nonnegative().nullable().default(null),
  /** Whether the tests passed there; null when not verified. */
  passed: z.boolean().nullable(),
  /** The build failed there (seed 004's build step). */
  build_failed: z.boolean(),
  /** The failing run's text there (its excerpt): a retry after a rollback is ranked on it; absent when it passed. */
  failing_run: z.string().optional(),
});
export type AttemptBase = z.infer<typeof AttemptBaseSchema>;

/** The last verification's verdict on a commit: what a step started there, or an answer changing nothing, builds on. */
export const TestedHeadSchema = AttemptBaseSchema.omit({ commit_count: true }).extend({ passed: z.boolean() });
export type TestedHead = z.infer<typeof TestedHeadSchema>;

/** A writer answer already tried in this step, by its fingerprint (the answer and the base it was given on). */
export const TriedAnswerSchema = z.object({
  key: z.string(),
  /** The same answer keyed on the head its own commit made: given again there, it is still the same answer. */
  applied_key: z.string().nullable().default(null),
  /** The answer's length in characters (its JSON): a later attempt's answer budget covers the longest one. */
  chars: z.number().int().nonnegative().default(0),
  attempt: z.number().int().nonnegative(),
  times: z.number().int().positive(),
  outcome: z.string(),
});
export type TriedAnswer = z.infer<typeof TriedAnswerSchema>;

/** `.lathe/runs/<run_id>/state.json`; starts with the header every workflow shares (runs/listRuns.ts). */
export const RunStateSchema = z.object({
  run_id: z.string(),
  goal: z.string(),
  workflow: z.string(),
  status: RunStatusSchema,
  branch: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  commits: z.array(z.string()),
  state_version: z.literal(1),
  goal_hash: z.string(),
  config: RunConfigSchema,
  phase: PhaseSchema,
  workspace: WorkspaceRecordSchema.nullable(),
  /** The run branch's commit after the last recorded step; resume resets the work tree to it. */
  head: z.string().nullable(),
  test_command: z.array(z.string()).nullable(),
  /** `detected: pytest (tests inside toolz/; …)` when the command was detected; null when configured or in older states. */
  test_command_source: z.string().nullable().default(null),
  /** What the workspace setup did (the install `auto` chose, files it restored), for the report. */
  setup_note: z.string().nullable().default(null),
  plans: z.array(PlanRecordSchema),
  /** Innermost plan last (seed 002's planStack). */
  plan_stack: z.array(z.string()),
  current_step_id: z.string().nullable(),
  /** The writer's proposal waiting to be applied. */
  proposal: z.unknown().nullable(),
  /** Where the current step started: a rejected code gate rolls back to it (re-implementation). */
  step_base: z.object({ commit: z.string(), commit_count: z.number().int().nonnegative() }).nullable(),
  /** Gates already passed in the current attempt (code, then step). */
  passed_gates: z.array(GateKindSchema),
  /** Seed 002: the escalation message for the next prompt of the agent concerned. */
  escalation_note: z
    .object({ level: z.string(), message: z.string(), role: z.enum(['planner', 'writer', 'tester']) })
    .nullable(),
  /** Seed 002: the Tester's fix plan, waiting for the Supervisor's review before it reaches the Coder. */
  fix_review: z.object({ text: z.string(), plan: z.string() }).nullable().default(null),
  proposal_files: z.array(z.string()),
  last_test: TestSummarySchema.nullable(),
  feedback: FeedbackSchema.nullable(),
  gate: PendingGateSchema.nullable(),
  counters: CountersSchema,
  metrics: MetricsSchema,
  /** Model calls made per role; a resumed replay run continues after these. */
  model_calls: z.record(z.string(), z.number().int().nonnegative()),
  /** The last log seq whose effects this state includes. */
  log_seq: z.number().int().nonnegative(),
  /** Scout report files recorded so far (seed 004). */
  contexts: z.array(z.string()),
  /** Seed 004: the Editor's brief and the next Scout question to ask; reset by a REPLAN. */
  scouting: z.object({ brief: EditorBriefSchema.nullable(), next: z.number().int().nonnegative() }).nullable(),
  /** The Tester's findings on the current attempt (seed 002), for the Supervisor's code gate. */
  tester_findings: z.array(
    z.object({ severity: z.string(), kind: z.string(), description: z.string(), location: z.string() }),
  ),
  /** The last failed verifications, for the stuck report and the Editor's brief (seed 004); `report` holds each one's excerpt. */
  failure_history: z.array(
    z.object({
      step_id: z.string().nullable(),
      status: z.string(),
      first_failure: z.string().nullable(),
      report: z.string(),
      artifact_dir: z.string(),
    }),
  ),
  started_ms: z.number(),
  /** Seed 002 budget accounting: time spent per phase group, and by the current step. */
  time_spent: z.object({
    planning: z.number().nonnegative(),
    execution: z.number().nonnegative(),
    verification: z.number().nonnegative(),
  }),
  step_time: z
    .object({ step_id: z.string(), spent_ms: z.number().nonnegative(), fix_cycle_spent_ms: z.number().nonnegative() })
    .nullable(),
  /** Run time used as of the last save, across sessions (resume does not reset the budget). */
  elapsed_ms: z.number().nonnegative(),
  result: RunResultSchema.nullable(),
  /** The suite at the run's start; null before it ran, or for states saved before it existed. */
  baseline: BaselineSchema.nullable().default(null),
  /** The last verified commit and its verdict. */
  tested_head: TestedHeadSchema.nullable().default(null),
  /** The current step's best state so far (see AttemptBaseSchema). */
  attempt_base: AttemptBaseSchema.nullable().default(null),
  /** The writer's answers tried in the current step (a repeated one is refused; the third ends the attempts). */
  tried_answers: z.array(TriedAnswerSchema).default([]),
  /** Hunks of the current step's change classed as unrelated to the task (`path lines A-B: why`), for its gates and the report. */
  unrelated_hunks: z.array(z.string()).default([]),
  /** The commit each of `unrelated_hunks` came with, in the same order: a rollback keeps the hunks of the commits it keeps. */
  unrelated_hunk_commits: z.array(z.string()).default([]),
  /**
   * The edit format the writer uses instead of the configured whole-file since a file it had to rewrite did
   * not fit its window (decision 105); null: the configured format.
   */
  edit_format_fallback: z.object({ format: EditFormatNameSchema, reason: z.string() }).nullable().default(null),
  /** Existing test files whose change a gate approved explicitly (never `--yes`). */
  approved_test_files: z.array(z.string()).default([]),
  /** Undone or merged by the user after the run (the `run_undone`/`run_merged` event it mirrors); older states lack it. */
  closed: RunClosureSchema.nullable().default(null),
  /** The run this one follows up on (`lathe run --follow-up`): its branch starts at that run's head; null for a fresh run and in older states. */
  follow_up_of: z.string().nullable().default(null),
  /**
   * The commit the run branch starts from when it is not the checkout's HEAD (a follow-up: its parent's
   * head), frozen at start so a resume prepares the same branch; null: HEAD at preparing.
   */
  start_commit: z.string().nullable().default(null),
});
export type RunState = z.infer<typeof RunStateSchema>;
