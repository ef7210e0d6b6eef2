import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{electron,shared,renderer,eslint-rules,bench,scripts,test-support}/**/*.test.{ts,tsx}'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    typecheck: { enabled: false },
  },
});
