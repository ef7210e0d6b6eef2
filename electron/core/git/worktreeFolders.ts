import fs from 'node:fs';
import path from 'node:path';
import { isMissing, whenErrno, whenMissing } from '../fsErrors';
import type { RepoContext } from './repoContext';
import { REPO_FOLDER_PATTERN } from './worktreeRoot';

/** Marks a folder as Lathe's worktree root; the orphan sweep never touches a root without it. */
export const ROOT_MARKER = 'LATHE-WORKTREES.txt';

const MARKER_TEXT = `Lathe keeps the git worktrees of its runs here, one folder per repository and run.
Undo, merge and retention remove them; a run's commits live on its branch in the repository.
Remove a folder by hand only for a run you no longer need, then run \`git worktree prune\` in its repository.
`;

export async function ensureWorktreeRoot(root: string): Promise<void> {
  await fs.promises.mkdir(root, { recursive: true, mode: 0o700 });
  const marker = path.join(root, ROOT_MARKER);
  if (!fs.existsSync(marker))
    await fs.promises.writeFile(marker, MARKER_TEXT, { flag: 'wx' }).catch(whenErrno(['EEXIST'], undefined));
}

/** The admin folder a worktree's `.git` file points to, or null when `.git` is not such a file. */
async function worktreeGitDir(dir: string): Promise<string | null> {
  const dotGit = path.join(dir, '.git');
  const stat = await fs.promises.lstat(dotGit).catch(whenMissing(null));
  if (!stat?.isFile()) return null;
  // catch-ok: a .git that cannot be read points nowhere, and the sweep leaves a folder it cannot look at (decision 75)
  const pointer = /^gitdir: (.+)$/m.exec(await fs.promises.readFile(dotGit, 'utf8').catch(() => ''))?.[1]?.trim();
  return pointer ? path.resolve(dir, pointer) : null;
}

/**
 * Only an admin folder that is not there proves the repository forgot the worktree; one that cannot be
 * looked at (EACCES, ELOOP, EIO) may still be in use, and its run's files must stay.
 */
async function forgotten(gitDir: string): Promise<boolean> {
  try {
    await fs.promises.stat(gitDir);
    return false;
  } catch (error) {
    return isMissing(error);
  }
}

/**
 * Retention: removes run worktrees under `root` whose repository forgot them (the repository was
 * deleted, or its `.git/worktrees/<name>` was pruned), and empty repository folders. Only in a root
 * Lathe marked, only `<repo>-<hash>/<run>` folders, and only real worktrees (a `.git` file).
 */
export async function sweepOrphanWorktrees(root: string): Promise<string[]> {
  if (!fs.existsSync(path.join(root, ROOT_MARKER))) return [];
  const removed: string[] = [];
  // catch-ok: the sweep is best-effort: a folder it cannot list is left as it is (decision 75)
  for (const repoFolder of await fs.promises.readdir(root, { withFileTypes: true }).catch(() => [])) {
    if (!repoFolder.isDirectory() || !REPO_FOLDER_PATTERN.test(repoFolder.name)) continue;
    const repoDir = path.join(root, repoFolder.name);
    // catch-ok: the sweep is best-effort: a folder it cannot list is left as it is (decision 75)
    for (const run of await fs.promises.readdir(repoDir, { withFileTypes: true }).catch(() => [])) {
      if (!run.isDirectory()) continue;
      const dir = path.join(repoDir, run.name);
      const gitDir = await worktreeGitDir(dir);
      if (!gitDir || !(await forgotten(gitDir))) continue;
      await fs.promises.rm(dir, { recursive: true, force: true });
      removed.push(dir);
    }
    // catch-ok: the repository's folder goes only once empty
    await fs.promises.rmdir(repoDir).catch(() => undefined);
  }
  return removed;
}

/**
 * Removes a run's worktree folder wherever it lives and lets git forget it (`worktree prune`), then
 * the repository's folder in the worktree root when that is left empty.
 */
export async function removeRunWorktree(context: RepoContext, repoRoot: string, dir: string): Promise<void> {
  await context.git(repoRoot, ['worktree', 'remove', '--force', '--force', dir], { allowFailure: true });
  await fs.promises.rm(dir, { recursive: true, force: true });
  await context.git(repoRoot, ['worktree', 'prune']);
  const parent = path.dirname(dir);
  // catch-ok: the repository's folder goes only once empty
  if (REPO_FOLDER_PATTERN.test(path.basename(parent))) await fs.promises.rmdir(parent).catch(() => undefined);
}
