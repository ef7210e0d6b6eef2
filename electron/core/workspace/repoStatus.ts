import type { RepoStatus } from '../../../shared/schemas/repo';
import { isLatheError } from '../../../shared/errors';
import { readGitStatus } from '../git/repoStatus';
import { detectionLabel, detectTestCommand } from '../verifier/detect';

/** What the window shows of a repository: its git status and the test command a run would use. */
export async function readRepoStatus(requested: string): Promise<RepoStatus> {
  const status = await readGitStatus(requested);
  // Display only: a manifest that cannot be read is named as the reason there is no command (a run refuses it).
  const detected = await detectTestCommand(status.path)
    .then((found) => (found ? { argv: found.argv, reason: detectionLabel(found) } : null))
    .catch((error: unknown) => (isLatheError(error, 'FILE_UNREADABLE') ? { argv: null, reason: error.message } : null));
  return { ...status, testCommand: detected?.argv ?? null, testCommandReason: detected?.reason ?? null };
}
