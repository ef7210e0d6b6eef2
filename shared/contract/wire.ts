import { z } from 'zod';
import { LatheErrorSchema } from '../errors';

/** Client → host frames on the WebSocket. */
export const ClientFrameSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('request'),
    id: z.number().int().nonnegative(),
    channel: z.string().max(64),
    payload: z.unknown(),
  }),
  z.object({
    kind: z.literal('subscribe'),
    events: z.array(z.string().max(64)).max(64),
  }),
]);
export type ClientFrame = z.infer<typeof ClientFrameSchema>;

export const ResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: LatheErrorSchema }),
]);

/** Host → client frames. */
export const HostFrameSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('response'), id: z.number().int().nonnegative(), result: ResultSchema }),
  z.object({ kind: z.literal('event'), name: z.string(), payload: z.unknown() }),
  z.object({ kind: z.literal('error'), error: LatheErrorSchema }),
]);
export type HostFrame = z.infer<typeof HostFrameSchema>;

/** The IPC channel on which the Electron main process pushes contract events to windows. */
export const ELECTRON_EVENT_CHANNEL = 'lathe:event';
/** Caps a single frame; bigger payloads are refused before parsing. */
export const MAX_FRAME_BYTES = 4 * 1024 * 1024;
