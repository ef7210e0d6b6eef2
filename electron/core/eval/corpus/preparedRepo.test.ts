import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeCorpus, type MiniCorpus } from '../../../../test-support/miniCorpus';
import { makePackageManagerStandIns } from '../../../../test-support/packageManagerStandIns';
import { makeTempDir } from '../../../../test-support/tempRepo';
import { loadCorpus, type CorpusTask } from './corpusTasks';
import { preparedTaskRepo, setupEnv } from './preparedRepo';

describe("a corpus task's setup installs what its repository declares, whatever the caller's shell says", () => {
  it('drops what makes npm leave dev dependencies out, and keeps the rest', () => {
    const env = setupEnv({
      PATH: '/usr/bin',
      HOME: '/root',
      NODE_ENV: 'production',
      npm_config_omit: 'dev',
      npm_config_production: 'true',
      npm_config_cache: '/root/.npm',
    });
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/root',
      npm_config_cache: '/root/.npm',
      npm_config_update_notifier: 'false',
    });
  });
});

describe("a corpus task's setup may rewrite a lockfile, never the task's files", () => {
  const corpora: MiniCorpus[] = [];
  const caches: string[] = [];
  afterEach(() => {
    corpora.splice(0).forEach((corpus) => corpus.remove());
    caches.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
  });

  const LOCKED_FILES = {
    'package.json': '{"name":"locked","version":"1.0.0","scripts":{"test":"node --test"}}\n',
    'package-lock.json': '{}\n',
  };

  /** The mini corpus's task with a tracked lockfile (package-lock.json unless files say otherwise) and the given setup command. */
  function corpusWithSetup(
    setup: string,
    files: Record<string, string> = LOCKED_FILES,
  ): { corpusDir: string; task: CorpusTask; cacheDir: string } {
    const corpus = makeCorpus({
      name: 'locked',
      files: {
        ...files,
        'src/a.js': 'export const a = 1;\n',
        'test/a.test.js': "import test from 'node:test';\ntest('a', () => {});\n",
      },
      fix: { 'src/a.js': 'export const a = 2;\n' },
      goldFiles: ['src/a.js'],
      goal: 'a is 2',
      failToPass: [],
      testsPassingAtFix: 1,
    });
    corpora.push(corpus);
    const file = path.join(corpus.dir, 'tasks.json');
    const tasks = JSON.parse(fs.readFileSync(file, 'utf8')) as { setup_command: string }[];
    tasks[0]!.setup_command = setup;
    fs.writeFileSync(file, JSON.stringify(tasks));
    const cacheDir = makeTempDir('lathe-prepared-');
    caches.push(cacheDir);
    return { corpusDir: corpus.dir, task: loadCorpus(corpus.dir).tasks[0]!, cacheDir };
  }

  it('restores a lockfile the installer rewrote, notes it, and starts from the clean task commit', async () => {
    const { corpusDir, task, cacheDir } = corpusWithSetup(
      `node -e "require('fs').appendFileSync('package-lock.json', ' ')" && echo > new-output.txt`,
    );
    const prepared = await preparedTaskRepo(corpusDir, task, { cacheDir });
    expect(prepared.setupNote).toBe('restored package-lock.json (the installer rewrote it)');
    expect(fs.readFileSync(path.join(prepared.dir, 'package-lock.json'), 'utf8')).toBe('{}\n');
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: prepared.dir, encoding: 'utf8' })).toBe('');
    expect(fs.readFileSync(path.join(prepared.home, 'setup.log'), 'utf8')).toContain(
      '[lathe] restored package-lock.json',
    );
    // The note is kept with the prepared repository, so a reuse still has it.
    expect((await preparedTaskRepo(corpusDir, task, { cacheDir })).setupNote).toBe(prepared.setupNote);
  });

  it('refuses a setup that changed a tracked file that is not a lockfile, naming it', async () => {
    const { corpusDir, task, cacheDir } = corpusWithSetup(
      `node -e "require('fs').appendFileSync('src/a.js', '// generated')"`,
    );
    await expect(preparedTaskRepo(corpusDir, task, { cacheDir })).rejects.toMatchObject({
      code: 'CORPUS_SETUP_FAILED',
      message: expect.stringContaining('the setup changed tracked files that are not lockfiles: src/a.js'),
    });
  });

  it('auto on a pnpm lockfile runs pnpm, and restores the pnpm-lock.yaml it rewrote (pnpm played by a stand-in)', async () => {
    const standIns = makePackageManagerStandIns();
    const savedPath = process.env.PATH;
    process.env.PATH = `${standIns.binDir}${path.delimiter}${savedPath ?? ''}`;
    try {
      const manifest = JSON.stringify({ name: 'locked', version: '1.0.0', dependencies: { dep: 'file:./dep' } });
      const { corpusDir, task, cacheDir } = corpusWithSetup('auto', {
        'package.json': manifest,
        'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
        'dep/package.json': '{"name":"dep","version":"1.0.0"}',
      });
      const prepared = await preparedTaskRepo(corpusDir, task, { cacheDir });
      expect(prepared.setupNote).toBe(
        'pnpm-lock.yaml: pnpm install --frozen-lockfile --ignore-scripts; restored pnpm-lock.yaml (the installer rewrote it)',
      );
      expect(standIns.calls()).toEqual([
        { program: 'pnpm', args: ['install', '--frozen-lockfile', '--ignore-scripts'], cwd: prepared.dir },
      ]);
      expect(fs.readFileSync(path.join(prepared.dir, 'pnpm-lock.yaml'), 'utf8')).toBe("lockfileVersion: '9.0'\n");
      expect(fs.existsSync(path.join(prepared.dir, 'node_modules', 'dep', 'package.json'))).toBe(true);
      expect(execFileSync('git', ['status', '--porcelain'], { cwd: prepared.dir, encoding: 'utf8' })).toBe('');
    } finally {
      process.env.PATH = savedPath;
      standIns.remove();
    }
  });
});
