import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../test-support/tempRepo';
import { hiddenTestArgv, loadEvalSuite, loadEvalTask, selectTasks, taskIdMatcher } from './taskSuite';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

const TASK_YAML = 'id: demo-task\nlanguage: python\nkind: bugfix\ntitle: Demo\ngoal: Fix it.\n';

function writeTask(files: Record<string, string>, name = 'demo-task'): string {
  const suite = makeTempDir('lathe-eval-suite-');
  dirs.push(suite);
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(suite, name, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
  }
  return path.join(suite, name);
}

describe('eval task folders', () => {
  it('loads a task with its hidden files and default hints', () => {
    const dir = writeTask({
      'task.yaml': TASK_YAML,
      'repo/app.py': 'x = 1\n',
      'hidden/tests/test_acceptance.py': 'def test_x(): pass\n',
      'hidden/tests/helpers/data.txt': '1\n',
    });
    const task = loadEvalTask(dir);
    expect(task).toMatchObject({
      id: 'demo-task',
      language: 'python',
      kind: 'bugfix',
      hints: {},
      solutionDir: null,
      repoDir: path.join(dir, 'repo'),
    });
    expect(task.hiddenFiles).toEqual(['tests/helpers/data.txt', 'tests/test_acceptance.py']);
    expect(hiddenTestArgv(task, '/usr/bin/python3')).toEqual([
      '/usr/bin/python3',
      '-m',
      'pytest',
      '-q',
      '-p',
      'no:cacheprovider',
      'tests/helpers/data.txt',
      'tests/test_acceptance.py',
    ]);
  });

  it.each([
    ['an unknown key', { 'task.yaml': `${TASK_YAML}extra: 1\n` }, /task\.yaml: \(top level\).*extra/],
    ['a bad kind', { 'task.yaml': TASK_YAML.replace('bugfix', 'rewrite') }, /task\.yaml: kind:/],
    [
      'an id that is not the folder name',
      { 'task.yaml': TASK_YAML.replace('id: demo-task', 'id: other') },
      /must match the folder name/,
    ],
    ['no repo folder', { 'task.yaml': TASK_YAML, 'hidden/t.py': '' }, /no repo\/ folder/],
    ['no hidden tests', { 'task.yaml': TASK_YAML, 'repo/a.py': '' }, /no hidden acceptance tests/],
    [
      'a hidden file the agents could see',
      { 'task.yaml': TASK_YAML, 'repo/tests/test_acceptance.py': '', 'hidden/tests/test_acceptance.py': '' },
      /also exists in repo\//,
    ],
    ['YAML that does not parse', { 'task.yaml': 'id: [unclosed\n' }, /task\.yaml:/],
  ])('refuses %s, naming the file', (_, files, message) => {
    const dir = writeTask(files as Record<string, string>);
    expect(() => loadEvalTask(dir)).toThrow(message);
    expect(() => loadEvalTask(dir)).toThrow(expect.objectContaining({ code: 'BAD_EVAL_TASK' }));
  });

  it('refuses a missing or empty suite', () => {
    const empty = makeTempDir('lathe-eval-empty-');
    dirs.push(empty);
    expect(() => loadEvalSuite(empty)).toThrow(/has no tasks/);
    expect(() => loadEvalSuite(path.join(empty, 'missing'))).toThrow(/no eval suite/);
  });

  it('selects task ids with * and ? wildcards, comma-separated, and refuses a pattern matching nothing', () => {
    const dir = writeTask({ 'task.yaml': TASK_YAML, 'repo/a.py': '', 'hidden/t.py': '' });
    const task = loadEvalTask(dir);
    const tasks = ['py-roman', 'py-slugify', 'js-chunk', 'js-retry'].map((id) => ({ ...task, id }));
    expect(selectTasks(tasks, 'py-*').map((t) => t.id)).toEqual(['py-roman', 'py-slugify']);
    expect(selectTasks(tasks, 'js-chunk, py-rom?n').map((t) => t.id)).toEqual(['py-roman', 'js-chunk']);
    expect(selectTasks(tasks, undefined)).toHaveLength(4);
    expect(() => selectTasks(tasks, 'go-*')).toThrow(expect.objectContaining({ code: 'NO_EVAL_TASKS' }));
    expect(taskIdMatcher('a.b')('axb')).toBe(false);
  });
});
