import { describe, expect, it } from 'vitest';
import { derivedNotes, MinedTaskSchema, orderedTask, TASK_FIELD_ORDER } from './minedTask';

const fix = 'a'.repeat(40);
const valid = {
  id: 'demo-aaaaaaa',
  repo: 'demo',
  upstream: 'https://github.com/o/demo',
  license: 'MIT',
  language: 'javascript',
  runner: 'jest',
  bundle: 'demo.bundle',
  fix_commit: fix,
  parent_commit: 'b'.repeat(40),
  commit_date: '2024-03-05',
  revert_files: ['lib/a.js', 'CHANGELOG.md'],
  gold_files: ['lib/a.js'],
  goal: 'Fix a',
  gold_patch: 'diff --git a/lib/a.js b/lib/a.js\n',
  fail_to_pass: ['a works'],
  fail_to_pass_count: 1,
  tests_passing_at_fix: 10,
  setup_command: 'npm install',
  test_command: 'npx jest',
  runtime_seconds: 3,
  notes: '',
};

describe('MinedTaskSchema', () => {
  it('accepts a complete task and orders its fields as the shared corpus does', () => {
    const task = MinedTaskSchema.parse(valid);
    expect(Object.keys(orderedTask(task))).toEqual([...TASK_FIELD_ORDER]);
  });

  it.each([
    ['a count that is not the list length', { fail_to_pass_count: 2 }],
    ['no fail-to-pass test', { fail_to_pass: [], fail_to_pass_count: 0 }],
    ['a gold file that is not reverted', { gold_files: ['lib/b.js'] }],
    ['an id not made of repo and sha', { id: 'demo-1234567' }],
    ['a field the format does not have', { extra: 1 }],
    ['a short sha', { fix_commit: 'abc' }],
    ['a missing notes field', { notes: undefined }],
  ])('rejects %s', (_name, change) => {
    expect(MinedTaskSchema.safeParse({ ...valid, ...change }).success).toBe(false);
  });
});

describe('derivedNotes', () => {
  it('says so when most of the suite is fail-to-pass, and keeps the given notes', () => {
    expect(derivedNotes({ fail_to_pass_count: 2, tests_passing_at_fix: 100 }, '')).toBe('');
    expect(derivedNotes({ fail_to_pass_count: 146, tests_passing_at_fix: 146 }, 'Go 1.19.')).toMatch(
      /^Go 1\.19\. At the start the tests do not load or compile/,
    );
  });
});
