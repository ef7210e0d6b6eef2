import path from 'node:path';
import { LatheError } from '../../../../shared/errors';
import { createGitFacade } from '../../workspace/index';
import { RunStore } from '../../engine/runStore';
import { resolveRepoRoot } from '../../git/repoStatus';
import { parseCommandArgs, UsageError, wantsHelp, type Command } from '../command';
import { ExitCode } from '../exitCodes';

const usage = `Usage: lathe undo [--repo DIR] RUN_ID

Undoes a run: deletes its branch and workspace and restores the repository exactly as it was when the
run started (your branch and uncommitted files are never touched). The run's log stays in .lathe/runs.`;

export const undoCommand: Command = {
  name: 'undo',
  summary: 'undo a run',
  usage,
  async run(args, io) {
    if (wantsHelp(args)) return io.out(usage), ExitCode.success;
    const { values, positionals } = parseCommandArgs(args, { repo: { type: 'string' } });
    if (positionals.length !== 1) throw new UsageError('give exactly one RUN_ID');
    const runId = positionals[0] ?? '';
    const repoRoot = await resolveRepoRoot(path.resolve(io.cwd, values.repo ?? '.'));
    const { store, state } = RunStore.open(repoRoot, runId);
    if (!state.workspace) {
      io.out(`run ${runId} never created a branch; nothing to undo`);
      return ExitCode.success;
    }
    try {
      await createGitFacade().undoRun(state.workspace);
    } catch (error) {
      const failure = LatheError.from(error);
      io.err(`lathe undo: ${failure.message} [${failure.code}]`);
      return ExitCode.infraError;
    }
    store.append({ role: 'user', type: 'run_undone', data: { branch: state.workspace.branch, base: state.workspace.baseCommit } });
    store.saveState({ ...state, log_seq: store.lastSeq });
    io.out(`undid run ${runId}: branch ${state.workspace.branch} removed, ${state.workspace.originalBranch ?? 'HEAD'} untouched at ${state.workspace.baseCommit.slice(0, 10)}`);
    return ExitCode.success;
  },
};
