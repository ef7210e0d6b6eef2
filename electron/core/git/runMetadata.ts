import path from 'node:path';
import { z } from 'zod';
import { isMissing, unreadable } from '../fsErrors';
import { syncFs } from './localFs';

/** Facts about a run the workspace needs later (undo, resume) that RunWorkspace does not carry. */
export const RunMetadataSchema = z.object({
  run_id: z.string(),
  mode: z.enum(['worktree', 'in-place']),
  started_at_ms: z.number(),
  base_commit: z.string(),
  original_branch: z.string().nullable(),
  /** Repo-relative dependency folders linked (or, node_modules, shadowed) from the user's checkout. */
  linked_dependencies: z.array(z.string()),
  /** In-place runs: the files that were dirty at start, never to be touched. */
  protected_paths: z.array(z.string()).default([]),
  branch: z.string().optional(),
  /** Worktree runs: the run's folder, fixed at start. Runs from before it was recorded used `legacyWorktreeDir`. */
  work_dir: z.string().optional(),
  /** The folder names linked from the checkout (`workspace.dependency_folders`); absent: the built-in list. */
  dependency_folders: z.array(z.string()).optional(),
});
export type RunMetadata = z.infer<typeof RunMetadataSchema>;

export function latheGitDir(commonDir: string): string {
  return path.join(commonDir, 'lathe');
}

/** Where run worktrees lived before they moved out of `.git/` (decision 'Run worktrees live outside the repository'). */
export function legacyWorktreeDir(commonDir: string, runId: string): string {
  return path.join(latheGitDir(commonDir), 'worktrees', runId);
}

/** A worktree run's folder as its metadata recorded it; only Lathe's own places are ever trusted or removed. */
export function recordedWorktreeDir(commonDir: string, runId: string, metadata: RunMetadata | null): string {
  return metadata?.work_dir ? path.resolve(metadata.work_dir) : legacyWorktreeDir(commonDir, runId);
}

function metadataFile(commonDir: string, runId: string): string {
  return path.join(latheGitDir(commonDir), 'runs', `${runId}.json`);
}

export async function writeRunMetadata(commonDir: string, metadata: RunMetadata): Promise<void> {
  const file = metadataFile(commonDir, metadata.run_id);
  await syncFs.mkdir(path.dirname(file), { recursive: true });
  await syncFs.writeFile(file, `${JSON.stringify(metadata, null, 2)}\n`);
}

/**
 * The run's metadata; null when there is none, or when a run killed mid-write left it cut short (it
 * is written before the branch exists, so adoption then starts over). A file that is there but cannot
 * be read is an error: taken for absent, a step commit would lose its linked-folder guard.
 */
export async function readRunMetadata(commonDir: string, runId: string): Promise<RunMetadata | null> {
  const file = metadataFile(commonDir, runId);
  let text: string;
  try {
    text = await syncFs.readFile(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    throw unreadable(file, error);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return null;
  }
  const parsed = RunMetadataSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

export async function removeRunMetadata(commonDir: string, runId: string): Promise<void> {
  await syncFs.rm(metadataFile(commonDir, runId), { force: true });
}
