import fs from 'node:fs';
import path from 'node:path';
import { LatheError } from '../../../shared/errors';
import { AgentCallRecordSchema, type AgentCallRecord } from '../../../shared/schemas/agentCall';
import { isMissing, unreadable } from '../fsErrors';
import { isRunId } from '../git/runWorkspace';
import { runDir } from '../engine/runStore';

/**
 * Agent call `call` of a run, as `calls/<call>.json` keeps it. The run id and the number are checked
 * before either becomes part of a path; a missing run is RUN_NOT_FOUND, a missing call CALL_NOT_FOUND.
 */
export function readCallRecord(repoRoot: string, runId: string, call: number): AgentCallRecord {
  if (!isRunId(runId) || !fs.existsSync(path.join(runDir(repoRoot, runId), 'state.json'))) {
    throw new LatheError(
      'RUN_NOT_FOUND',
      `no run ${JSON.stringify(runId.slice(0, 80))} in ${repoRoot} (see \`lathe runs\`)`,
      { run_id: runId.slice(0, 80) },
    );
  }
  if (!Number.isSafeInteger(call) || call < 1)
    throw new LatheError('CALL_NOT_FOUND', `no agent call ${call} in run ${runId}: calls are numbered from 1`, {
      run_id: runId,
      call,
    });
  const file = path.join(runDir(repoRoot, runId), 'calls', `${call}.json`);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (isMissing(error))
      throw new LatheError(
        'CALL_NOT_FOUND',
        `no record of agent call ${call} in run ${runId}: no such call, one cut short before it answered, or a run older than call records (see \`lathe runs --show ${runId}\`)`,
        { run_id: runId, call },
      );
    throw unreadable(file, error);
  }
  let parsed;
  try {
    parsed = AgentCallRecordSchema.safeParse(JSON.parse(text));
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    parsed = null;
  }
  if (!parsed?.success)
    throw new LatheError('RUN_LOG_INVALID', `${file} is not a readable call record`, { run_id: runId, call });
  return parsed.data;
}
