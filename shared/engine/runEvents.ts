import { z } from 'zod';
import { ErrorCodeSchema } from '../errors';
import { AgentContextDataSchema } from '../schemas/agentContext';
import { EditorBriefSchema, ScoutReportSchema } from '../schemas/agents/scout';
import { FindingSchema } from '../schemas/agents/tester';
import { RunStatusSchema, StoppedStatusSchema, type LogRole } from '../schemas/run';
import { AgentPurposeSchema } from './agentPurpose';
import { GateKindSchema, GateModeSchema } from '../schemas/gates';
import { ModelRoleSchema } from '../schemas/roles';
import { EditFormatNameSchema, RoleModelSchema } from './runConfig';
import {
  FeedbackSchema,
  MetricsSchema,
  PendingGateSchema,
  PhaseSchema,
  PlanStepSchema,
  TestSummarySchema,
} from './runState';
import { UserEditFileSchema } from './userEdit';

const stepId = z.string().nullable();
const gateRef = { gate_id: z.string(), gate: GateKindSchema };
/** A plan's step as logged; the defaults let a reader keep the steps of a log that lacks a later field. */
const PlanTaskSchema = z.object({
  id: z.string(),
  title: z.string(),
  rationale: z.string().default(''),
  acceptance: z.string().default(''),
  artifacts: z.array(z.string()).default([]),
  complexity: PlanStepSchema.shape.complexity.default(null),
  depends_on: z.array(z.string()).default([]),
});
/** A call's tokens; `cached_tokens` (served from a reused KV-cache prefix) and `estimated` are absent in older logs. */
const usage = z.object({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  cached_tokens: z.number().optional(),
  estimated: z.boolean().optional(),
});

/**
 * Every run-log event type and the shape of its `data` (docs/events.md documents each line; a test
 * keeps the two in step). Writers are checked against it by the compiler (`PendingEvent`), readers
 * get a typed view of it through `readRunEvent`.
 */
