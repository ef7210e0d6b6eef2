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
