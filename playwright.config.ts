import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  // Not test-results/ itself: Playwright empties its outputDir, and Vitest's report lives there.
  outputDir: 'test-results/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  // `@web-only`: what belongs to `lathe serve` (its access link, a browser's requests), chosen here
  // rather than skipped inside the test.
  projects: [{ name: 'web' }, { name: 'electron', grepInvert: /@web-only/ }],
});
