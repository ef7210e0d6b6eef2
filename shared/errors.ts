import { z } from 'zod';

/** Codes every boundary may return. Later layers add their own codes as plain strings. */
export const commonErrorCodes = [
  'INVALID_PAYLOAD',
  'UNKNOWN_CHANNEL',
  'INTERNAL',
  'UNSUPPORTED',
  'NOT_FOUND',
  'NOT_A_REPO',
  'NOT_AVAILABLE_YET',
] as const;
export type CommonErrorCode = (typeof commonErrorCodes)[number];

export const LatheErrorSchema = z.object({
  code: z.string().min(1).max(64),
  message: z.string().max(4000),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type LatheErrorShape = z.infer<typeof LatheErrorSchema>;

/**
 * The one error class of the project: a code and plain JSON data, so it crosses IPC, the WebSocket
 * host and the run log unchanged.
 */
export class LatheError extends Error {
  override readonly name = 'LatheError';
  constructor(
    readonly code: CommonErrorCode | (string & {}),
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }

  toShape(): LatheErrorShape {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  static from(error: unknown): LatheError {
    if (error instanceof LatheError) return error;
    const message = error instanceof Error ? error.message : String(error);
    return new LatheError('INTERNAL', message.slice(0, 4000));
  }
}

export function isLatheError(error: unknown, code?: string): error is LatheError {
  return error instanceof LatheError && (code === undefined || error.code === code);
}
