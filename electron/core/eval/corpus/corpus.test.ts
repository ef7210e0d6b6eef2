import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isLatheError } from '../../../../shared/errors';
import { sourceAppRoot } from '../../appRoot';
import { makeCorpus, makeMiniCorpus } from '../../../../test-support/miniCorpus';
import { makeTempDir } from '../../../../test-support/tempRepo';
import { findDefaultCorpus, loadCorpus, materializeCorpusTask, preparedTaskRepo, selectCorpusTasks } from './index';
import { corpusRunConfig } from './runCorpusTask';

const scratch = makeTempDir('lathe-corpus-test-');
const mini = makeMiniCorpus();
afterAll(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
  mini.remove();
});

const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();

describe('corpus tasks', () => {
  it('loads a corpus and selects tasks by id or pattern; an unknown pattern is an error', () => {
    const corpus = loadCorpus(mini.dir);
    expect(corpus.tasks.map((task) => task.id)).toEqual([mini.taskId]);
    expect(selectCorpusTasks(corpus, 'mid-*')).toHaveLength(1);
    expect(() => selectCorpusTasks(corpus, 'nope')).toThrow(/no corpus task matches 'nope'/);
  });

  it("allows each task's own test command through the dev-agent allowlist (seed 001), as written", () => {
    const [task] = loadCorpus(mini.dir).tasks;
    if (!task) throw new Error('the mini corpus has a task');
    const settings = {
      appRoot: sourceAppRoot(),
      corpusDir: mini.dir,
      workflow: 'dev-agent',
      model: 'oracle:',
      timeLimitMs: null,
      workDir: scratch,
      outDir: null,
    };
    const shellTask = { ...task, test_command: 'npm run pretest && npx mocha test/*.mjs' };
    expect(corpusRunConfig(shellTask, scratch, settings).shell_allowlist).toContain('sh -c');
    expect(corpusRunConfig(task, scratch, settings).shell_allowlist).toContain('node');
  });

  it('refuses a malformed task, naming it and the field', () => {
    const dir = makeTempDir('lathe-bad-corpus-');
    const [task] = JSON.parse(fs.readFileSync(path.join(mini.dir, 'tasks.json'), 'utf8')) as Record<string, unknown>[];
    fs.copyFileSync(path.join(mini.dir, 'mid.bundle'), path.join(dir, 'mid.bundle'));
    fs.writeFileSync(path.join(dir, 'tasks.json'), JSON.stringify([{ ...task, fix_commit: 'abc' }]));
    expect(() => loadCorpus(dir)).toThrow(/task mid-\w+: fix_commit: a full 40-hex commit id/);
    fs.writeFileSync(path.join(dir, 'tasks.json'), JSON.stringify([{ ...task, bundle: 'gone.bundle' }]));
    expect(() => loadCorpus(dir)).toThrow(/no bundle gone.bundle/);
    fs.writeFileSync(path.join(dir, 'tasks.json'), '{"not": "an array"}');
    try {
      loadCorpus(dir);
      expect.unreachable();
    } catch (error) {
      expect(isLatheError(error, 'BAD_CORPUS')).toBe(true);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('materialises the starting state offline: fix tree with the reverted files, on top of the parent, no remote, deterministic id', async () => {
    const [task] = loadCorpus(mini.dir).tasks;
    if (!task) throw new Error('no task');
    const first = await materializeCorpusTask(mini.dir, task, path.join(scratch, 'a'));
    const second = await materializeCorpusTask(mini.dir, task, path.join(scratch, 'b'));
    expect(second.commit).toBe(first.commit);
    expect(git(first.dir, 'rev-parse', 'main^')).toBe(task.parent_commit);
    expect(git(first.dir, 'remote')).toBe('');
    expect(fs.readFileSync(path.join(first.dir, 'src/mid.js'), 'utf8')).toContain('return values[0]');
    expect(fs.readFileSync(path.join(first.dir, 'test/mid.test.js'), 'utf8')).toContain('unsorted values');
    expect(git(first.dir, 'status', '--porcelain')).toBe('');
    // The gold patch turns the start into the fix's tree.
    execFileSync('git', ['apply', '-'], { cwd: first.dir, input: task.gold_patch });
    expect(fs.readFileSync(path.join(first.dir, 'src/mid.js'), 'utf8')).toContain('sorted.length / 2');
  });

  it('leaves out of the starting state a file the fix adds (found by the oracle model)', async () => {
    const adds = makeCorpus({
      name: 'adds',
      files: { 'a.js': 'export const a = 1;\n' },
      fix: { 'a.js': "export { b } from './b.js';\nexport const a = 1;\n", 'b.js': 'export const b = 2;\n' },
      goldFiles: ['a.js', 'b.js'],
      goal: 'export b',
      failToPass: [],
      testsPassingAtFix: 0,
    });
    try {
      const [task] = loadCorpus(adds.dir).tasks;
      if (!task) throw new Error('no task');
      const start = await materializeCorpusTask(adds.dir, task, path.join(scratch, 'adds'));
      expect(git(start.dir, 'ls-files')).toBe('a.js');
      execFileSync('git', ['apply', '-'], { cwd: start.dir, input: task.gold_patch });
      expect(fs.readFileSync(path.join(start.dir, 'b.js'), 'utf8')).toBe('export const b = 2;\n');
    } finally {
      adds.remove();
    }
  });

  it('prepares a task once and reuses it while its checkout is clean; a dirtied checkout is prepared again', async () => {
    const [task] = loadCorpus(mini.dir).tasks;
    if (!task) throw new Error('no task');
    const cacheDir = path.join(scratch, 'cache');
    const first = await preparedTaskRepo(mini.dir, { ...task, setup_command: 'echo lock > setup.lock' }, { cacheDir });
    expect(first.reused).toBe(false);
    expect(git(first.dir, 'status', '--porcelain')).toBe('');
    const again = await preparedTaskRepo(mini.dir, { ...task, setup_command: 'echo lock > setup.lock' }, { cacheDir });
    expect(again).toMatchObject({ dir: first.dir, commit: first.commit, reused: true });
    fs.writeFileSync(path.join(first.dir, 'src/mid.js'), 'broken');
    const redone = await preparedTaskRepo(mini.dir, { ...task, setup_command: 'echo lock > setup.lock' }, { cacheDir });
    expect(redone.reused).toBe(false);
    expect(fs.readFileSync(path.join(redone.dir, 'src/mid.js'), 'utf8')).toContain('return values[0]');
  });

  it('a failing setup is an error with the end of its log', async () => {
    const [task] = loadCorpus(mini.dir).tasks;
    if (!task) throw new Error('no task');
    await expect(
      preparedTaskRepo(
        mini.dir,
        { ...task, setup_command: 'echo no registry here; exit 3' },
        { cacheDir: path.join(scratch, 'cache-fail') },
      ),
    ).rejects.toThrow(/exited 3; last lines:\nno registry here/);
  });
});

const developersCorpus = findDefaultCorpus(sourceAppRoot());

describe("the developers' corpus", () => {
  it("every task loads, and materialising gives the commit id of the corpus's own materialize.sh", async (context) => {
    if (!developersCorpus) return context.skip('no corpus here: set LATHE_CORPUS or place it at ../shared/corpus');
    const corpus = loadCorpus(developersCorpus);
    expect(corpus.tasks.length).toBeGreaterThan(0);
    const task = corpus.tasks.find((candidate) => candidate.repo === 'toolz') ?? corpus.tasks[0];
    if (!task) throw new Error('no task');
    const ours = await materializeCorpusTask(corpus.dir, task, path.join(scratch, 'real-ours'));
    const theirs = path.join(scratch, 'real-theirs');
    execFileSync(path.join(corpus.dir, 'materialize.sh'), [corpus.dir, task.id, theirs], { stdio: 'ignore' });
    expect(git(theirs, 'rev-parse', 'main')).toBe(ours.commit);
  });
});
