import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir, makeTempRepo } from './tempRepo';

export interface MiniCorpus {
  dir: string;
  taskId: string;
  remove(): void;
}

/**
 * A corpus of one real-format task, made from scratch: a Node project whose fix commit corrects
 * `src/mid.js` and adds a test. Bundle, tasks.json and gold patch are built the way the developers'
 * corpus was (git bundle of the history; the gold patch is `git diff parent fix -- gold_files`).
 */
export function makeMiniCorpus(): MiniCorpus {
  const repo = makeTempRepo({
    prefix: 'lathe-mini-corpus-src-',
    files: {
      'package.json': JSON.stringify({ name: 'mid', version: '1.0.0', type: 'module', scripts: { test: 'node --test' } }, null, 2),
      'src/mid.js': 'export function mid(values) {\n  return values[0];\n}\n',
      'test/mid.test.js': "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { mid } from '../src/mid.js';\n\ntest('one value', () => assert.equal(mid([4]), 4));\n",
      '.gitignore': 'node_modules/\n',
    },
  });
  const parent = repo.git('rev-parse', 'HEAD');
  repo.write('src/mid.js', 'export function mid(values) {\n  const sorted = [...values].sort((a, b) => a - b);\n  return sorted[Math.floor(sorted.length / 2)];\n}\n');
  repo.write('test/mid.test.js', "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { mid } from '../src/mid.js';\n\ntest('one value', () => assert.equal(mid([4]), 4));\ntest('unsorted values', () => assert.equal(mid([9, 1, 5]), 5));\n");
  const fix = repo.commitAll('fix: mid() sorts first');
  const dir = makeTempDir('lathe-mini-corpus-');
  execFileSync('git', ['bundle', 'create', '-q', path.join(dir, 'mid.bundle'), 'main'], { cwd: repo.dir });
  const goldPatch = repo.git('diff', '--full-index', parent, fix, '--', 'src/mid.js') + '\n';
  const task = {
    id: `mid-${fix.slice(0, 7)}`,
    repo: 'mid',
    upstream: 'generated',
    license: 'MIT',
    language: 'javascript',
    runner: 'node-test',
    bundle: 'mid.bundle',
    fix_commit: fix,
    parent_commit: parent,
    commit_date: '2000-01-01',
    revert_files: ['src/mid.js'],
    gold_files: ['src/mid.js'],
    goal: 'fix: mid() returns the first value instead of the median',
    gold_patch: goldPatch,
    fail_to_pass: ['unsorted values'],
    fail_to_pass_count: 1,
    tests_passing_at_fix: 2,
    setup_command: '',
    test_command: 'node --test',
    runtime_seconds: 0.1,
    notes: '',
  };
  fs.writeFileSync(path.join(dir, 'tasks.json'), JSON.stringify([task], null, 2));
  repo.remove();
  return { dir, taskId: task.id, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
