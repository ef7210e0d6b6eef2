import { z } from 'zod';

/**
 * One file a person rewrote at a code or step gate before approving it: its whole new content. The
 * core accepts only files the gate's change touches, or a new file marked `new` that does not exist yet.
 */
export const UserFileEditSchema = z.strictObject({
  path: z.string().min(1).max(1000),
  content: z.string().max(2_000_000),
  /** The person names a new file on purpose: without it a path outside the change is refused. */
  new: z.boolean().optional(),
});
export type UserFileEdit = z.infer<typeof UserFileEditSchema>;

/** At most this many files in one decision: an edit at a gate is a touch-up, not a rewrite. */
export const MAX_USER_EDITS = 50;

export const UserEditFileSchema = z.object({
  path: z.string(),
  added: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  created: z.boolean(),
});

/** What applying a person's edits committed (`user_edit` event, `user_decision` outcome). */
export const UserEditRecordSchema = z.object({
  commit: z.string(),
  head: z.string(),
  files: z.array(UserEditFileSchema),
  /** Existing test files among them: a person may change tests, but it is recorded, and they count as approved. */
  test_files: z.array(z.string()),
});
export type UserEditRecord = z.infer<typeof UserEditRecordSchema>;
