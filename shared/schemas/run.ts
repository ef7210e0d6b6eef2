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

export const RunSummarySchema = z.object({
  runId: z.string(),
  goal: z.string(),
  workflow: z.string(),
  status: RunStatusSchema,
  branch: z.string().nullable(),
  startedAt: z.string(),
  updatedAt: z.string(),
  commits: z.number().int().nonnegative(),
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
