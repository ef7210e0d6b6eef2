import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WORKFLOWS } from '../../shared/engine/workflows';
import { feedbackFrom } from '../../shared/engine/testFeedback';
import type { TestSummary } from '../../shared/engine/runState';
import { defaultCorpusCache, preparedTaskRepo, type CorpusTask } from '../../electron/core/eval/corpus/index';
import { linkDependencyFolders } from '../../electron/core/git/dependencyLinks';
import { runNativeGit } from '../../electron/core/git/nativeGit';
import { openRepo } from '../../electron/core/git/repoContext';
import type { RunWorkspace } from '../../electron/core/git/types';
import { verify } from '../../electron/core/verifier/verify';

/** What the dev-agent's writer is fed after the first test run: the failing test and the failure excerpt. */
export interface FailingOutput {
  task: string;
  exit_code: number | null;
  status: string;
  feedback: string;
}

function cacheFile(cacheDir: string, task: CorpusTask): string {
  const key = crypto
    .createHash('sha256')
    .update(
      `${task.id}\0${task.fix_commit}\0${task.revert_files.join('\0')}\0${task.test_command}\0${WORKFLOWS['dev-agent'].failure_view}\0run-worktree`,
    )
    .digest('hex')
    .slice(0, 12);
  return path.join(cacheDir, 'context-failures', `${task.id}-${key}.json`);
}

/**
 * The task's real failing output at its starting state: the repository prepared once (setup run), the
 * test command through Lathe's Verifier, the feedback text built as the engine builds it. Cached.
 */
export async function failingOutput(
  corpusDir: string,
  task: CorpusTask,
  options: { cacheDir?: string } = {},
): Promise<FailingOutput> {
  const cacheDir = options.cacheDir ?? defaultCorpusCache();
  const file = cacheFile(cacheDir, task);
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as FailingOutput;
  const repo = await preparedTaskRepo(corpusDir, task, { cacheDir });
  const artifactRoot = fs.mkdtempSync(path.join(cacheDir, 'context-verify-'));
  // As a run tests: in a linked worktree of the checkout with its dependency folders linked (the
  // Verifier never writes a main checkout, so a suite that builds first could not run there).
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-context-run-'));
  try {
    await runNativeGit(repo.dir, ['worktree', 'add', '-q', '--detach', workDir, 'HEAD']);
    await linkDependencyFolders(await openRepo(repo.dir, { useNative: true }), {
      repoRoot: repo.dir,
      workDir,
    } as RunWorkspace);
    const result = await verify({
      workDir,
      argv: ['sh', '-c', task.test_command],
      timeoutMs: 300_000,
      artifactRoot,
      isolation: 'auto',
    });
    const summary = {
      report: result.report,
      excerpt: result.excerpt,
      tail: result.tail,
      first_failure: result.firstFailure
        ? {
            test_id: result.firstFailure.testId,
            message: result.firstFailure.message,
            location: result.firstFailure.location,
          }
        : null,
    } as TestSummary;
    const output: FailingOutput = {
      task: task.id,
      exit_code: result.exitCode,
      status: result.status,
      feedback: feedbackFrom(summary, 'first_failure', WORKFLOWS['dev-agent'].failure_view).text,
    };
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(output, null, 2)}\n`);
    return output;
  } finally {
    await runNativeGit(repo.dir, ['worktree', 'remove', '--force', workDir]).catch(() => null);
    await runNativeGit(repo.dir, ['worktree', 'prune']).catch(() => null);
    fs.rmSync(workDir, { recursive: true, force: true });
    fs.rmSync(artifactRoot, { recursive: true, force: true });
  }
}
