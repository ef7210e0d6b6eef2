import type { z } from 'zod';

// The edit layer's contract: formats, the policy they are checked against, what they plan and apply.

export const EDIT_FORMAT_NAMES = ['whole-file', 'unified-diff', 'search-replace'] as const;
export type EditFormatName = (typeof EDIT_FORMAT_NAMES)[number];

export interface EditPolicy {
  /** Artifacts-only (seed 000): when set, only these repo-relative paths may be written. */
  artifacts: string[] | null;
  /** Tests are read-only (seed 000): paths matching `testPatterns` may not be written. */
  testsReadOnly: boolean;
  /** Globs (repo-relative) that mark test files; defaults cover pytest, node --test, jest/vitest, go, cargo. */
  testPatterns: string[];
  /** Paths the run must never touch, such as the user's uncommitted files when working in place. */
  protectedPaths: string[];
  /** Largest content a single file may get, in bytes. */
  maxFileBytes: number;
  /**
   * Whether a whole-file answer may drop a large part of a file (`drops-code`): the engine allows it
   * when the task asks for a removal; otherwise such an answer is a model that skipped what it keeps.
   */
  allowLargeDeletions: boolean;
}

/** One file's planned change: `before` null = create, `after` null = delete. */
export interface PlannedFileChange {
  path: string;
  before: string | null;
  after: string | null;
}

export interface PlannedEditSet {
  format: EditFormatName;
  /** Sorted by path (seed 000 determinism). */
  changes: PlannedFileChange[];
  /**
   * Edits of the answer that change nothing though the answer changes something (`edit 2 (a.py): its
   * replace is the same as its search`): a model that wrote one thought it changed what it did not.
   */
  unchanged?: string[];
}

export interface WorkspaceReader {
  /** Repo-relative read of the current file, or null when it does not exist. */
  read(path: string): Promise<string | null>;
  /**
   * The repository's files (repo-relative, gitignored ones left out), listed once per reader. Lets a
   * format name the file a wrong path meant and refuse a new file that copies one; without it those
   * checks are skipped.
   */
  listFiles?(): Promise<string[]>;
}

/**
 * A named, swappable strategy: the Coder's output schema for this format, the prompt fragment that
 * teaches it (prompts/edit-formats/<name>.md) and `plan`, which resolves the proposal against the
 * files on disk without writing anything. `plan` throws EDIT_REJECTED naming the rule and path.
 */
export interface EditFormat<TProposal = unknown> {
  name: EditFormatName;
  schema: z.ZodType<TProposal>;
  plan(proposal: TProposal, reader: WorkspaceReader, policy: EditPolicy): Promise<PlannedEditSet>;
}

export interface AppliedEditSet {
  changed: string[];
  created: string[];
  deleted: string[];
}
