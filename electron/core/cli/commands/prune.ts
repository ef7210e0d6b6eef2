import path from 'node:path';
import { formatBytes } from '../../../../shared/format';
import { parseDuration } from '../../config/duration';
import { defaultDataDir } from '../../dataDir';
import { repoRootArg } from '../repoArg';
import { applyPrune, planPrune, type PruneItem } from '../../runs/pruneRuns';
import { PruneStatusSchema, type PruneStatus } from '../../runs/pruneSelection';
import { createGitFacade } from '../../workspace/index';
import { parseCommandArgs, UsageError, wantsHelp, type CliIo, type Command } from '../command';
import { ExitCode } from '../exitCodes';

const usage = `Usage: lathe prune [--repo DIR] [--older-than 7d] [--status failed,undone,...] [--dry-run]

Removes what finished runs left behind: each run's branch (lathe/*), its worktree folder, its Verifier
artifacts in the data folder, and its record in .lathe/runs (it is no longer listed, and can no longer
be resumed, merged or undone). Prints what it removed and the disk space freed.
  --older-than DURATION  only runs last changed at least this long ago (7d, 12h, 30m)
  --status LIST          only runs with these statuses, as \`lathe runs\` lists them: complete, failed,
                         stuck, aborted, time_expired, running, paused, waiting_for_gate, undone, merged
                         (default: failed, stuck, aborted, time_expired and undone runs that cannot resume)
  --dry-run              print what would be removed, and remove nothing
A running, paused or resumable run, a complete run not merged, and a merged run are removed only when
their status is named. Never touched: a branch outside lathe/*, a branch checked out anywhere but in the
run's own worktree (your checkout included), and anything outside the repository's .lathe/runs, the
run's worktree and the data folder's artifacts.`;

function parseStatuses(text: string | undefined): PruneStatus[] | null {
  if (text === undefined) return null;
  const statuses = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (statuses.length === 0) throw new UsageError('--status: name at least one status');
  return statuses.map((status) => {
    const parsed = PruneStatusSchema.safeParse(status);
    if (!parsed.success)
      throw new UsageError(`--status: '${status}' is not a run status (${PruneStatusSchema.options.join(', ')})`);
    return parsed.data;
  });
}

function describe(item: PruneItem, repoRoot: string): string {
  const parts = [
    ...(item.branch ? [`branch ${item.branch}`] : []),
    ...(item.worktree ? [`worktree ${item.worktree}`] : []),
    ...(item.artifacts.length > 0 ? [`${item.artifacts.length} artifact folder(s)`] : []),
    path.relative(repoRoot, item.runFolder),
  ];
  return `  ${item.runId}  ${item.status.padEnd(12)}  ${parts.join(', ')} (${formatBytes(item.bytes)})`;
}

const total = (items: PruneItem[]) => items.reduce((sum, item) => sum + item.bytes, 0);

export const pruneCommand: Command = {
  name: 'prune',
  summary: "remove finished runs' branches, worktrees and artifacts",
  usage,
  async run(args, io) {
    if (wantsHelp(args)) return (io.out(usage), ExitCode.success);
    const { values, positionals } = parseCommandArgs(args, {
      repo: { type: 'string' },
      'older-than': { type: 'string' },
      status: { type: 'string' },
      'dry-run': { type: 'boolean' },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0] ?? ''}'`);
    const filter = {
      statuses: parseStatuses(values.status),
      olderThanMs: values['older-than'] === undefined ? null : parseDuration(values['older-than'], '--older-than'),
      now: Date.now(),
    };
    const repoRoot = await repoRootArg(io.cwd, values.repo);
    const deps = { git: createGitFacade() };
    const plan = await planPrune(deps, repoRoot, path.join(defaultDataDir(io.env), 'artifacts'), filter);
    for (const kept of plan.kept) io.err(`kept run ${kept.runId} (${kept.status}): ${kept.reason}`);
    if (plan.remove.length === 0) {
      io.out('nothing to prune');
      return ExitCode.success;
    }
    if (values['dry-run']) {
      io.out(
        `would remove ${plan.remove.length} run(s), freeing ${formatBytes(total(plan.remove))} (dry run: nothing was removed):`,
      );
      for (const item of plan.remove) io.out(describe(item, repoRoot));
      return ExitCode.success;
    }
    const outcome = await applyPrune(deps, repoRoot, plan);
    if (outcome.removed.length > 0) {
      io.out(`removed ${outcome.removed.length} run(s), freed ${formatBytes(total(outcome.removed))}:`);
      for (const item of outcome.removed) io.out(describe(item, repoRoot));
    }
    reportFailures(io, outcome.failed);
    return outcome.failed.length > 0 ? ExitCode.infraError : ExitCode.success;
  },
};

function reportFailures(io: CliIo, failed: Awaited<ReturnType<typeof applyPrune>>['failed']): void {
  for (const { item, error } of failed)
    io.err(`lathe prune: run ${item.runId} was not removed: ${error.message} [${error.code}]`);
}
