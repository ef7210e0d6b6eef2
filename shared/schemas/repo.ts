import { z } from 'zod';

export const RepoStatusSchema = z.object({
  /** Absolute, resolved path of the work tree. */
  path: z.string(),
  name: z.string(),
  /** Current branch, or null on a detached HEAD. */
  branch: z.string().nullable(),
  /** Commit HEAD points at, or null in a repo with no commits yet. */
  head: z.string().nullable(),
  dirty: z.boolean(),
  /** Paths with uncommitted changes, capped; `changedCount` is the full count. */
  changedFiles: z.array(z.string()).max(200),
  changedCount: z.number().int().nonnegative(),
  /** The test command Lathe would run (detected), or null when none was found. */
  testCommand: z.array(z.string()).nullable(),
  testCommandReason: z.string().nullable(),
});
export type RepoStatus = z.infer<typeof RepoStatusSchema>;
