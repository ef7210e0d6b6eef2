import type { RunState } from '../../../shared/engine/runState';
import { LatheError } from '../../../shared/errors';
import { RunStore } from '../engine/runStore';
import { isRunId } from '../git/runWorkspace';
import { repoRootArg } from './repoArg';
import { UsageError, type CliIo } from './command';

export interface RunArg {
  repoRoot: string;
  runId: string;
  state: RunState;
}

/**
 * The one RUN_ID of `lathe diff|merge …` and its saved state. An id that names no run, or that is no
 * run id at all (`../x`), is RUN_NOT_FOUND (exit 64): it is never joined to a path.
 */
export async function readRunArg(positionals: string[], repo: string | undefined, io: CliIo): Promise<RunArg> {
  if (positionals.length !== 1) throw new UsageError('give exactly one RUN_ID');
  const runId = positionals[0] ?? '';
  const repoRoot = await repoRootArg(io.cwd, repo);
  if (!isRunId(runId))
    throw new LatheError(
      'RUN_NOT_FOUND',
      `no run ${JSON.stringify(runId.slice(0, 80))} in ${repoRoot} (see \`lathe runs\`)`,
      { run_id: runId.slice(0, 80) },
    );
  return { repoRoot, runId, state: RunStore.readState(repoRoot, runId) };
}
