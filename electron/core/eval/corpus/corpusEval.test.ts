import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeMiniCorpus } from '../../../../test-support/miniCorpus';
import { runLathe } from '../../../../test-support/runCli';
import { makeTempDir } from '../../../../test-support/tempRepo';
import { sourceAppRoot } from '../../appRoot';
import { UsageError } from '../../cli/command';
import { evalCommand } from '../../cli/commands/eval';
import { CorpusSummaryLineSchema, CorpusTaskLineSchema, loadCorpus, runCorpusEval } from './index';

const mini = makeMiniCorpus();
const scratch = makeTempDir('lathe-corpus-eval-');
afterAll(() => {
  mini.remove();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const FIXED =
  'export function mid(values) {\n  const sorted = [...values].sort((a, b) => a - b);\n  return sorted[Math.floor(sorted.length / 2)];\n}\n';
const WRONG = 'export function mid(values) {\n  return Math.max(...values);\n}\n';

/** A minimal-workflow transcript whose Coder writes `content` to src/mid.js. */
function transcript(name: string, content: string): string {
  const file = path.join(scratch, `${name}.json`);
  const outputs = [
    {
      role: 'planner',
      json: {
        plan_id: 'plan_0001',
        tasks: [
          {
            id: 'T1',
            title: 'Make mid() return the median',
            rationale: 'it returns the first value',
            acceptance: 'the tests pass',
            artifacts: ['src/mid.js'],
          },
        ],
      },
    },
    { role: 'coder', json: { edits: [{ path: 'src/mid.js', content }] } },
    { role: 'tester', json: { task_id: 'T1', passed: true, report: 'tests ran' } },
  ];
  fs.writeFileSync(file, JSON.stringify({ outputs }));
  return file;
}

describe('lathe eval --corpus', () => {
  it('runs a task, judges it by its own test command bare on the run branch and on the fixed tree, and undoes the run', async () => {
    const corpus = loadCorpus(mini.dir);
    const cacheDir = path.join(scratch, 'cache');
    const result = await runCorpusEval({
      appRoot: sourceAppRoot(),
      corpusDir: corpus.dir,
      tasks: corpus.tasks,
      workflow: 'minimal',
      model: `replay:${transcript('right', FIXED)}`,
      timeLimitMs: 120_000,
      cacheDir,
      workDir: path.join(scratch, 'work-right'),
      outDir: path.join(scratch, 'out'),
      retryBackoffMs: 0,
    });
    const [line] = result.lines;
    expect(line).toMatchObject({
      task: mini.taskId,
      workflow: 'minimal',
      edit_format: 'whole-file',
      green: true,
      faithful: true,
      miss: null,
      error: null,
    });
    expect(line?.run).toMatchObject({ status: 'complete', commits: 1, undone: true });
    expect(line?.fixed_tests).toMatchObject({ exit_code: 0, counts: { passed: 2, failed: 0 } });
    expect(line?.run_tests?.counts).toMatchObject({ passed: 2, failed: 0 });
    expect(result.summary).toMatchObject({
      tasks: 1,
      green: 1,
      faithful: 1,
      errors: 0,
      fidelity: 1,
      interrupted: false,
    });
    // The prepared checkout is back as it was: main, clean, no run branch; the run's folder was copied out.
    const repo = fs
      .readdirSync(cacheDir)
      .map((entry) => path.join(cacheDir, entry, 'repo'))
      .find((dir) => fs.existsSync(dir)) as string;
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: repo, encoding: 'utf8' })).toBe('');
    expect(execFileSync('git', ['branch', '--list', 'lathe/*'], { cwd: repo, encoding: 'utf8' })).toBe('');
    expect(fs.existsSync(path.join(scratch, 'out', 'tasks', mini.taskId, 'minimal-whole-file', 'log.jsonl'))).toBe(
      true,
    );
  });

  it('prints one JSON line per task and a summary line, and exits 1 when a task is not green', async () => {
    const out = await runLathe(
      [
        'eval',
        '--corpus',
        mini.dir,
        '--model',
        `replay:${transcript('wrong', WRONG)}`,
        '--workflow',
        'minimal',
        '--cache',
        path.join(scratch, 'cache'),
        '--json',
      ],
      { timeoutMs: 120_000 },
    );
    const lines = out.stdout
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as unknown);
    expect(lines).toHaveLength(2);
    const task = CorpusTaskLineSchema.parse(lines[0]);
    expect(task).toMatchObject({ task: mini.taskId, green: false, faithful: false });
    expect(task.head_tests?.exit_code).not.toBe(0);
    expect(task.miss).toMatch(/the tests fail bare on the run branch/);
    // The run's tokens, estimated (a replay model), the prompt split into cached and new prefill.
    expect(task.tokens).toMatchObject({ estimated: true, calls: expect.any(Number) });
    const tokens = task.tokens ?? { prompt: 0, cached: 0, prefill: 0, generated: 0, calls: 0 };
    expect(tokens.prompt).toBeGreaterThan(0);
    expect(tokens.generated).toBeGreaterThan(0);
    expect(tokens.cached + tokens.prefill).toBe(tokens.prompt);
    const summary = CorpusSummaryLineSchema.parse(lines[1]);
    expect(summary).toMatchObject({ tasks: 1, green: 0, faithful: 0 });
    expect(summary.median_tokens).toEqual(task.tokens);
    expect(out.code).toBe(1);
  });

  it('refuses an unknown workflow, edit format or task before preparing anything (exit 64)', async () => {
    const cases = [
      ['--workflow', 'nope'],
      ['--edit-format', 'poetry'],
      ['--tasks', 'no-such-task'],
    ];
    const outcomes = await Promise.all(
      cases.map((args) =>
        runLathe(['eval', '--corpus', mini.dir, '--model', 'oracle:', '--workflow', 'minimal', ...args], {
          timeoutMs: 60_000,
        }),
      ),
    );
    outcomes.forEach((out, index) => expect(out.code, cases[index]?.join(' ')).toBe(64));
  });
});

