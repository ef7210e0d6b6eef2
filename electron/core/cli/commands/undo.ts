import { LatheError } from '../../../../shared/errors';
import { createGitFacade } from '../../workspace/index';
import { undoRecordedRun } from '../../engine/closeRun';
import { parseCommandArgs, UsageError, wantsHelp, type Command } from '../command';
import { ExitCode } from '../exitCodes';
import { repoRootArg } from '../repoArg';

const usage = `Usage: lathe undo [--repo DIR] RUN_ID

Undoes a run: deletes its branch and workspace and restores the repository exactly as it was when the
run started (your branch and uncommitted files are never touched). The run's log stays in .lathe/runs
and records the undo (\`lathe runs\` then lists it as undone); undoing it again changes nothing.`;

export const undoCommand: Command = {
  name: 'undo',
  summary: 'undo a run',
  usage,
  async run(args, io) {
    if (wantsHelp(args)) return (io.out(usage), ExitCode.success);
    const { values, positionals } = parseCommandArgs(args, { repo: { type: 'string' } });
    if (positionals.length !== 1) throw new UsageError('give exactly one RUN_ID');
    const runId = positionals[0] ?? '';
    const repoRoot = await repoRootArg(io.cwd, values.repo);
    try {
      const { state, already } = await undoRecordedRun({ git: createGitFacade() }, repoRoot, runId);
      const workspace = state.workspace;
      if (already || !workspace) {
        io.out(`run ${runId} was already undone at ${state.closed?.at ?? '?'}; nothing to do`);
        return ExitCode.success;
      }
      // A follow-up's base is its parent's head, not the user's branch: say which run's work stays.
      const kept = state.follow_up_of
        ? `run ${state.follow_up_of} (whose head ${workspace.baseCommit.slice(0, 10)} it started from) untouched`
        : `${workspace.originalBranch ?? 'HEAD'} untouched at ${workspace.baseCommit.slice(0, 10)}`;
      io.out(`undid run ${runId}: branch ${workspace.branch} removed, ${kept}`);
      return ExitCode.success;
    } catch (error) {
      if (error instanceof LatheError && error.code === 'NO_WORKSPACE') {
        io.out(`run ${runId} never created a branch; nothing to undo`);
        return ExitCode.success;
      }
      throw error;
    }
  },
};
