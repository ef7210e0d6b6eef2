import { headline } from '../../../../shared/headline';
import type { RunSummary } from '../../../../shared/schemas/run';
import { listRuns } from '../../runs/listRuns';
import { parseCommandArgs, wantsHelp, type Command } from '../command';
import { ExitCode } from '../exitCodes';
import { repoRootArg } from '../repoArg';

const usage = `Usage: lathe runs [--repo DIR] [--json]

Lists the runs recorded in the repository (.lathe/runs), newest first, with their status: how the run
ended, or \`undone\` / \`merged\` once you undid or merged it (--json: \`status\` and \`closed\`). GOAL is
the goal's first line, \`…\` where it is cut or more lines follow (--json: the whole goal); a follow-up's
goal starts with \`↳ PARENT_RUN_ID\`, the run it continues (--json: \`followUpOf\`).`;

/** The goal's first line; a follow-up names the run it continues first, so the chain reads down the list. */
function goalCell(run: RunSummary): string {
  return run.followUpOf ? `↳ ${run.followUpOf} ${headline(run.goal, 60)}` : headline(run.goal, 60);
}

export const runsCommand: Command = {
  name: 'runs',
  summary: 'list the runs recorded in a repository',
  usage,
  async run(args, io) {
    if (wantsHelp(args)) return io.out(usage), ExitCode.success;
    const { values } = parseCommandArgs(args, { repo: { type: 'string' }, json: { type: 'boolean' } });
    const repoRoot = await repoRootArg(io.cwd, values.repo);
    const runs = await listRuns(repoRoot);
    if (values.json) {
      io.out(JSON.stringify(runs));
      return ExitCode.success;
    }
    if (runs.length === 0) {
      io.out(`no runs in ${repoRoot}`);
      return ExitCode.success;
    }
    const rows = [['RUN', 'STATUS', 'WORKFLOW', 'COMMITS', 'BRANCH', 'GOAL'], ...runs.map((run) => [run.runId, run.closed?.action ?? run.status, run.workflow, String(run.commits), run.branch ?? '-', goalCell(run)])];
    const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
    for (const row of rows) io.out(row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  '));
    return ExitCode.success;
  },
};
