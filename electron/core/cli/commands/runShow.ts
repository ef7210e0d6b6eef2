import path from 'node:path';
import { LatheError } from '../../../../shared/errors';
import { listAgentCalls } from '../../../../shared/runView/agentCalls';
import { readLog, RunStore, runDir } from '../../engine/runStore';
import { isRunId } from '../../git/runWorkspace';
import { readCallRecord } from '../../runs/callRecords';
import { callLines, runShow, runShowLines } from '../callText';
import { UsageError, type CliIo } from '../command';
import { ExitCode } from '../exitCodes';

/** `lathe runs --show RUN_ID [--call N]`: a run's summary with its numbered agent calls, or one call's messages and answer. */
export function showRun(
  repoRoot: string,
  runId: string,
  callArg: string | undefined,
  json: boolean,
  io: CliIo,
): number {
  if (!isRunId(runId))
    throw new LatheError(
      'RUN_NOT_FOUND',
      `no run ${JSON.stringify(runId.slice(0, 80))} in ${repoRoot} (see \`lathe runs\`)`,
      { run_id: runId.slice(0, 80) },
    );
  if (callArg !== undefined) {
    if (!/^\d{1,9}$/.test(callArg))
      throw new UsageError(`--call takes a call's number (1, 2, …), not ${JSON.stringify(callArg.slice(0, 40))}`);
    const record = readCallRecord(repoRoot, runId, Number(callArg));
    for (const line of json ? [JSON.stringify(record)] : callLines(record)) io.out(line);
    return ExitCode.success;
  }
  const state = RunStore.readState(repoRoot, runId);
  const show = runShow(state, listAgentCalls(readLog(path.join(runDir(repoRoot, runId), 'log.jsonl'))));
  for (const line of json ? [JSON.stringify(show)] : runShowLines(show)) io.out(line);
  return ExitCode.success;
}
