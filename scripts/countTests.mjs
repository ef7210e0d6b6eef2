#!/usr/bin/env node
// Sums Vitest's and Playwright's JSON reports into one `N passed, N failed` line. A failed stage that
// produced no test report (typecheck, lint, build) counts as one failure so it can never vanish.
import fs from 'node:fs';

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    // No report, or one cut off by a killed stage: that stage reported nothing and counts as one failure.
    if (error?.code === 'ENOENT' || error instanceof SyntaxError) return null;
    throw error;
  }
}

/** The Vitest reports in `dir`: one per test tier from `npm test` (vitest-unit.json…), or vitest.json from a plain run. */
function vitestReports(dir) {
  const names = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((name) => /^vitest(-[\w-]+)?\.json$/.test(name))
        .sort()
    : [];
  return names.map((name) => ({
    stage: name === 'vitest.json' ? null : name.slice('vitest-'.length, -'.json'.length),
    report: readJson(`${dir}/${name}`),
  }));
}

export function countTests(dir = 'test-results') {
  let passed = 0;
  let failed = 0;
  const reported = { e2e: false };
  for (const { stage, report } of vitestReports(dir)) {
    if (stage !== null) reported[stage] = report !== null;
    if (!report) continue;
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    // A file that fails to load has no tests but is still a failure.
    failed += (report.testResults ?? []).filter(
      (file) => file.status === 'failed' && (file.assertionResults ?? []).length === 0,
    ).length;
  }
  const playwright = readJson(`${dir}/playwright.json`);
  if (playwright?.stats) {
    reported.e2e = true;
    passed += (playwright.stats.expected ?? 0) + (playwright.stats.flaky ?? 0);
    failed += playwright.stats.unexpected ?? 0;
  }
  const stages = readJson(`${dir}/stages.json`) ?? [];
  for (const stage of stages) {
    if (!stage.passed && !reported[stage.name]) failed += 1;
  }
  return { passed, failed };
}

export function formatCount({ passed, failed }) {
  return `${passed} passed, ${failed} failed`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${formatCount(countTests(process.argv[2]))}\n`);
}
