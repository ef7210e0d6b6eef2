import type { LatheErrorShape } from './errors';

/** What every request across a process boundary resolves to: never a thrown error. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: LatheErrorShape };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function failure<T = never>(error: LatheErrorShape): Result<T> {
  return { ok: false, error };
}
