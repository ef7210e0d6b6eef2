import path from 'node:path';
import { isLatheError, LatheError } from '../../../shared/errors';
import { resolveRepoRoot } from '../git/repoStatus';

/**
 * The repository a command works on: `--repo DIR`, else the current folder. A folder that does not
 * exist is the same mistake as one outside any git repository: a usage error (exit 64) naming where
 * the folder came from, never the exit 2 of a failing machine.
 */
export async function repoRootArg(cwd: string, given: string | undefined): Promise<string> {
  try {
    return await resolveRepoRoot(path.resolve(cwd, given ?? '.'));
  } catch (error) {
    if (!isLatheError(error, 'NOT_FOUND') && !isLatheError(error, 'NOT_A_REPO')) throw error;
    const source = given === undefined ? 'the current folder (no --repo given)' : `--repo ${given}`;
    throw new LatheError(
      'NOT_A_REPO',
      `${source}: ${error.message}; give --repo the folder of a git repository`,
      error.data,
    );
  }
}
