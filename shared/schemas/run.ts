import { z } from 'zod';

/** Who wrote a run log line: a model role, or a part of the engine acting on its own. */
export const LogRoleSchema = z.enum([
  'engine',
  'planner',
  'coder',
  'tester',
  'supervisor',
  'editor',
  'scout',
  'verifier',
  'git',
  'user',
]);
export type LogRole = z.infer<typeof LogRoleSchema>;

/** One line of `.lathe/runs/<run_id>/log.jsonl`; snake_case as persisted (seed 000). */
export const RunLogEventSchema = z.object({
  ts: z.string(),
  seq: z.number().int().positive(),
  run_id: z.string().min(1).max(64),
  role: LogRoleSchema,
  type: z.string().min(1).max(64),
  data: z.record(z.string(), z.unknown()),
});
export type RunLogEvent = z.infer<typeof RunLogEventSchema>;

export const RunStatusSchema = z.enum([
  'running',
  'paused',
  'waiting_for_gate',
  'complete',
  'failed',
  'stuck',
  'aborted',
  'time_expired',
]);
export type RunStatus = z.infer<typeof RunStatusSchema>;

/** How a run stops to be resumed later (`run_stopped`), as against finishing. */
export const StoppedStatusSchema = RunStatusSchema.extract(['paused', 'aborted', 'time_expired']);
export type StoppedStatus = z.infer<typeof StoppedStatusSchema>;

/**
 * What the user did with a run after it: `undone` (its branch and workspace removed, the repository
 * as it was) or `merged` (fast-forwarded into the branch it started from). Written to state.json with
 * the `run_undone` / `run_merged` log event it mirrors (docs/events.md); a later undo replaces a merge.
 */
export const RunClosureSchema = z.object({
  action: z.enum(['undone', 'merged']),
  /** The event's timestamp and seq in log.jsonl. */
  at: z.string(),
  seq: z.number().int().positive(),
  /** merged: the branch the run went into. */
  into: z.string().nullable(),
  /** merged: the commit the branch now points at; undone: the base commit the repository is back at. */
  commit: z.string().nullable(),
});
export type RunClosure = z.infer<typeof RunClosureSchema>;

export const RunSummarySchema = z.object({
  runId: z.string(),
  goal: z.string(),
  workflow: z.string(),
  status: RunStatusSchema,
  branch: z.string().nullable(),
  startedAt: z.string(),
  updatedAt: z.string(),
  /**
   * The run's own time (state.json `elapsed_ms`: across sessions, gate waits excluded, as the time limit
   * counts it). Not updatedAt − startedAt: a later merge or undo moves updatedAt (issue 29).
   */
  durationMs: z.number().nonnegative(),
  commits: z.number().int().nonnegative(),
  /** Undone or merged after the run; `branch` is null once undone (the branch is gone). */
  closed: RunClosureSchema.nullable(),
  /** The run kept its phase (paused, interrupted, out of time, or its process died) and was not undone: a resume continues it. */
  resumable: z.boolean(),
  /** The run this one follows up on (its branch starts at that run's head); null for a fresh run. */
  followUpOf: z.string().nullable(),
});
export type RunSummary = z.infer<typeof RunSummarySchema>;

/** seed 003's run_id: the UTC start time (plus `-N` when two runs share a second); never a path. */
export const RunIdSchema = z.string().regex(/^\d{8}T\d{6}Z(-\d{1,4})?$/, 'not a run id');

/** Live-only events (token stream, model loading, context warnings): shown, never logged. */
export const TransientEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('token'), role: z.string(), text: z.string() }),
  z.object({ type: z.literal('model_load_progress'), model: z.string(), progress: z.number() }),
  z.object({ type: z.literal('model_loaded'), model: z.string(), loadMs: z.number() }),
  z.object({ type: z.literal('context_dropped'), role: z.string(), ids: z.array(z.string()), reason: z.string() }),
]);
export type TransientEvent = z.infer<typeof TransientEventSchema>;
