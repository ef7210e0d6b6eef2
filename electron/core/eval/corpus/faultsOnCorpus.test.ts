import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../../test-support/tempRepo';
import { sourceAppRoot } from '../../appRoot';
import { parseGoldPatch } from '../../llm/oracle/goldPatch';
import { findDefaultCorpus, loadCorpus, runCorpusEval, type CorpusTask } from './index';

// The measuring instrument on a real task (toolz: ~6 s a run): what a spoiled writer leaves on the run
// branch, as the branch itself shows it. Lathe's own reaction to the faults is not asserted here.
const corpusDir = findDefaultCorpus(sourceAppRoot());
const scratch = makeTempDir('lathe-faults-corpus-');
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const TASK = 'toolz-5a7e078';

function settings(
  task: CorpusTask,
  name: string,
  run: { editFormat: 'search-replace' | 'whole-file'; faults: string; keepRuns: boolean },
) {
  const kinds = run.faults.split(',').map((kind) => ({ kind: kind as 'unrelated-change', rate: 1 }));
  return {
    appRoot: sourceAppRoot(),
    corpusDir: corpusDir ?? '',
    tasks: [task],
    workflow: 'dev-agent',
    model: 'oracle:',
    editFormat: run.editFormat,
    faults: { faults: kinds, seed: 1, feedbackCheck: false },
    timeLimitMs: 300_000,
    cacheDir: path.join(scratch, 'cache'),
    workDir: path.join(scratch, name),
    outDir: null,
    keepRuns: run.keepRuns,
    retryBackoffMs: 0,
  };
}

/** Hunks of `git diff` (git's own merging, 3 lines of context) in the gold file whose old lines miss every gold hunk's. */
function unrelatedHunksByGit(repo: string, base: string, branch: string, task: CorpusTask): number {
  const parsed = parseGoldPatch(task.gold_patch);
  if (!parsed.ok) throw new Error(parsed.message);
  let count = 0;
  for (const file of parsed.patch.files) {
    const diff = execFileSync('git', ['diff', '--no-renames', base, branch, '--', file.path], {
      cwd: repo,
      encoding: 'utf8',
    });
    for (const match of diff.matchAll(/^@@ -(\d+)(?:,(\d+))? /gm)) {
      const start = Number(match[1]);
      const end = start + Math.max(Number(match[2] ?? 1), 1) - 1;
      if (file.hunks.every((hunk) => end < hunk.oldIndex + 1 || start > hunk.oldIndex + hunk.before.length)) count++;
    }
  }
  return count;
}

describe('lathe eval --corpus --faults on a real task', () => {
  it('unrelated-change in dev-agent: the damage is what the run branch shows beyond the fix', async (context) => {
    if (!corpusDir) return context.skip('no corpus here: set LATHE_CORPUS or place it at ../shared/corpus');
    const task = loadCorpus(corpusDir).tasks.find((entry) => entry.id === TASK) as CorpusTask;
    const result = await runCorpusEval(
      settings(task, 'unrelated', { editFormat: 'search-replace', faults: 'unrelated-change', keepRuns: true }),
    );
    const [line] = result.lines;
    expect(line?.error).toBeNull();
    expect(line?.faults_applied).toEqual(['unrelated-change']);
    expect(line?.attempts).toBeGreaterThanOrEqual(1);
    const repo = fs
      .readdirSync(path.join(scratch, 'cache'))
      .map((entry) => path.join(scratch, 'cache', entry, 'repo'))
      .find((dir) => fs.existsSync(dir)) as string;
    const byGit = unrelatedHunksByGit(repo, 'main', line?.run?.branch ?? 'main', task);
    expect(line?.damage).toEqual({ placeholder_lines: 0, unrelated_hunks: byGit, tests_weakened: 0, stray_files: 0 });
    expect(result.summary.damaging).toBe(byGit > 0 ? 1 : 0);
  }, 600_000);

  it('test-path in whole-file: the fixed source written over the test file is undone, and the run ends green with every test (issue 26)', async (context) => {
    if (!corpusDir) return context.skip('no corpus here: set LATHE_CORPUS or place it at ../shared/corpus');
    const task = loadCorpus(corpusDir).tasks.find((entry) => entry.id === TASK) as CorpusTask;
    const result = await runCorpusEval(
      settings(task, 'test-path', { editFormat: 'whole-file', faults: 'test-path', keepRuns: false }),
    );
    const [line] = result.lines;
    expect(line?.faults_applied).toEqual(['test-path']);
    // dev-agent's step gate reviews the change, so it is written and verified: TESTS_WEAKENED, rolled back, and the next answer is the fix.
    expect(line).toMatchObject({
      green: true,
      faithful: true,
      attempts: 2,
      damage: { placeholder_lines: 0, unrelated_hunks: 0, tests_weakened: 0, stray_files: 0 },
    });
    expect(line?.head_tests?.counts?.total).toBe(line?.fixed_tests?.counts?.total);
    expect(result.summary).toMatchObject({ green: 1, damaging: 0 });
  }, 600_000);
});
