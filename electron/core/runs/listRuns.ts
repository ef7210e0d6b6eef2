import fs from 'node:fs';
import path from 'node:path';
import { RunStateSchema } from '../../../shared/engine/runState';
import type { z } from 'zod';
import type { RunSummary } from '../../../shared/schemas/run';
import { runsDir } from '../engine/runStore';
import { isMissing, unreadable } from '../fsErrors';

/** What a run list needs of state.json; read leniently so a run of an older state version still lists. */
export const RunStateHeaderSchema = RunStateSchema.pick({
  run_id: true,
  goal: true,
  workflow: true,
  status: true,
  branch: true,
  created_at: true,
  updated_at: true,
  elapsed_ms: true,
  commits: true,
  closed: true,
  phase: true,
  follow_up_of: true,
});
export type RunStateHeader = z.infer<typeof RunStateHeaderSchema>;

/**
 * Every run recorded in the repo, newest first. A folder with no state, or one this version cannot
 * parse, is left out. A state.json that is there but cannot be read is left out of a list to show
 * (`unreadable: 'skip'`), but is FILE_UNREADABLE for a caller that picks a run from the list: the
 * newest run must not be passed over for an older one because it could not be read.
 */
export async function listRuns(
  repoRoot: string,
  options: { unreadable?: 'skip' | 'throw' } = {},
): Promise<RunSummary[]> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(runsDir(repoRoot), { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return [];
    throw unreadable(runsDir(repoRoot), error);
  }
  const summaries: RunSummary[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    let header: RunStateHeader | null;
    try {
      header = await readRunHeader(repoRoot, entry.name);
    } catch (error) {
      if (options.unreadable === 'throw') throw error;
      continue;
    }
    if (header) summaries.push(toSummary(header));
  }
  return summaries.sort((a, b) => b.runId.localeCompare(a.runId));
}

/** The run's header; null when it has no state.json or one that does not parse; FILE_UNREADABLE when it cannot be read. */
export async function readRunHeader(repoRoot: string, runId: string): Promise<RunStateHeader | null> {
  const file = path.join(runsDir(repoRoot), runId, 'state.json');
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    throw unreadable(file, error);
  }
  try {
    const parsed = RunStateHeaderSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return null;
  }
}

/** A run's list entry from its state header. */
export function toSummary(header: RunStateHeader): RunSummary {
  return {
    runId: header.run_id,
    goal: header.goal,
    workflow: header.workflow,
    status: header.status,
    // An undone run's branch is gone; its name stays in the log (run_undone) and the state's workspace.
    branch: header.closed?.action === 'undone' ? null : header.branch,
    startedAt: header.created_at,
    updatedAt: header.updated_at,
    durationMs: header.elapsed_ms,
    commits: header.commits.length,
    closed: header.closed,
    resumable: header.phase !== 'finished' && header.closed?.action !== 'undone',
    followUpOf: header.follow_up_of,
  };
}
