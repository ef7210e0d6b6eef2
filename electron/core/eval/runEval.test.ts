import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunLogEvent } from '../../../shared/schemas/run';
import { APP_ROOT } from '../../../test-support/exampleRepo';
import {
  minimalTranscript,
  SUITE_DIR,
  supervisedTranscript,
  taskFile,
  writeTranscript,
} from '../../../test-support/evalTranscripts';
import { makeTempDir } from '../../../test-support/tempRepo';
import { createReadOnlyTools } from '../workspace/index';
import { EvalReportSchema } from './reportSchema';
import { runEval } from './runEval';
import { loadEvalSuite, type EvalTask } from './taskSuite';

const cleanup: string[] = [];
afterEach(() => cleanup.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

const suite = loadEvalSuite(SUITE_DIR);
const task = (id: string) => suite.find((candidate) => candidate.id === id) as EvalTask;

const SLUGIFY_WRONG = taskFile('py-slugify', 'solution', 'text_utils.py').replace(
  'char.isascii() and char.isalnum()',
  'char.isalnum()',
);
const CHUNK_LOOP =
  '  for (let start = 0; start + size <= items.length; start += size) {\n    chunks.push(items.slice(start, start + size));\n  }';

function allFiles(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((file) => path.join(dir, file));
}

/** Runs tasks with per-task transcripts; on every run event, checks that no hidden file exists where the agents work. */
async function evalWith(
  tasks: EvalTask[],
  transcripts: Record<string, unknown[]>,
  workflow: string,
  signal?: AbortSignal,
) {
  const dir = makeTempDir('lathe-eval-test-');
  const workRoot = path.join(dir, 'work');
  fs.mkdirSync(workRoot);
  cleanup.push(dir);
  for (const [id, outputs] of Object.entries(transcripts)) writeTranscript(dir, id, outputs);
  const events: Record<string, RunLogEvent[]> = {};
  const leaks: string[] = [];
  const hiddenNames = new Set(tasks.flatMap((evalTask) => evalTask.hiddenFiles.map((file) => path.basename(file))));
  const report = await runEval({
    appRoot: APP_ROOT,
    tasks,
    workflow,
    model: `replay:${path.join(dir, '{task}.json')}`,
    timeLimitMs: null,
    outDir: path.join(dir, 'out'),
    workRoot,
    keepWork: true,
    suiteDir: SUITE_DIR,
    retryBackoffMs: 1,
    signal,
    onRunEvent: (taskId, event) => {
      (events[taskId] ??= []).push(event);
      // Everything the agents can reach: the task repository, its .git, and the run's worktree beside it.
      leaks.push(...allFiles(workRoot).filter((file) => hiddenNames.has(path.basename(file))));
    },
  });
  return { dir, workRoot, report, events, leaks };
}

function taskRepo(workRoot: string, id: string): string {
  const work = fs.readdirSync(workRoot).find((name) => name.startsWith(`lathe-eval-${id}-`)) ?? '';
  return path.join(workRoot, work, id);
}

describe('lathe eval on replay transcripts', () => {
  it('judges a Python task solved and a JavaScript task unsolved (minimal), with well-formed rates from the log', async () => {
    const { report, events, leaks, dir } = await evalWith(
      [task('py-slugify'), task('js-chunk')],
      {
        'py-slugify': minimalTranscript('text_utils.py', taskFile('py-slugify', 'solution', 'text_utils.py'), {
          malformedFirst: true,
        }),
        // Passes the visible tests but modifies its input, which only the hidden tests check.
        'js-chunk': minimalTranscript(
          'src/arrays.js',
          taskFile('js-chunk', 'repo', 'src/arrays.js').replace(
            CHUNK_LOOP,
            '  while (items.length > 0) chunks.push(items.splice(0, size));',
          ),
        ),
      },
      'minimal',
    );
    expect(EvalReportSchema.parse(report)).toEqual(report);
    const [slugify, chunk] = report.tasks;
    expect(slugify).toMatchObject({
      id: 'py-slugify',
      outcome: 'solved',
      solved: true,
      attempts: 1,
      replans: 0,
      run: { status: 'complete', commits: 1 },
    });
    expect(slugify?.hidden_tests).toMatchObject({ status: 'PASS', counts: { passed: 3, failed: 0 } });
    expect(slugify?.roles.coder).toMatchObject({ calls: 2, well_formed: 1, malformed: 1, well_formed_rate: 0.5 });
    expect(slugify?.roles.planner).toMatchObject({ calls: 1, well_formed: 1, malformed: 0, well_formed_rate: 1 });
    expect(slugify?.tokens.total).toBeGreaterThan(0);
    // Replay counts are estimates; the Coder's retry re-reads only what follows the prompt it shares with its first call.
    const tokens = slugify?.tokens;
    expect(tokens).toMatchObject({
      calls: Object.values(slugify?.roles ?? {}).reduce((sum, role) => sum + role.calls, 0),
      estimated: true,
    });
    expect((tokens?.cached ?? 0) + (tokens?.prefill ?? 0)).toBe(tokens?.prompt);
    expect(tokens?.cached).toBeGreaterThan(0);
    expect(tokens?.generated).toBe(tokens?.completion);
    expect(Object.keys(slugify?.laptop_minutes ?? {})).toEqual(['cpu-laptop', 'apple-m']);
    expect(report.summary.median_tokens).toMatchObject({ estimated: true });
    expect(chunk).toMatchObject({ id: 'js-chunk', outcome: 'unsolved', solved: false, run: { status: 'complete' } });
    expect(chunk?.visible_tests?.status).toBe('PASS');
    expect(chunk?.hidden_tests).toMatchObject({ status: 'FAIL' });
    expect(chunk?.hidden_tests?.first_failure?.test_id).toMatch(/not modified/);
    expect(report.summary).toMatchObject({
      tasks: 2,
      solved: 1,
      unsolved: 1,
      errors: 0,
      solve_rate: 0.5,
      by_language: { python: { tasks: 1, solved: 1 }, javascript: { tasks: 1, solved: 0 } },
    });
    expect(report.summary.roles.coder).toMatchObject({ well_formed: 2, malformed: 1 });

    expect(leaks).toEqual([]);
    const logText = JSON.stringify(events);
    for (const hidden of [
      'test_acceptance',
      'acceptance.test',
      'test_non_ascii_letters_are_separators',
      'the input is not modified',
    ])
      expect(logText).not.toContain(hidden);
    expect(fs.readFileSync(path.join(dir, 'out', 'eval-report.md'), 'utf8')).toContain(
      '| py-slugify | py | bugfix | solved |',
    );
    expect(fs.existsSync(path.join(dir, 'out', slugify?.files.run_dir ?? '', 'log.jsonl'))).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'out', chunk?.files.hidden_log ?? ''), 'utf8')).toContain('not modified');
  });

  it('keeps the hidden tests away from the repository and the read-only tools, and judges supervised runs', async () => {
    const search = CHUNK_LOOP;
    const { report, workRoot, leaks, events } = await evalWith(
      [task('js-chunk'), task('py-slugify')],
      {
        'js-chunk': supervisedTranscript(
          'js-chunk',
          'src/arrays.js',
          search,
          search.replace('start + size <= items.length', 'start < items.length'),
        ),
        'py-slugify': supervisedTranscript(
          'py-slugify',
          'text_utils.py',
          taskFile('py-slugify', 'repo', 'text_utils.py'),
          SLUGIFY_WRONG,
        ),
      },
      'supervised',
    );
    expect(
      report.tasks.map((result) => [result.id, result.outcome, result.run?.status]),
      JSON.stringify(report.tasks.map((t) => t.run?.reason)),
    ).toEqual([
      ['js-chunk', 'solved', 'complete'],
      ['py-slugify', 'unsolved', 'complete'],
    ]);
    expect(report.tasks[1]?.hidden_tests?.first_failure?.test_id).toMatch(/non_ascii/);
    expect(report.tasks[0]?.roles.supervisor).toMatchObject({ calls: 6, well_formed: 6, well_formed_rate: 1 });
    expect(leaks).toEqual([]);

    for (const evalTask of [task('js-chunk'), task('py-slugify')]) {
      const repo = taskRepo(workRoot, evalTask.id);
      const history = execFileSync('git', ['log', '--all', '--name-only', '--format='], {
        cwd: repo,
        encoding: 'utf8',
      });
      expect(history).not.toMatch(/acceptance/);
      expect(
        execFileSync('git', ['worktree', 'list', '--porcelain'], { cwd: repo, encoding: 'utf8' }).match(/^worktree /gm),
      ).toHaveLength(2);
      const workDir = String(events[evalTask.id]?.find((event) => event.type === 'workspace_ready')?.data.work_dir);
      const tools = createReadOnlyTools(workDir);
      const { files } = await tools.listFiles();
      expect(files.length).toBeGreaterThan(2);
      expect(files.filter((file) => /acceptance/.test(file))).toEqual([]);
      const marker = evalTask.language === 'python' ? 'test_digits_are_kept' : 'a bad size throws RangeError';
      expect((await tools.searchText(marker)).hits).toEqual([]);
      const hiddenFile = path.join(evalTask.hiddenDir, evalTask.hiddenFiles[0] ?? '');
      await expect(tools.readFile(hiddenFile)).rejects.toThrow();
      await expect(tools.readFile(path.relative(workDir, hiddenFile))).rejects.toThrow();
    }
  });

  it('marks every task interrupted when stopped, and reports it', async () => {
    const controller = new AbortController();
    controller.abort();
    const { report } = await evalWith([task('py-roman'), task('js-paginate')], {}, 'minimal', controller.signal);
    expect(report.interrupted).toBe(true);
    expect(report.tasks.map((result) => result.outcome)).toEqual(['interrupted', 'interrupted']);
    expect(report.summary).toMatchObject({ solved: 0, interrupted: 2, solve_rate: null });
  });

  it('runs tasks concurrently with jobs and keeps the report in task order', async () => {
    const dir = makeTempDir('lathe-eval-jobs-');
    cleanup.push(dir);
    const ids = ['py-roman', 'js-paginate', 'py-cart-discount'];
    const files: Record<string, string> = {
      'py-roman': 'roman.py',
      'js-paginate': 'src/paginate.js',
      'py-cart-discount': 'cart.py',
    };
    for (const id of ids)
      writeTranscript(dir, id, minimalTranscript(files[id] ?? '', taskFile(id, 'solution', files[id] ?? '')));
    let running = 0;
    let most = 0;
    const report = await runEval({
      appRoot: APP_ROOT,
      tasks: ids.map(task),
      jobs: 2,
      workflow: 'minimal',
      model: `replay:${path.join(dir, '{task}.json')}`,
      timeLimitMs: null,
      outDir: path.join(dir, 'out'),
      suiteDir: SUITE_DIR,
      retryBackoffMs: 1,
      onTaskStart: () => (most = Math.max(most, ++running)),
      onTaskDone: () => running--,
    });
    expect(most).toBe(2);
    expect(report.settings.jobs).toBe(2);
    expect(report.tasks.map((result) => [result.id, result.outcome])).toEqual(ids.map((id) => [id, 'solved']));
    expect(fs.readdirSync(path.join(dir, 'out', 'tasks')).sort()).toEqual([...ids].sort());
  });
});
