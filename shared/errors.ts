import { z } from 'zod';

/** Codes every boundary may return. */
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

/** Why a model call failed; `electron/core/llm` decides which of these are worth a retry. */
export const generationErrorCodes = [
  /** Output did not parse or validate (e.g. cut at max tokens). `raw` holds the text. */
  'INVALID_OUTPUT',
  'TIMEOUT',
  'ABORTED',
  /** The mandatory part of the prompt does not fit the model's context. */
  'CONTEXT_OVERFLOW',
  'MODEL_LOAD_FAILED',
  /** The model will not fit in memory; refused before loading. */
  'INSUFFICIENT_MEMORY',
  /** Transport or server failure (OpenAI-compatible), or a replay `error` entry. */
  'PROVIDER_ERROR',
  'REPLAY_EXHAUSTED',
  'BAD_MODEL_SPEC',
] as const;
export type GenerationErrorCode = (typeof generationErrorCodes)[number];

/**
 * `GIT_<REASON>`: every failure of the git facade (`electron/core/git/gitErrors.ts`), but for the three it shares with
 * the rest of the core, which keep their plain names (DIRTY_WORKTREE, INVALID_PATH, ISOMORPHIC_UNSAFE).
 */
export const gitErrorReasons = [
  'FAILED',
  'PROTECTED_PATH',
  'RUN_BRANCH_MISSING',
  'CONCURRENT_UPDATE',
  'NO_ORIGINAL_BRANCH',
  'MERGE_NOT_FAST_FORWARD',
  'RUN_NOT_CHECKED_OUT',
  'NATIVE_REQUIRED',
  'REMOTE_NOT_FOUND',
  'PUSH_FAILED',
  'NOT_IN_RUN',
  'UNDO_NOT_POSSIBLE',
  'INVALID_WORKTREE_ROOT',
  'INVALID_RUN_ID',
  'INVALID_BRANCH_PREFIX',
  'NO_COMMITS',
  'BRANCH_EXISTS',
  'WORKTREE_EXISTS',
  'INVALID_WORKSPACE',
  'BRANCH_CHECKED_OUT',
] as const;
export type GitErrorReason = (typeof gitErrorReasons)[number];

/** The codes of the rest of the core: runs, workspace, edits, models, eval and the agents' failures. */
export const coreErrorCodes = [
  // runs and the engine
  'RUN_NOT_FOUND',
  'RUN_ACTIVE',
  'RUN_UNDONE',
  /** `--follow-up` names a run that cannot be continued (no branch, still going on); the reason says why. */
  'FOLLOW_UP_REFUSED',
  'RUN_STATE_INVALID',
  'RUN_LOG_INVALID',
  /** No record of that agent call: no such call, or one a crash cut short, or a run older than the records. */
  'CALL_NOT_FOUND',
  'NO_WORKSPACE',
  'WORKSPACE_SETUP_FAILED',
  'DIRTY_WORKTREE',
  'REPO_READ_ONLY',
  'GOAL_CHANGED',
  'PAUSED',
  'GATE_NEEDS_USER',
  /** A person's edit at a gate names a file outside the repository or outside the gate's change; nothing was written. */
  'USER_EDIT_REFUSED',
  'NO_GATE_HANDLER',
  'PREFLIGHT_FAILED',
  'UNKNOWN_WORKFLOW',
  'BAD_CONFIG',
  'PROMPT_MISSING',
  /** The command line was used wrongly (`lathe … --help` says how). */
  'USAGE',
  'DISCONNECTED',
  'FORBIDDEN',
  'INVALID_QUERY',
  'INVALID_PATH',
  'COMMAND_NOT_ALLOWED',
  'ISOMORPHIC_UNSAFE',
  // edits and files
  'EDIT_REJECTED',
  'EDIT_APPLY_FAILED',
  'INVALID_PROPOSAL',
  'UNKNOWN_EDIT_FORMAT',
  'BINARY_FILE',
  /** A file exists but could not be read or listed (EACCES, EIO, …): never taken for a missing one. */
  'FILE_UNREADABLE',
  /** The writer gave an answer it had already given on the same base: not applied again. */
  'REPEATED_ANSWER',
  /** A change left fewer tests than the run started with (removed, renamed or skipped), or changed protected tests. */
  'TESTS_WEAKENED',
  /** No space left (ENOSPC, EDQUOT) on the disk of the folder in `data.folder`: the run stops, resumable, nothing half-written. */
  'DISK_FULL',
  // models
  'MODEL_REJECTED',
  'MODEL_EXISTS',
  'NO_MODEL',
  'IMPORT_FAILED',
  'UNBOUNDED_SCHEMA',
  // agents, as ActionOutcome codes
  'NO_AGENT',
  /**
   * An answer was cut off at its answer budget and a longer one cannot be had (the role's window is
   * full, or the retries are spent): the writer is asked for a smaller change, not the same one again.
   */
  'ANSWER_CUT_OFF',
  'NO_QUESTION',
  // eval and the corpus
  'BAD_CORPUS',
  'BAD_EVAL_SUITE',
  'BAD_EVAL_TASK',
  'NO_EVAL_TASKS',
  'CORPUS_MATERIALIZE_FAILED',
  'CORPUS_SETUP_FAILED',
  'CORPUS_GOLD_PATCH',
  'CORPUS_GIT_FAILED',
] as const;

/**
 * The one closed list of error codes: a code not listed here is a type error wherever a LatheError or
 * an error outcome is made (`errors.types.test.ts` pins that).
 */
export type ErrorCode =
  CommonErrorCode | GenerationErrorCode | `GIT_${GitErrorReason}` | (typeof coreErrorCodes)[number];

export const errorCodes: readonly ErrorCode[] = [
  ...commonErrorCodes,
  ...generationErrorCodes,
  ...gitErrorReasons.map((reason) => `GIT_${reason}` as const),
  ...coreErrorCodes,
];
const knownCodes = new Set<string>(errorCodes);

/** Codes an older Lathe wrote that now have one name with another: read back from logs and state under the new one. */
export const RENAMED_ERROR_CODES: Readonly<Record<string, ErrorCode>> = {
  GIT_DIRTY_WORKTREE: 'DIRTY_WORKTREE',
  GIT_INVALID_PATH: 'INVALID_PATH',
  GIT_ISOMORPHIC_UNSAFE: 'ISOMORPHIC_UNSAFE',
};

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && knownCodes.has(value);
}

/**
 * Read leniently: a renamed code reads under its new name, and a code this version does not know (another
 * version's host) as INTERNAL.
 */
export const ErrorCodeSchema = z
  .string()
  .transform((value): ErrorCode => (isErrorCode(value) ? value : (RENAMED_ERROR_CODES[value] ?? 'INTERNAL')));

export const LatheErrorSchema = z.object({
  code: z.string().min(1).max(64).pipe(ErrorCodeSchema),
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
    readonly code: ErrorCode,
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

export function isLatheError(error: unknown, code?: ErrorCode): error is LatheError {
  return error instanceof LatheError && (code === undefined || error.code === code);
}
