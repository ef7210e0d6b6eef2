import type { z } from 'zod';
import { requestChannels, isRequestChannel, type RequestChannel } from '../../../shared/contract/channels';
import type { Handlers } from '../../../shared/contract/api';
import { LatheError } from '../../../shared/errors';
import { failure, ok, type Result } from '../../../shared/result';

/**
 * The single entry for every request from any transport: checks the channel, validates the payload,
 * runs the handler and validates what it returns. Never throws.
 */
export async function dispatch(handlers: Handlers, channel: unknown, payload: unknown): Promise<Result<unknown>> {
  if (!isRequestChannel(channel)) {
    return failure(new LatheError('UNKNOWN_CHANNEL', `unknown channel: ${String(channel).slice(0, 64)}`).toShape());
  }
  const spec = requestChannels[channel];
  const parsed = spec.req.safeParse(payload);
  if (!parsed.success) {
    return failure(
      new LatheError('INVALID_PAYLOAD', `invalid payload for ${channel}`, {
        channel,
        issues: summarizeIssues(parsed.error),
      }).toShape(),
    );
  }
  try {
    const value = await callHandler(handlers, channel, parsed.data);
    if ('responseCheckedByHandler' in spec && spec.responseCheckedByHandler) return ok(value);
    const checked = spec.res.safeParse(value);
    if (!checked.success) {
      return failure(
        new LatheError('INTERNAL', `handler for ${channel} returned an invalid response`, {
          channel,
          issues: summarizeIssues(checked.error),
        }).toShape(),
      );
    }
    return ok(checked.data);
  } catch (error) {
    return failure(LatheError.from(error).toShape());
  }
}

function callHandler(handlers: Handlers, channel: RequestChannel, payload: unknown): Promise<unknown> {
  // The payload was validated against this channel's own schema just above.
  const handler = handlers[channel] as (req: unknown) => Promise<unknown>;
  return handler(payload);
}

function summarizeIssues(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.slice(0, 20).map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message.slice(0, 200),
  }));
}