describe('lathe eval --corpus --faults: refused before anything is prepared (exit 64)', () => {
  const io = { out: () => undefined, err: () => undefined, env: {}, cwd: scratch };
  it.each([
    [
      ['--model', 'replay:x.json', '--faults', 'elide'],
      /--faults spoils the oracle's answers, but the coder's model is replay:.*x\.json: use --model oracle:/,
    ],
    [
      ['--model', 'oracle:', '--role-model', 'editor=replay:x.json', '--faults', 'elide'],
      /the editor's model is replay:/,
    ],
    [['--model', 'oracle:', '--faults', 'elide:1.5'], /--faults: the rate of 'elide:1.5' must be a number from 0 to 1/],
    [['--model', 'oracle:', '--faults', 'typo'], /--faults: unknown fault kind 'typo'/],
    [['--model', 'oracle:', '--faults', 'elide', '--fault-seed', '1.5'], /--fault-seed must be a whole number/],
    [['--model', 'oracle:', '--feedback-check'], /--fault-seed and --feedback-check go with --faults/],
  ])('%j', async (args, message) => {
    await expect(evalCommand.run(['--corpus', mini.dir, '--workflow', 'minimal', ...args], io)).rejects.toThrow(
      message,
    );
    await expect(evalCommand.run(['--corpus', mini.dir, '--workflow', 'minimal', ...args], io)).rejects.toBeInstanceOf(
      UsageError,
    );
  });

  it('--faults without --corpus is refused too', async () => {
    await expect(evalCommand.run(['--model', 'replay:x.json', '--faults', 'elide'], io)).rejects.toThrow(
      /--faults, --fault-seed and --feedback-check go with --corpus/,
    );
  });
});
