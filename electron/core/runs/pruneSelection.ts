import { z } from 'zod';
import { RunStatusSchema, type RunSummary } from '../../../shared/schemas/run';

/** A run's status as `lathe runs` lists it: how it ended, or `undone` / `merged` once the user closed it. */
export const PruneStatusSchema = z.enum([...RunStatusSchema.options, 'undone', 'merged']);
export type PruneStatus = z.infer<typeof PruneStatusSchema>;

/**
 * What `lathe prune` removes when no `--status` is given: runs that ended without a result to keep.
 * Never by default: a run that may still go on (running, paused, waiting, or resumable), a complete run
 * not merged (its work is only on its branch), a merged run (still listed, and undo needs its branch).
 */
export const DEFAULT_PRUNE_STATUSES: readonly PruneStatus[] = ['failed', 'stuck', 'aborted', 'time_expired', 'undone'];

export interface PruneFilter {
  /** Only these statuses, resumable runs included; null: the defaults, finished runs only. */
  statuses: readonly PruneStatus[] | null;
  /** Only runs last changed at least this long ago; null: any age. */
  olderThanMs: number | null;
  now: number;
}

export function pruneStatusOf(run: Pick<RunSummary, 'status' | 'closed'>): PruneStatus {
  return run.closed?.action ?? run.status;
}

export function matchesPrune(
  run: Pick<RunSummary, 'status' | 'closed' | 'resumable' | 'updatedAt'>,
  filter: PruneFilter,
): boolean {
  const status = pruneStatusOf(run);
  const named =
    filter.statuses === null
      ? DEFAULT_PRUNE_STATUSES.includes(status) && !run.resumable
      : filter.statuses.includes(status);
  if (!named) return false;
  if (filter.olderThanMs === null) return true;
  const changed = Date.parse(run.updatedAt);
  return Number.isFinite(changed) && filter.now - changed >= filter.olderThanMs;
}
