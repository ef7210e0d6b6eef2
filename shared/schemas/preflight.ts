import { z } from 'zod';
import { ModelRoleSchema } from './roles';

/**
 * What the run preflight refuses, checked before a branch, worktree or run folder exists. Every entry
 * point (`lathe run`, `lathe demo`, `lathe eval`, the window's `run/start`) gets the same problems.
 */
export const PreflightProblemCodeSchema = z.enum([
  /** The goal is empty or only whitespace. */
  'BLANK_GOAL',
  /** The goal alone does not fit the smallest context window of the roles the run calls. */
  'GOAL_TOO_LONG',
  /** A role the workflow calls has no model. */
  'NO_MODEL',
  /** The spec does not parse (no provider, not a .gguf, not openai:URL#MODEL…). */
  'BAD_MODEL_SPEC',
  /** A network spec names a host that is neither loopback nor allowed. */
  'HOST_NOT_ALLOWED',
  /** A `llama:` file that does not exist. */
  'MODEL_NOT_FOUND',
  /** A `llama:` file that is not a usable GGUF (bad magic, truncated header, no weights…). */
  'MODEL_REJECTED',
  /** A `replay:` file that is missing or does not parse (docs/replay-format.md). */
  'BAD_REPLAY_FILE',
  /** An `oracle:` gold patch that is missing or does not parse (docs/oracle-model.md). */
  'BAD_ORACLE_PATCH',
  /** No test command configured, and none detected in the repository. */
  'NO_TEST_COMMAND',
  /** No test command configured, and a manifest detection reads exists but cannot be read (FILE_UNREADABLE). */
  'TEST_MANIFEST_UNREADABLE',
]);
export type PreflightProblemCode = z.infer<typeof PreflightProblemCodeSchema>;

/** The input a problem belongs to, so the window can show it beside that field. */
export const PreflightFieldSchema = z.enum(['goal', 'model', 'test_command']);
export type PreflightField = z.infer<typeof PreflightFieldSchema>;

export const PreflightProblemSchema = z.object({
  code: PreflightProblemCodeSchema,
  field: PreflightFieldSchema,
  /** The roles whose model this is about (one spec may serve several); empty for other fields. */
  roles: z.array(ModelRoleSchema),
  spec: z.string().nullable(),
  message: z.string(),
});
export type PreflightProblem = z.infer<typeof PreflightProblemSchema>;

/** `LatheError('PREFLIGHT_FAILED', …, data)`: a usage error (CLI exit 64), nothing was created. */
export const PREFLIGHT_FAILED = 'PREFLIGHT_FAILED';
export const PreflightErrorDataSchema = z.object({ problems: z.array(PreflightProblemSchema).min(1) });
export type PreflightErrorData = z.infer<typeof PreflightErrorDataSchema>;

/** The problems of a PREFLIGHT_FAILED error that crossed a boundary as plain data; null for any other error. */
export function preflightProblemsOf(
  error: { code?: unknown; data?: unknown } | null | undefined,
): PreflightProblem[] | null {
  if (!error || error.code !== PREFLIGHT_FAILED) return null;
  const parsed = PreflightErrorDataSchema.safeParse(error.data);
  return parsed.success ? parsed.data.problems : null;
}