export const RUN_EVENTS = {
  /**
   * `models`: each role's model; logs of early versions name only its spec string. A follow-up names
   * its parent run and the commit its branch starts from; older logs and fresh runs have neither.
   */
  run_started: z.object({
    goal: z.string(),
    workflow: z.string(),
    seed: z.string(),
    branch_prefix: z.string(),
    models: z.partialRecord(ModelRoleSchema, RoleModelSchema.or(z.string())),
    follow_up_of: z.string().optional(),
    start_commit: z.string().optional(),
  }),
  run_resumed: z.object({
    phase: PhaseSchema,
    previous_status: RunStatusSchema,
    state_seq: z.number(),
    orphaned_events: z.object({ from: z.number(), to: z.number() }).nullable(),
  }),
  pause_requested: z.object({ phase: PhaseSchema, step_id: stepId }),
  workspace_setup: z.object({
    status: z.enum(['passed', 'failed', 'skipped']),
    reason: z.string().nullable(),
    argv: z.array(z.string()),
    cwd: z.string(),
    exit_code: z.number().nullable(),
    timed_out: z.boolean(),
    duration_ms: z.number(),
    output: z.string(),
    log_file: z.string().nullable(),
    /** Tracked files the setup changed, put back as the base has them (absent in logs before decision 95). */
    restored: z.array(z.string()).optional(),
    /** The install `auto` chose, a stand-in package manager, what was restored. */
    note: z.string().nullable().optional(),
  }),
  workspace_ready: z.object({
    branch: z.string(),
    base: z.string(),
    work_dir: z.string(),
    mode: z.enum(['worktree', 'in-place']),
    test_command: z.array(z.string()).nullable(),
    /** `detected: pytest (tests inside toolz/; …)` for a detected command, null for a configured one (absent before decision 95). */
    test_command_source: z.string().nullable().optional(),
  }),
  phase: z.object({ from: PhaseSchema, to: PhaseSchema, step_id: stepId }),
  plan: z.object({
    plan_id: z.string(),
    depth: z.number(),
    parent_step_id: stepId,
    analysis: z.string(),
    tasks: z.array(PlanTaskSchema),
  }),
  plan_invalid: z.object({ reason: z.string() }),
  step_started: z.object({ step_id: z.string(), title: z.string(), plan_id: z.string(), depth: z.number() }),
  step_completed: z.object({ step_id: z.string(), title: z.string(), commits: z.array(z.string()) }),
  step_failed: z.object({ step_id: z.string(), reason: z.string() }),
  step_blocked: z.object({ step_id: z.string(), depth: z.number(), reason: z.string() }),
  subplan_requested: z.object({ step_id: z.string(), depth: z.number(), reason: z.string() }),
  subplan_finished: z.object({ plan_id: z.string(), parent_step_id: z.string(), completed: z.boolean() }),
  metrics: MetricsSchema,
  counters: z.object({
    consecutive_verify_failures: z.number(),
    total_verify_loops: z.number(),
    replans: z.number(),
    decision: z.enum(['retry', 'replan', 'hard_stop']),
  }),
  retry: z.object({ step_id: z.string(), attempt: z.number(), feedback: FeedbackSchema.shape.kind }),
  fix_cycle: z.object({ step_id: stepId, cycle: z.number(), max: z.number() }),
  replan: z.object({ replan: z.number(), reason: z.string() }),
  replan_requested: z.object({ reason: z.string() }),
  rollback: z.object({ step_id: stepId, to: z.string(), dropped: z.array(z.string()), reason: z.string().optional() }),
  edit_format_fallback: z.object({
    step_id: stepId,
    from: EditFormatNameSchema,
    to: EditFormatNameSchema,
    reason: z.string(),
  }),
  budget_exhausted: z.object({
    scope: z.enum(['step', 'execution']),
    step_id: stepId,
    reason: z.string(),
    failed_steps: z.array(z.string()).optional(),
  }),
  command_rejected: z.object({ command: z.string(), reason: z.string() }),
  /** `call`: the call's number, its record `calls/<call>.json` (absent in logs written before records). */
  agent_call: z.object({
    purpose: AgentPurposeSchema,
    model: z.string().nullable(),
    step_id: stepId,
    call: z.number().int().positive().optional(),
  }),
  agent_context: AgentContextDataSchema.extend({ purpose: AgentPurposeSchema }),
  agent_retry: z.object({
    purpose: AgentPurposeSchema,
    attempt: z.number(),
    code: ErrorCodeSchema,
    message: z.string(),
    raw: z.string().nullable(),
  }),
  agent_output: z.object({
    purpose: AgentPurposeSchema,
    output: z.unknown(),
    usage,
    calls: z.number(),
    call: z.number().int().positive().optional(),
  }),
  agent_raw: z.object({ purpose: AgentPurposeSchema, raw: z.string() }),
  /** `usage`: what the calls cost (absent in older logs). */
  agent_declined: z.object({
    purpose: AgentPurposeSchema,
    reason: z.string(),
    usage: usage.optional(),
    calls: z.number().optional(),
  }),
  /** `code` when a model error no retry can cure ended the run; `usage`: what the calls cost (absent in older logs). */
  agent_failed: z.object({
    purpose: AgentPurposeSchema,
    reason: z.string(),
    code: ErrorCodeSchema.optional(),
    usage: usage.optional(),
    calls: z.number().optional(),
  }),
  patch: z.object({ step_id: stepId, files: z.array(z.string()), format: EditFormatNameSchema }),
  edit_rejected: z.object({
    code: ErrorCodeSchema,
    rule: z.string().nullable(),
    path: z.string().nullable(),
    message: z.string(),
  }),
  commit: z.object({ sha: z.string().nullable(), step_id: stepId, files: z.array(z.string()) }),
  test_result: TestSummarySchema.extend({
    purpose: z.enum(['preflight', 'baseline', 'step', 'final']),
    step_id: stepId.optional(),
  }),
  tester_report: z.object({
    step_id: stepId,
    passed: z.boolean(),
    report: z.string(),
    model_passed: z.boolean().nullable(),
  }),
  /** The Tester's fix plan; `invalid` (and nothing else but `step_id`) when its answer did not match the schema. */
  fix_plan: z.object({
    step_id: stepId,
    summary: z.string().optional(),
    findings: z.array(FindingSchema).optional(),
    fix_plan: z.array(z.string()).optional(),
    blocking: z.boolean().optional(),
    invalid: z.literal(true).optional(),
  }),
  fix_plan_verdict: z.object({
    step_id: stepId,
    approved: z.boolean(),
    score: z.number(),
    threshold: z.number(),
    issues: z.array(z.string()),
    feedback: z.string(),
    escalation: z.string().nullable(),
  }),
  gate_opened: z.object({
    gate_id: z.string(),
    kind: GateKindSchema,
    step_id: stepId,
    mode: GateModeSchema,
    test_files: z.array(z.string()).default([]),
    unrelated: z.array(z.string()).default([]),
  }),
  verdict: z.object({
    ...gateRef,
    step_id: stepId,
    approved: z.boolean(),
    score: z.number(),
    threshold: z.number(),
    issues: z.array(z.string()),
    feedback: z.string(),
    final_tests_failed: z.literal(true).optional(),
    escalation: z.string().nullable(),
    consecutive_issues: z.number().nullable(),
  }),
  gate_pending: PendingGateSchema,
  gate_decided: z.object({
    ...gateRef,
    approved: z.boolean(),
    comment: z.string().nullable(),
    edited_feedback: z.string().nullable(),
  }),
  /** The person's edit at a gate, committed with `Lathe-Role: user`; the tests run again on it. */
  user_edit: z.object({
    ...gateRef,
    step_id: stepId,
    commit: z.string(),
    files: z.array(UserEditFileSchema),
    test_files: z.array(z.string()),
  }),
  gate_closed: z.object({ ...gateRef, approved: z.boolean(), by: z.enum(['supervisor', 'user']) }),
  gate_unreviewed: z.object({ ...gateRef, step_id: stepId, reason: z.string() }),
  /** Written by versions before `gate_unreviewed`: the gate passed without a review. Read, never written. */
  gate_fallback: z.object({ ...gateRef, step_id: stepId, reason: z.string() }),
  scout_brief: EditorBriefSchema,
  scout_report: z.object({
    scout: z.enum(['A', 'B']),
    question: z.string(),
    context_file: z.string(),
    tool_calls: z.number(),
    report: ScoutReportSchema,
  }),
  warning: z.object({ message: z.string(), ids: z.array(z.string()).optional(), reason: z.string().optional() }),
  run_stopped: z.object({
    status: StoppedStatusSchema,
    reason: z.string(),
    phase: PhaseSchema,
    resumable: z.literal(true),
  }),
  run_finished: z.object({
    status: RunStatusSchema,
    exit_code: z.number(),
    reason: z.string(),
    code: ErrorCodeSchema.optional(),
    commits: z.array(z.string()),
  }),
  definition_of_done: z.object({
    checks: z.array(
      z.object({
        id: z.enum(['verifier_pass', 'minimal_diff', 'tests_for_change', 'summary']),
        ok: z.boolean(),
        detail: z.string(),
      }),
    ),
  }),
  artifacts_released: z.object({ dirs: z.array(z.string()) }),
  report_written: z.object({
    report: z.string(),
    pr_description: z.string().nullable(),
    stuck_report: z.string().nullable(),
  }),
  push: z.object({ remote: z.string(), pushed: z.boolean(), detail: z.string(), code: ErrorCodeSchema.optional() }),
  run_undone: z.object({
    branch: z.string(),
    base: z.string(),
    previous_status: RunStatusSchema,
    was_merged: z.boolean(),
  }),
  run_merged: z.object({ into: z.string().nullable(), commit: z.string(), branch: z.string() }),
} as const;

export type RunEventType = keyof typeof RUN_EVENTS;
/** The `data` of one event type, as a writer must give it. */
export type RunEventData<T extends RunEventType> = z.output<(typeof RUN_EVENTS)[T]>;

/** A log line a writer wants appended; the run store adds ts, seq and run_id. */
export type PendingEvent = { [T in RunEventType]: { role: LogRole; type: T; data: RunEventData<T> } }[RunEventType];
export type PendingEventOf<T extends RunEventType> = Extract<PendingEvent, { type: T }>;

export const RUN_EVENT_TYPES = Object.keys(RUN_EVENTS) as RunEventType[];

export function isRunEventType(type: string): type is RunEventType {
  return Object.hasOwn(RUN_EVENTS, type);
}

/** A type guard for `filter`: `events.filter(ofType('verdict'))` keeps the verdicts, typed. */
export function ofType<T extends RunEventType>(type: T) {
  return <E extends { type: string }>(event: E): event is Extract<E, { type: T }> => event.type === type;
}
