import { quoteGitPath } from '../../../../shared/gitPath';
import type { RunDiffFile } from '../../git/types';
import { refuseUndone } from '../../engine/closeRun';
import { createGitFacade } from '../../workspace/index';
import { parseCommandArgs, wantsHelp, type Command } from '../command';
import { ExitCode } from '../exitCodes';
import { readRunArg } from '../runArg';

const usage = `Usage: lathe diff [--repo DIR] [--stat] RUN_ID

Prints the run's whole change as one unified diff: from the commit the run started from (its base) to
the head of its branch, what the window's Changes tab shows (git's own \`git diff BASE HEAD\` text).
  --stat   one line per changed file (lines added and removed, as the Changes tab counts them) and
           git's summary line, instead of the diff
An unknown RUN_ID or an undone run (its branch is gone) is exit 64; a run that never made a branch prints nothing.`;

export const diffCommand: Command = {
  name: 'diff',
  summary: "print a run's diff against its base (the commit it started at)",
  usage,
  async run(args, io) {
    if (wantsHelp(args)) return (io.out(usage), ExitCode.success);
    const { values, positionals } = parseCommandArgs(args, { repo: { type: 'string' }, stat: { type: 'boolean' } });
    const { runId, state } = await readRunArg(positionals, values.repo, io);
    refuseUndone(state);
    if (!state.workspace) {
      io.err(`run ${runId} never created a branch; it changed nothing`);
      return ExitCode.success;
    }
    const git = createGitFacade();
    if (values.stat) {
      // What the window's run/diff request answers (base to head): the files and counts of its Changes tab.
      for (const line of statLines(await git.diffRun(state.workspace))) io.out(line);
      return ExitCode.success;
    }
    const patch = await git.runPatch(state.workspace);
    if (patch !== '') io.out(patch.endsWith('\n') ? patch.slice(0, -1) : patch);
    return ExitCode.success;
  },
};

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** ` path | +A -R` per file, then git's own summary (` 2 files changed, 5 insertions(+), 1 deletion(-)`). */
export function statLines(files: RunDiffFile[]): string[] {
  if (files.length === 0) return [];
  const names = files.map((file) => quoteGitPath(file.path));
  const width = Math.max(...names.map((name) => name.length));
  const added = files.reduce((sum, file) => sum + file.added, 0);
  const removed = files.reduce((sum, file) => sum + file.removed, 0);
  // As git: a zero count is left out, unless both are zero.
  const both = added === 0 && removed === 0;
  const counts = [
    ...(added > 0 || both ? [plural(added, 'insertion(+)', 'insertions(+)')] : []),
    ...(removed > 0 || both ? [plural(removed, 'deletion(-)', 'deletions(-)')] : []),
  ];
  return [
    ...files.map((file, index) => ` ${(names[index] ?? '').padEnd(width)} | +${file.added} -${file.removed}`),
    ` ${[plural(files.length, 'file changed', 'files changed'), ...counts].join(', ')}`,
  ];
}
