import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{electron,shared,renderer,eslint-rules,bench,scripts,test-support}/**/*.test.{ts,tsx}'],
    environment: 'node',
    pool: 'forks',
    globalSetup: ['test-support/builtCli.globalSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    typecheck: { enabled: false },
    // Run worktrees of test repositories stay in the temp dir instead of the user's ~/lathe-worktrees.
    env: { LATHE_WORKTREE_ROOT: process.env.LATHE_WORKTREE_ROOT ?? path.join(os.tmpdir(), `lathe-test-worktrees-${os.userInfo().uid}`) },
  },
});
