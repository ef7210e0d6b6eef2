#!/usr/bin/env node
// Sums Vitest's and Playwright's JSON reports into one `N passed, N failed` line. A failed stage that
// produced no test report (typecheck, lint, build) counts as one failure so it can never vanish.
import fs from 'node:fs';

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

export function countTests(dir = 'test-results') {
  let passed = 0;
  let failed = 0;
  const vitest = readJson(`${dir}/vitest.json`);
  if (vitest) {
    passed += vitest.numPassedTests ?? 0;
    failed += vitest.numFailedTests ?? 0;
    // A file that fails to load has no tests but is still a failure.
    failed += (vitest.testResults ?? []).filter((file) => file.status === 'failed' && (file.assertionResults ?? []).length === 0).length;
  }
  const playwright = readJson(`${dir}/playwright.json`);
  if (playwright?.stats) {
    passed += (playwright.stats.expected ?? 0) + (playwright.stats.flaky ?? 0);
    failed += playwright.stats.unexpected ?? 0;
  }
  const stages = readJson(`${dir}/stages.json`) ?? [];
  const reported = { unit: vitest !== null, e2e: playwright !== null };
  for (const stage of stages) {
    if (!stage.passed && !(stage.name in reported && reported[stage.name])) failed += 1;
  }
  return { passed, failed };
}

export function formatCount({ passed, failed }) {
  return `${passed} passed, ${failed} failed`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${formatCount(countTests(process.argv[2]))}\n`);
}
