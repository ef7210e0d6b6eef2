import { z } from 'zod';
import { AppInfoSchema, ClientPathSchema } from '../schemas/app';
import { RepoStatusSchema } from '../schemas/repo';
import { RunLogEventSchema, RunSummarySchema } from '../schemas/run';
import { ModelEntrySchema } from '../schemas/models';
import { AgentCallRecordSchema } from '../schemas/agentCall';
import { RecentRepoSchema, SettingsPatchSchema, SettingsReadSchema, SettingsSchema } from '../schemas/settings';
import {
  GateDecisionRequestSchema,
  RunCommitSchema,
  RunDiffRequestSchema,
  RunDiffSchema,
  RunCallRequestSchema,
  RunReportSchema,
  VerifierLogRequestSchema,
  VerifierLogSchema,
  RunPageRequestSchema,
  RunPageSchema,
  RunRefSchema,
  RunStatusEventSchema,
  RunTransientEventSchema,
  StartRunRequestSchema,
} from './runRequests';

const request = <Req extends z.ZodType, Res extends z.ZodType>(
  req: Req,
  res: Res,
  options: { responseCheckedByHandler?: true } = {},
) => ({ req, res, ...options });
const empty = z.object({}).strict();

/**
 * Every request a client can make, as `'domain/verb': {req, res}`. The ipcMain registration, the
 * preload bridge, the WebSocket host and the browser client are all derived from this one map.
 */
export const requestChannels = {
  'app/info': request(empty, AppInfoSchema),
  'repo/open': request(z.object({ path: ClientPathSchema }).strict(), RepoStatusSchema),
  'repo/status': request(z.object({ path: ClientPathSchema }).strict(), RepoStatusSchema),
  'runs/list': request(z.object({ repo: ClientPathSchema }).strict(), z.object({ runs: z.array(RunSummarySchema) })),
  'run/start': request(StartRunRequestSchema, z.object({ runId: z.string() })),
  // `goal`: the goal the user resumes for; a run started with another goal is refused (seed 003's spec_hash).
  'run/resume': request(
    RunRefSchema.extend({
      timeLimitMs: z.number().int().positive().nullable().optional(),
      goal: z.string().max(20_000).optional(),
    }),
    z.object({ runId: z.string() }),
  ),
  /** Stop after the current operation, resumable (status `paused`); `pausing: false` when no session of the run is going on here. */
  'run/pause': request(RunRefSchema, z.object({ pausing: z.boolean() })),
  /** Interrupt the run now and end it for good (status `aborted`, phase finished). */
  'run/cancel': request(RunRefSchema, z.object({ status: z.string() })),
  // Its events were validated line by line as they were read from log.jsonl; checking 10k of them again costs the window's first paint.
  'run/get': request(RunPageRequestSchema, RunPageSchema, { responseCheckedByHandler: true }),
  'gate/decide': request(GateDecisionRequestSchema, z.object({ accepted: z.boolean(), resumed: z.boolean() })),
  'run/commits': request(RunRefSchema, z.object({ commits: z.array(RunCommitSchema) })),
  'run/diff': request(RunDiffRequestSchema, RunDiffSchema),
  'run/undo': request(RunRefSchema, z.object({ undone: z.boolean() })),
  'run/merge': request(RunRefSchema, z.object({ merged: z.string() })),
  // `patch`: the text, for a window in a browser to offer as a download (it cannot open the core's file); null when over 2 MB.
  'run/exportPatch': request(
    RunRefSchema,
    z.object({ file: z.string(), commits: z.number(), patch: z.string().nullable() }),
  ),
  'run/report': request(RunRefSchema, RunReportSchema),
  /** What agent call `call` was sent and answered (docs/events.md, calls/<n>.json); CALL_NOT_FOUND when it has no record. */
  'run/call': request(RunCallRequestSchema, AgentCallRecordSchema),
  'verifier/log': request(VerifierLogRequestSchema, VerifierLogSchema),
  'repo/recent': request(empty, z.object({ repos: z.array(RecentRepoSchema) })),
  'models/list': request(empty, z.object({ folders: z.array(z.string()), models: z.array(ModelEntrySchema) })),
  'settings/get': request(empty, SettingsReadSchema),
  'settings/set': request(SettingsPatchSchema, SettingsSchema),
  'dialog/openFolder': request(empty, z.object({ path: z.string().nullable() })),
} as const;

/** Events the core pushes to every subscribed client. */
export const eventChannels = {
  'run/event': RunLogEventSchema,
  'run/transient': RunTransientEventSchema,
  'run/status': RunStatusEventSchema,
  'repo/changed': RepoStatusSchema,
} as const;

/** Channels only the app shell can answer (native dialogs); the web host answers UNSUPPORTED. */
export const shellChannels = ['dialog/openFolder'] as const satisfies readonly RequestChannel[];

export type RequestChannels = typeof requestChannels;
export type RequestChannel = keyof RequestChannels;
export type EventChannels = typeof eventChannels;
export type EventName = keyof EventChannels;
export type ShellChannel = (typeof shellChannels)[number];
export type CoreChannel = Exclude<RequestChannel, ShellChannel>;

/** What a caller sends (before defaults are applied). */
export type RequestOf<C extends RequestChannel> = z.input<RequestChannels[C]['req']>;
/** What a handler receives (validated, defaults applied). */
export type ValidRequestOf<C extends RequestChannel> = z.output<RequestChannels[C]['req']>;
export type ResponseOf<C extends RequestChannel> = z.output<RequestChannels[C]['res']>;
export type EventOf<E extends EventName> = z.output<EventChannels[E]>;

export const requestChannelNames = Object.keys(requestChannels) as RequestChannel[];
export const eventNames = Object.keys(eventChannels) as EventName[];

export function isRequestChannel(value: unknown): value is RequestChannel {
  return typeof value === 'string' && Object.hasOwn(requestChannels, value);
}

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && Object.hasOwn(eventChannels, value);
}
