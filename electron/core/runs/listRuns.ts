import fs from 'node:fs';
import path from 'node:path';
import { RunStateSchema } from '../../../shared/engine/runState';
import type { z } from 'zod';
import type { RunSummary } from '../../../shared/schemas/run';

/** What a run list needs of state.json; read leniently so a run of an older state version still lists. */
export const RunStateHeaderSchema = RunStateSchema.pick({ run_id: true, goal: true, workflow: true, status: true, branch: true, created_at: true, updated_at: true, commits: true, closed: true, phase: true });
export type RunStateHeader = z.infer<typeof RunStateHeaderSchema>;

export function runsDir(repoRoot: string): string {
  return path.join(repoRoot, '.lathe', 'runs');
}

/** Every run recorded in the repo, newest first; unreadable run folders are skipped, not fatal. */
export async function listRuns(repoRoot: string): Promise<RunSummary[]> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(runsDir(repoRoot), { withFileTypes: true });
  } catch {
    return [];
  }
  const summaries: RunSummary[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const header = await readRunHeader(repoRoot, entry.name);
    if (header) summaries.push(toSummary(header));
  }
  return summaries.sort((a, b) => b.runId.localeCompare(a.runId));
}

export async function readRunHeader(repoRoot: string, runId: string): Promise<RunStateHeader | null> {
  try {
    const text = await fs.promises.readFile(path.join(runsDir(repoRoot), runId, 'state.json'), 'utf8');
    const parsed = RunStateHeaderSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function toSummary(header: RunStateHeader): RunSummary {
  return {
    runId: header.run_id,
    goal: header.goal,
    workflow: header.workflow,
    status: header.status,
    // An undone run's branch is gone; its name stays in the log (run_undone) and the state's workspace.
    branch: header.closed?.action === 'undone' ? null : header.branch,
    startedAt: header.created_at,
    updatedAt: header.updated_at,
    commits: header.commits.length,
    closed: header.closed,
    resumable: header.phase !== 'finished' && header.closed?.action !== 'undone',
  };
}
