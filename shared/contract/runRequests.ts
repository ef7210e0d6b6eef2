import { z } from 'zod';
import { LineChangeSchema, LineCountSchema } from '../diff/lineDiff';
import { GateModeSchema } from '../schemas/gates';
import { ModelRoleSchema } from '../schemas/roles';
import { WorkflowNameSchema } from '../schemas/workflowName';
import { RunStateSchema } from '../engine/runState';
import { MAX_USER_EDITS, UserFileEditSchema } from '../engine/userEdit';
import type { RunFigures } from '../runView/runFigures';
import type { RunView } from '../runView/types';
import { ClientPathSchema } from '../schemas/app';
import { RunIdSchema, RunLogEventSchema, RunStatusSchema, TransientEventSchema } from '../schemas/run';

export const StartRunRequestSchema = z.strictObject({
  repo: ClientPathSchema,
  goal: z.string().trim().min(1).max(20_000),
  workflow: WorkflowNameSchema.optional(),
  /** One model for every role. */
  model: z.string().min(1).max(4096).optional(),
  roleModels: z.partialRecord(ModelRoleSchema, z.string().min(1).max(4096)).optional(),
  gates: z
    .strictObject({
      plan: GateModeSchema.optional(),
      code: GateModeSchema.optional(),
      step: GateModeSchema.optional(),
      goal: GateModeSchema.optional(),
    })
    .optional(),
  timeLimitMs: z.number().int().positive().nullable().optional(),
  testCommand: z.array(z.string().max(4096)).min(1).max(64).optional(),
  allowDirty: z.boolean().optional(),
  /** Follow up on this run: the new run's branch starts at its head, and its agents are told what it did. */
  followUpOf: RunIdSchema.optional(),
});
export type StartRunRequest = z.infer<typeof StartRunRequestSchema>;

export const RunRefSchema = z.strictObject({ repo: ClientPathSchema, runId: RunIdSchema });

/** One agent call of a run by its number (`agent_call`'s `call`): its record, `calls/<call>.json`. */
export const RunCallRequestSchema = RunRefSchema.extend({ call: z.number().int().positive().max(1_000_000_000) });

export const RunPageRequestSchema = z.strictObject({
  repo: ClientPathSchema,
  runId: RunIdSchema,
  /** Events with seq greater than this. */
  afterSeq: z.number().int().nonnegative().default(0),
  limit: z.number().int().min(1).max(20_000).default(5_000),
});

/** How much of a model call's stream the core keeps and the window shows: its last characters. */
export const MAX_STREAM_TAIL_CHARS = 6_000;

export const RunPageSchema = z.object({
  state: RunStateSchema,
  events: z.array(RunLogEventSchema),
  /** Seq of the last event returned; ask again with it for more. */
  lastSeq: z.number().int().nonnegative(),
  more: z.boolean(),
  /** A session of this run is going on in this process. */
  active: z.boolean(),
  /** role → what its model call in progress has streamed so far (tail); empty when no session is active. */
  streams: z.record(z.string(), z.string()),
  /**
   * The core's projection of the whole log (`shared/runView`), on the page that reaches the log's end
   * (null on earlier pages): the window selects from it rather than replaying the log. Built by the
   * core from validated events, so it is not checked again here.
   */
  view: z.custom<RunView>((value) => typeof value === 'object' && value !== null).nullable(),
  /** The run's numbers from that projection and the saved state (`runFigures`); null with `view`. */
  figures: z.custom<RunFigures>((value) => typeof value === 'object' && value !== null).nullable(),
});
export type RunPage = z.infer<typeof RunPageSchema>;

export const GateDecisionRequestSchema = z.strictObject({
  repo: ClientPathSchema,
  runId: RunIdSchema,
  gateId: z.string().min(1).max(200),
  approved: z.boolean(),
  comment: z.string().max(4000).nullable().optional(),
  /** The Supervisor's feedback as the user edited it: it replaces the verdict's feedback in the critique. */
  feedback: z.string().max(4000).nullable().optional(),
  /** Approve only: the person's rewrite of files in the gate's change, committed as their own before the tests run again. */
  edits: z.array(UserFileEditSchema).min(1).max(MAX_USER_EDITS).optional(),
});

export const RunStatusEventSchema = z.object({
  run_id: z.string(),
  repo: z.string(),
  status: RunStatusSchema,
  active: z.boolean(),
});
export const RunTransientEventSchema = z.object({ run_id: z.string(), event: TransientEventSchema });

export const RunCommitSchema = z.object({
  sha: z.string(),
  subject: z.string(),
  taskId: z.string().nullable(),
  files: z.array(z.object({ path: z.string(), added: z.number(), removed: z.number() })),
});

export const RunDiffRequestSchema = RunRefSchema.extend({
  /** Commit range; default: the run's base commit to its branch head (all changes). */
  from: z
    .string()
    .regex(/^[0-9a-f]{40}$/)
    .optional(),
  to: z
    .string()
    .regex(/^[0-9a-f]{40}$/)
    .optional(),
});

export const RunDiffSchema = z.object({
  base: z.string(),
  head: z.string(),
  /**
   * Each changed file's texts (null: absent on that side), its added and removed line counts and its
   * changed blocks (the core's line diff, so the window can show the diff before its editor has computed one).
   */
  files: z.array(
    z.object({
      path: z.string(),
      before: z.string().nullable(),
      after: z.string().nullable(),
      added: LineCountSchema,
      removed: LineCountSchema,
      changes: z.array(LineChangeSchema),
    }),
  ),
});

export const RunReportSchema = z.object({
  report: z.string().nullable(),
  prDescription: z.string().nullable(),
  stuckReport: z.string().nullable(),
});

export const VerifierLogRequestSchema = RunRefSchema.extend({
  verifyRunId: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/),
});
export const VerifierLogSchema = z.object({ text: z.string(), truncated: z.boolean(), path: z.string() });
