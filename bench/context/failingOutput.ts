import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PRESETS } from '../../shared/engine/presets';
import { feedbackFrom } from '../../shared/engine/testFeedback';
import type { TestSummary } from '../../shared/engine/runState';
import { defaultCorpusCache, preparedTaskRepo, type CorpusTask } from '../../electron/core/eval/corpus/index';
import { verify } from '../../electron/core/verifier/verify';

/** What the dev-agent's writer is fed after the first test run: the failing test and the failure excerpt. */
export interface FailingOutput {
  task: string;
  exit_code: number | null;
  status: string;
  feedback: string;
}

function cacheFile(cacheDir: string, task: CorpusTask): string {
  const key = crypto.createHash('sha256').update(`${task.id}\0${task.fix_commit}\0${task.revert_files.join('\0')}\0${task.test_command}\0${PRESETS['dev-agent'].failure_view}`).digest('hex').slice(0, 12);
  return path.join(cacheDir, 'context-failures', `${task.id}-${key}.json`);
}

/**
 * The task's real failing output at its starting state: the repository prepared once (setup run), the
 * test command through Lathe's Verifier, the feedback text built as the engine builds it. Cached.
 */
export async function failingOutput(corpusDir: string, task: CorpusTask, options: { cacheDir?: string } = {}): Promise<FailingOutput> {
  const cacheDir = options.cacheDir ?? defaultCorpusCache();
  const file = cacheFile(cacheDir, task);
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as FailingOutput;
  const repo = await preparedTaskRepo(corpusDir, task, { cacheDir });
  const artifactRoot = fs.mkdtempSync(path.join(cacheDir, 'context-verify-'));
  try {
    const result = await verify({ workDir: repo.dir, argv: ['sh', '-c', task.test_command], timeoutMs: 300_000, artifactRoot, isolation: 'auto' });
    const summary = {
      report: result.report,
      excerpt: result.excerpt,
      tail: result.tail,
      first_failure: result.firstFailure ? { test_id: result.firstFailure.testId, message: result.firstFailure.message, location: result.firstFailure.location } : null,
    } as TestSummary;
    const output: FailingOutput = { task: task.id, exit_code: result.exitCode, status: result.status, feedback: feedbackFrom(summary, 'first_failure', PRESETS['dev-agent'].failure_view).text };
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(output, null, 2)}\n`);
    return output;
  } finally {
    fs.rmSync(artifactRoot, { recursive: true, force: true });
  }
}
