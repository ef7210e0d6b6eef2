import ignore from 'ignore';
import type { EditPolicy } from './types';

/**
 * Test files of the common runners, as gitignore-style globs: pytest, node --test, jest/vitest/mocha,
 * go and cargo (its `tests/` folder).
 */
export const DEFAULT_TEST_PATTERNS: readonly string[] = [
  'test_*.py',
  '*_test.py',
  'conftest.py',
  '*.test.*',
  '*.spec.*',
  '*_test.go',
  'tests/',
  'test/',
  '__tests__/',
  'spec/',
];

/** 1 MiB: a diff or search/replace may legitimately grow a file past the whole-file schema bound. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

export function defaultEditPolicy(overrides: Partial<EditPolicy> = {}): EditPolicy {
  return {
    artifacts: null,
    testsReadOnly: false,
    testPatterns: [...DEFAULT_TEST_PATTERNS],
    protectedPaths: [],
    maxFileBytes: DEFAULT_MAX_FILE_BYTES,
    allowLargeDeletions: false,
    ...overrides,
  };
}

const defaultTests = ignore().add([...DEFAULT_TEST_PATTERNS]);

/** Whether a repo-relative path is a test file by the default patterns (what `tests_read_only` guards). */
export function isTestFile(relative: string): boolean {
  return defaultTests.ignores(relative.replace(/^(\.\/)+/, ''));
}
