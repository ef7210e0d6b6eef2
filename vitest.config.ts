import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { INTEGRATION_TESTS, SLOW_TESTS } from './test-support/testTiers';

const ALL_TESTS = ['{electron,shared,renderer,eslint-rules,bench,scripts,test-support}/**/*.test.{ts,tsx}'];

// Three tiers (decision 103): `vitest run --project unit` is the fast loop; a plain `vitest run` runs all three.
export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    typecheck: { enabled: false },
    // Run worktrees of test repositories stay in the temp dir instead of the user's ~/lathe-worktrees.
    env: {
      LATHE_WORKTREE_ROOT:
        process.env.LATHE_WORKTREE_ROOT ?? path.join(os.tmpdir(), `lathe-test-worktrees-${os.userInfo().uid}`),
    },
    projects: [
      // Unit tests keep no process state (no vi.mock, no env, no chdir), so one worker process runs many files:
      // a fresh process per file cost the tier 100 of its 120 s.
      {
        extends: true,
        test: {
          name: 'unit',
          include: ALL_TESTS,
          exclude: [...INTEGRATION_TESTS, ...SLOW_TESTS],
          setupFiles: ['test-support/unitTier.setup.ts'],
          isolate: false,
        },
      },
      // Tests that spawn `bin/lathe.mjs` need it built; the unit tier starts no process, so it skips the build.
      {
        extends: true,
        test: {
          name: 'integration',
          include: INTEGRATION_TESTS,
          globalSetup: ['test-support/builtCli.globalSetup.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'slow', include: SLOW_TESTS, globalSetup: ['test-support/builtCli.globalSetup.ts'] },
      },
    ],
  },
});
