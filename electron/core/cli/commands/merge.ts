import { LatheError } from '../../../../shared/errors';
import { quoteGitPath } from '../../../../shared/gitPath';
import { mergeRefusal } from '../../../../shared/mergeRefusal';
import { mergeRecordedRun } from '../../engine/closeRun';
import { createGitFacade } from '../../workspace/index';
import { parseCommandArgs, wantsHelp, type CliIo, type Command } from '../command';
import { ExitCode } from '../exitCodes';
import { readRunArg } from '../runArg';

const usage = `Usage: lathe merge [--repo DIR] RUN_ID

Does what the window's Merge button does: fast-forwards the branch the run started from to the run's
result, records the merge in the run's log (\`lathe runs\` then lists it as merged), and removes the
run's worktree folder; its branch stays, so \`lathe undo RUN_ID\` can still take the merge back.
Never a merge commit, never a change to a file you edited: the merge is refused, and nothing changes,
when the run is not complete, made no commits or was undone (exit 64), or when the branch has moved on
since the run started or files the run changed have uncommitted edits in your checkout (exit 1).
A run already merged is left as it is (exit 0).`;

/** What the repository's state refuses: the user can fix it (commit, stash, rebase) and merge again. */
const REPOSITORY_REFUSALS = new Set([
  'DIRTY_WORKTREE',
  'GIT_MERGE_NOT_FAST_FORWARD',
  'GIT_RUN_BRANCH_MISSING',
  'GIT_RUN_NOT_CHECKED_OUT',
  'GIT_NO_ORIGINAL_BRANCH',
]);

/** `lathe merge`'s own exit code for a merge the repository's state refused, nothing changed (docs/cli.md). */
const MERGE_REFUSED = ExitCode.goalNotMet;

export const mergeCommand: Command = {
  name: 'merge',
  summary: 'merge a complete run into the branch it started from (fast-forward)',
  usage,
  async run(args, io) {
    if (wantsHelp(args)) return (io.out(usage), ExitCode.success);
    const { values, positionals } = parseCommandArgs(args, { repo: { type: 'string' } });
    const { repoRoot, runId, state } = await readRunArg(positionals, values.repo, io);
    const refusal = mergeRefusal({ status: state.status, commits: state.commits.length, closed: state.closed }, false);
    if (refusal?.code === 'ALREADY_MERGED') {
      io.out(
        `run ${runId} was already merged into ${state.closed?.into ?? '?'} at ${state.closed?.at ?? '?'} (${state.closed?.commit?.slice(0, 10) ?? '?'}); nothing to do`,
      );
      return ExitCode.success;
    }
    if (refusal) {
      io.err(`lathe merge: run ${runId} cannot be merged: ${refusal.message} [${refusal.code}]`);
      return ExitCode.usage;
    }
    try {
      const { merged, state: after } = await mergeRecordedRun({ git: createGitFacade() }, repoRoot, runId);
      io.out(
        `merged run ${runId} into ${after.closed?.into ?? '?'}: it is now at ${merged.slice(0, 10)} (fast-forward, ${state.commits.length} commit(s))`,
      );
      io.out(
        `  the run's branch ${state.branch ?? '?'} stays; lathe undo --repo ${repoRoot} ${runId} takes the merge back`,
      );
      return ExitCode.success;
    } catch (error) {
      if (!(error instanceof LatheError) || !REPOSITORY_REFUSALS.has(error.code)) throw error;
      reportRefusal(io, runId, error);
      return MERGE_REFUSED;
    }
  },
};

function reportRefusal(io: CliIo, runId: string, error: LatheError): void {
  io.err(`lathe merge: run ${runId} was not merged, nothing changed: ${error.message} [${error.code}]`);
  const paths = Array.isArray(error.data?.paths)
    ? error.data.paths.filter((item): item is string => typeof item === 'string')
    : [];
  for (const file of paths.slice(0, 20)) io.err(`  ${quoteGitPath(file)}`);
  if (paths.length > 20) io.err(`  … and ${paths.length - 20} more`);
}
