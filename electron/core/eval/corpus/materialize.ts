import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LatheError } from '../../../../shared/errors';
import { runNativeGit } from '../../git/nativeGit';
import type { CorpusTask } from './corpusTasks';

/** Fixed identity and dates: a task's starting commit is the same sha everywhere (as materialize.sh). */
const IDENTITY = {
  GIT_AUTHOR_NAME: 'lathe-corpus',
  GIT_AUTHOR_EMAIL: 'corpus@lathe.invalid',
  GIT_COMMITTER_NAME: 'lathe-corpus',
  GIT_COMMITTER_EMAIL: 'corpus@lathe.invalid',
  GIT_AUTHOR_DATE: '2000-01-01T00:00:00+0000',
  GIT_COMMITTER_DATE: '2000-01-01T00:00:00+0000',
};

async function git(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}, input?: string): Promise<string> {
  const result = await runNativeGit(cwd, args, { env, input });
  if (result.code !== 0)
    throw new LatheError(
      'CORPUS_MATERIALIZE_FAILED',
      `git ${args.join(' ')} failed: ${result.stderr.trim().slice(0, 500)}`,
      { args },
    );
  return result.stdout;
}

/**
 * The corpus README's starting state, built offline from the bundle: branch `main` whose tip is
 * "Task <id>: starting state" = the fix commit's tree with `revert_files` at their parent versions,
 * on top of `parent_commit`. Only what `main` reaches is copied; no remote is left. Same commit id as
 * the corpus's own materialize.sh.
 */
export async function materializeCorpusTask(
  corpusDir: string,
  task: CorpusTask,
  dest: string,
): Promise<{ dir: string; commit: string }> {
  if (fs.existsSync(dest) && fs.readdirSync(dest).length > 0)
    throw new LatheError('CORPUS_MATERIALIZE_FAILED', `${dest} exists and is not empty`, { dest });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-corpus-src-'));
  try {
    const source = path.join(scratch, 'src.git');
    await git(scratch, ['clone', '-q', '--bare', path.join(corpusDir, task.bundle), source]);
    const env = { GIT_DIR: source, GIT_INDEX_FILE: path.join(scratch, 'index') };
    for (const commit of [task.fix_commit, task.parent_commit]) {
      const exists = await runNativeGit(scratch, ['cat-file', '-e', `${commit}^{commit}`], { env });
      if (exists.code !== 0)
        throw new LatheError('CORPUS_MATERIALIZE_FAILED', `${task.bundle} has no commit ${commit}`, {
          task: task.id,
          commit,
        });
    }
    await git(scratch, ['read-tree', task.fix_commit], env);
    for (const file of task.revert_files) {
      const entry = (await git(scratch, ['ls-tree', task.parent_commit, '--', file], env)).trim();
      if (entry) {
        const [meta = ''] = entry.split('\t');
        const [mode, , blob] = meta.split(' ');
        await git(scratch, ['update-index', '--add', '--cacheinfo', `${mode},${blob},${file}`], env);
      } else {
        // Added by the fix: not part of the starting state. Mode 0 removes the entry; `--force-remove`
        // would need a work tree, and this index belongs to a bare repository.
        await git(scratch, ['update-index', '--index-info'], env, `0 ${'0'.repeat(40)}\t${file}\n`);
      }
    }
    const tree = (await git(scratch, ['write-tree'], env)).trim();
    const commit = (
      await git(
        scratch,
        [
          '-c',
          'commit.gpgSign=false',
          'commit-tree',
          tree,
          '-p',
          task.parent_commit,
          '-m',
          `Task ${task.id}: starting state`,
        ],
        { ...env, ...IDENTITY },
      )
    ).trim();
    await git(scratch, ['update-ref', 'refs/heads/main', commit], { GIT_DIR: source });
    fs.mkdirSync(path.dirname(path.resolve(dest)), { recursive: true });
    await git(scratch, ['clone', '-q', '--no-local', '--single-branch', '--branch', 'main', source, dest]);
    await git(dest, ['remote', 'remove', 'origin']);
    return { dir: path.resolve(dest), commit };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
