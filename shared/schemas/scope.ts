import { z } from 'zod';

const repoPath = z
  .string()
  .min(1)
  .max(1000)
  .refine((value) => !value.startsWith('/') && !value.split('/').includes('..'), 'a path inside the repository');

/** One file of a proposed change: its text before and after (null: absent on that side). */
export const ProposedFileChangeSchema = z
  .object({ path: repoPath, before: z.string().nullable(), after: z.string().nullable() })
  .refine(
    (change) => change.before !== null || change.after !== null,
    'a file absent before and after changes nothing',
  );
export type ProposedFileChange = z.infer<typeof ProposedFileChangeSchema>;

/** What a change is for, as the engine knows it when the change arrives (docs/context.md, "Scope of a change"). */
export const ScopeEvidenceSchema = z.object({
  /** What the change is for: goal, task title/rationale/acceptance, failing test ids and messages, the test output excerpt, feedback/critique. */
  texts: z.array(z.string()),
  /**
   * Repo paths the plan (task artifacts), the failing tests (their files, frames in the output) or the
   * writer's context (files shown to it) named. Empty means "not known": then no hunk is doubted for its
   * file alone.
   */
  files: z.array(z.string()),
  /**
   * What the task itself says (goal, step, a reviewer's words), without test output: whether the task is about
   * documentation or style is read from these alone (a test log mentions "style" or "documents" for other
   * reasons). Absent: from `texts`.
   */
  about: z.array(z.string()).optional(),
});
export type ScopeEvidence = z.infer<typeof ScopeEvidenceSchema>;

/** One hunk of a proposed change and whether it serves the task. */
export const HunkScopeSchema = z.object({
  path: z.string(),
  /** 1-based line range in the original file (old side) and in the new content (new side), git-style: an empty side starts at the line before it. */
  oldStart: z.number().int().nonnegative(),
  oldLines: z.number().int().nonnegative(),
  newStart: z.number().int().nonnegative(),
  newLines: z.number().int().nonnegative(),
  onTarget: z.boolean(),
  /** Why, in words a reviewer and a small model can act on: `renames 'total' to 'sum' in discount(), which nothing in the task names`. */
  reason: z.string(),
  /** The enclosing symbol (or the definition a comment belongs to), when one is found. */
  symbol: z.string().nullable(),
  /** Whether the hunk changes code at all: false for a change of comments or layout alone, which no test can see. */
  changesCode: z.boolean().default(true),
});
export type HunkScope = z.infer<typeof HunkScopeSchema>;
