import { headline } from '../../../../shared/headline';
import type { RunSummary } from '../../../../shared/schemas/run';
import { listRuns } from '../../runs/listRuns';
import { parseCommandArgs, UsageError, wantsHelp, type Command } from '../command';
import { showRun } from './runShow';
import { ExitCode } from '../exitCodes';
import { repoRootArg } from '../repoArg';

const usage = `Usage: lathe runs [--repo DIR] [--json]
       lathe runs [--repo DIR] --show RUN_ID [--call N] [--json]

Lists the runs recorded in the repository (.lathe/runs), newest first, with their status: how the run
ended, or \`undone\` / \`merged\` once you undid or merged it (--json: \`status\` and \`closed\`). GOAL is
the goal's first line, \`…\` where it is cut or more lines follow (--json: the whole goal); a follow-up's
goal starts with \`↳ PARENT_RUN_ID\`, the run it continues (--json: \`followUpOf\`).

--show RUN_ID: the run's goal, status, steps and its agent calls, numbered (role, purpose, step, tokens,
outcome). With --call N: what call N was sent — each message by role, the words a person or the
Supervisor wrote marked \`[from …]\` where the agent got them, each context item under its path and
kind — and what it answered (docs/events.md, calls/<n>.json). --json prints the summary or the record.`;

/** The goal's first line; a follow-up names the run it continues first, so the chain reads down the list. */
function goalCell(run: RunSummary): string {
  return run.followUpOf ? `↳ ${run.followUpOf} ${headline(run.goal, 60)}` : headline(run.goal, 60);
}

export const runsCommand: Command = {
  name: 'runs',
  summary: 'list the runs recorded in a repository',
  usage,
  async run(args, io) {
    if (wantsHelp(args)) return (io.out(usage), ExitCode.success);
    const { values, positionals } = parseCommandArgs(args, {
      repo: { type: 'string' },
      json: { type: 'boolean' },
      show: { type: 'string' },
      call: { type: 'string' },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
    if (values.call !== undefined && values.show === undefined) throw new UsageError('--call N needs --show RUN_ID');
    if (values.show !== undefined)
      return showRun(await repoRootArg(io.cwd, values.repo), values.show, values.call, values.json === true, io);
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
    const rows = [
      ['RUN', 'STATUS', 'WORKFLOW', 'COMMITS', 'BRANCH', 'GOAL'],
      ...runs.map((run) => [
        run.runId,
        run.closed?.action ?? run.status,
        run.workflow,
        String(run.commits),
        run.branch ?? '-',
        goalCell(run),
      ]),
    ];
    const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
    for (const row of rows)
      io.out(
        row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  '),
      );
    return ExitCode.success;
  },
};
