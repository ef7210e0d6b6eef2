import { createTwoFilesPatch } from 'diff';
import type { RunState } from '../../../shared/engine/runState';
import type { EngineDeps } from './engineDeps';

/** A step's change is shown to its reviewer whole up to this size; past it, cut with a note. */
const MAX_DIFF_CHARS = 24_000;

/**
 * The current step's change as one unified diff (its start to the run's head), what a reviewer reads
 * first: which lines changed, and nothing else to find by comparing whole files.
 */
export async function stepDiff(deps: EngineDeps, state: RunState): Promise<string> {
  const workspace = state.workspace;
  const from = state.step_base?.commit ?? workspace?.baseCommit;
  if (!workspace || !state.head || !from || from === state.head) return '';
  const files = await deps.git.diffRun(workspace, from, state.head);
  const text = files
    .map((file) =>
      createTwoFilesPatch(
        file.before === null ? '/dev/null' : `a/${file.path}`,
        file.after === null ? '/dev/null' : `b/${file.path}`,
        file.before ?? '',
        file.after ?? '',
      ),
    )
    .map((patch) =>
      patch
        .split('\n')
        .filter((line) => !line.startsWith('Index: ') && !/^=+$/.test(line))
        .join('\n'),
    )
    .join('');
  return text.length > MAX_DIFF_CHARS
    ? `${text.slice(0, MAX_DIFF_CHARS)}\n… (${text.length - MAX_DIFF_CHARS} more characters of the diff cut)\n`
    : text;
}
