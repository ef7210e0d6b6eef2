import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { SUITE_DIR } from '../../../test-support/evalTranscripts';
import { makeTempDir } from '../../../test-support/tempRepo';
import { pickPython } from '../verifier/detectPython';
import { copyTree, listTree } from './files';
import { hiddenTestArgv, loadEvalSuite, type EvalTask } from './taskSuite';

const run = promisify(execFile);
const suite = loadEvalSuite(SUITE_DIR);
const scratch = makeTempDir('lathe-eval-suite-');
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const python = pickPython(scratch);

function testCount(task: EvalTask, text: string): number {
  return (text.match(task.language === 'python' ? /^def test_/gm : /^test\(/gm) ?? []).length;
}

function visibleTestFiles(task: EvalTask): string[] {
  return listTree(task.repoDir).filter((file) =>
    (task.language === 'python' ? /(^|\/)test_[^/]+\.py$/ : /\.test\.js$/).test(file),
  );
}

// A set NODE_TEST_CONTEXT (even empty) makes `node --test` report to a parent runner and exit 0.
const { NODE_TEST_CONTEXT: _parentRunner, ...inherited } = process.env;
const testEnv = { ...inherited, PYTHONDONTWRITEBYTECODE: '1' };

/** Exit status of a command in a folder (0 = the tests passed). */
async function status(argv: string[], cwd: string): Promise<number> {
  try {
    await run(argv[0] as string, argv.slice(1), { cwd, timeout: 60_000, env: testEnv });
    return 0;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'number' ? code : -1;
  }
}

const visibleArgv = (task: EvalTask) =>
  task.language === 'python' ? [python, '-m', 'pytest', '-q', '-p', 'no:cacheprovider'] : ['node', '--test'];

describe('the bundled eval suite', () => {
  it('has at least 20 tasks: 8 or more per language, every kind, ids matching folders', () => {
    expect(suite.length).toBeGreaterThanOrEqual(20);
    expect(suite.filter((task) => task.language === 'python').length).toBeGreaterThanOrEqual(8);
    expect(suite.filter((task) => task.language === 'javascript').length).toBeGreaterThanOrEqual(8);
    for (const language of ['python', 'javascript'] as const) {
      expect(new Set(suite.filter((task) => task.language === language).map((task) => task.kind))).toEqual(
        new Set(['bugfix', 'feature', 'refactor']),
      );
    }
    expect(new Set(suite.map((task) => task.id)).size).toBe(suite.length);
  });

  it.each(suite.map((task) => [task.id, task] as const))(
    '%s: 2-6 visible tests, 2-5 hidden ones, a goal that never names them',
    (_, task) => {
      const visible = visibleTestFiles(task).reduce(
        (sum, file) => sum + testCount(task, fs.readFileSync(path.join(task.repoDir, file), 'utf8')),
        0,
      );
      const hidden = task.hiddenFiles.reduce(
        (sum, file) => sum + testCount(task, fs.readFileSync(path.join(task.hiddenDir, file), 'utf8')),
        0,
      );
      expect(visible).toBeGreaterThanOrEqual(2);
      expect(visible).toBeLessThanOrEqual(6);
      expect(hidden).toBeGreaterThanOrEqual(2);
      expect(hidden).toBeLessThanOrEqual(5);
      for (const file of task.hiddenFiles) expect(task.goal).not.toContain(path.basename(file));
      expect(task.solutionDir, 'a reference solution proves the task can be solved').not.toBeNull();
      for (const file of task.hints.files ?? [])
        expect(
          fs.existsSync(path.join(task.solutionDir ?? '', file)) || fs.existsSync(path.join(task.repoDir, file)),
        ).toBe(true);
    },
  );

  // Each task runs its tests four times (before/after × visible/hidden): a few seconds a task.
  it.concurrent.each(suite.map((task) => [task.id, task] as const))(
    '%s: not solved at the start (bug fixes and features fail their visible tests too), solved by the reference solution',
    async (_, task) => {
      const dir = path.join(scratch, task.id);
      copyTree(task.repoDir, dir);
      const visibleBefore = await status(visibleArgv(task), dir);
      copyTree(task.hiddenDir, dir);
      const hiddenBefore = await status(hiddenTestArgv(task, python), dir);
      copyTree(task.solutionDir ?? '', dir);
      const hiddenAfter = await status(hiddenTestArgv(task, python), dir);
      const visibleAfter = await status(visibleArgv(task), dir);
      expect({
        visibleBefore: visibleBefore === 0,
        hiddenBefore: hiddenBefore === 0,
        hiddenAfter,
        visibleAfter,
      }).toEqual({
        visibleBefore: task.kind === 'refactor',
        hiddenBefore: false,
        hiddenAfter: 0,
        visibleAfter: 0,
      });
    },
    60_000,
  );
});
