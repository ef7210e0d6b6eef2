import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sourceAppRoot } from '../electron/core/appRoot';
import type { CorpusRunSettings } from '../electron/core/eval/corpus/index';
import { makeTempDir, makeTempRepo } from './tempRepo';

export interface MiniCorpus {
  dir: string;
  taskId: string;
  remove(): void;
}

/** A task to build: the tree before the fix, and the fix commit's changes (null deletes a file). */
export interface MiniTaskSpec {
  name: string;
  files: Record<string, string>;
  fix: Record<string, string | null>;
  /** The fix's source files (the gold patch); the rest of `fix` (its tests) stays in the starting state. */
  goldFiles: string[];
  goal: string;
  failToPass: string[];
  testsPassingAtFix: number;
}

const MID_TASK: MiniTaskSpec = {
  name: 'mid',
  files: {
    'package.json': JSON.stringify(
      { name: 'mid', version: '1.0.0', type: 'module', scripts: { test: 'node --test' } },
      null,
      2,
    ),
    'src/mid.js': 'export function mid(values) {\n  return values[0];\n}\n',
    'test/mid.test.js':
      "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { mid } from '../src/mid.js';\n\ntest('one value', () => assert.equal(mid([4]), 4));\n",
    '.gitignore': 'node_modules/\n',
  },
  fix: {
    'src/mid.js':
      'export function mid(values) {\n  const sorted = [...values].sort((a, b) => a - b);\n  return sorted[Math.floor(sorted.length / 2)];\n}\n',
    'test/mid.test.js':
      "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { mid } from '../src/mid.js';\n\ntest('one value', () => assert.equal(mid([4]), 4));\ntest('unsorted values', () => assert.equal(mid([9, 1, 5]), 5));\n",
  },
  goldFiles: ['src/mid.js'],
  goal: 'fix: mid() returns the first value instead of the median',
  failToPass: ['unsorted values'],
  testsPassingAtFix: 2,
};

/**
 * A corpus of one real-format task, made from scratch: a Node project whose fix commit corrects
 * `src/mid.js` and adds a test. Bundle, tasks.json and gold patch are built the way the developers'
 * corpus was (git bundle of the history; the gold patch is `git diff parent fix -- gold_files`).
 */
export function makeMiniCorpus(): MiniCorpus {
  return makeCorpus(MID_TASK);
}

/** A one-task corpus from any task spec, built the same way as `makeMiniCorpus`. */
export function makeCorpus(spec: MiniTaskSpec): MiniCorpus {
  const repo = makeTempRepo({ prefix: `lathe-mini-corpus-src-`, files: spec.files });
  const parent = repo.git('rev-parse', 'HEAD');
  for (const [file, content] of Object.entries(spec.fix)) {
    if (content === null) fs.rmSync(path.join(repo.dir, file), { force: true });
    else repo.write(file, content);
  }
  const fix = repo.commitAll('fix');
  const dir = makeTempDir('lathe-mini-corpus-');
  const bundle = `${spec.name}.bundle`;
  execFileSync('git', ['bundle', 'create', '-q', path.join(dir, bundle), 'main'], { cwd: repo.dir });
  // Not through repo.git, which trims: a patch may end in a context line of spaces.
  const goldPatch = execFileSync('git', ['diff', '--full-index', parent, fix, '--', ...spec.goldFiles], {
    cwd: repo.dir,
    encoding: 'utf8',
  });
  const task = {
    id: `${spec.name}-${fix.slice(0, 7)}`,
    repo: spec.name,
    upstream: 'generated',
    license: 'MIT',
    language: 'javascript',
    runner: 'node-test',
    bundle,
    fix_commit: fix,
    parent_commit: parent,
    commit_date: '2000-01-01',
    revert_files: spec.goldFiles,
    gold_files: spec.goldFiles,
    goal: spec.goal,
    gold_patch: goldPatch,
    fail_to_pass: spec.failToPass,
    fail_to_pass_count: spec.failToPass.length,
    tests_passing_at_fix: spec.testsPassingAtFix,
    setup_command: '',
    test_command: 'node --test',
    runtime_seconds: 0.1,
    notes: '',
  };
  fs.writeFileSync(path.join(dir, 'tasks.json'), JSON.stringify([task], null, 2));
  repo.remove();
  return { dir, taskId: task.id, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** How the corpus tests run a task with the oracle model: its gold patch, two minutes, no pause between retries. */
export function oracleRunSettings(
  corpusDir: string,
  run: Pick<CorpusRunSettings, 'workflow' | 'editFormat' | 'cacheDir' | 'workDir' | 'keepRuns'>,
): CorpusRunSettings {
  return {
    appRoot: sourceAppRoot(),
    corpusDir,
    model: 'oracle:',
    timeLimitMs: 120_000,
    outDir: null,
    retryBackoffMs: 0,
    ...run,
  };
}
