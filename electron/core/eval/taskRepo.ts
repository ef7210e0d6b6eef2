import fs from 'node:fs';
import git from 'isomorphic-git';
import { copyTree } from './files';
import type { EvalTask } from './taskSuite';
import { isGitNotFound } from '../git/gitErrors';

/** Fixed, so a task's base commit is the same sha on every machine and in every report. */
const BASE_AUTHOR = { name: 'Lathe Eval', email: 'eval@lathe.invalid', timestamp: 1_704_067_200, timezoneOffset: 0 };

/**
 * A fresh git repository holding only the task's `repo/` files, committed once on `main`. The hidden
 * tests are never copied here: this is the repository the agents work on.
 */
export async function createTaskRepo(task: EvalTask, dir: string): Promise<{ dir: string; baseCommit: string }> {
  fs.mkdirSync(dir, { recursive: true });
  const files = copyTree(task.repoDir, dir);
  await git.init({ fs, dir, defaultBranch: 'main' });
  for (const filepath of files) await git.add({ fs, dir, filepath });
  const baseCommit = await git.commit({
    fs,
    dir,
    message: `Eval task ${task.id}: starting files`,
    author: BASE_AUTHOR,
    committer: BASE_AUTHOR,
  });
  return { dir, baseCommit };
}

/** The commit the run ended on: its branch's head, or the base when the run made no branch or it is gone. */
export async function runHead(dir: string, branch: string | null, baseCommit: string): Promise<string> {
  if (!branch) return baseCommit;
  try {
    return await git.resolveRef({ fs, dir, ref: `refs/heads/${branch}` });
  } catch (error) {
    // The run made no branch: nothing beyond the base.
    if (isGitNotFound(error)) return baseCommit;
    throw error;
  }
}
