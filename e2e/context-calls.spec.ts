import path from 'node:path';
import type { Page } from '@playwright/test';
import { makeExampleRepo } from '../test-support/exampleRepo';
import type { TempRepo } from '../test-support/tempRepo';
import { expect, test } from '../test-support/e2e/fixtures';
import { screen, watchPageProblems } from '../test-support/e2e/screens';

const GOAL = 'median() returns the mean instead of the median. Fix median() in src/stats.js.';
const REPLAY = path.resolve('resources/replays/js-stats.dev-agent.json');

/** Summary modules built on mean() and median(): together far more than the Coder's 16k-token window. */
function addSummaryModules(repo: TempRepo, count: number): void {
  for (let index = 0; index < count; index++) {
    const steps = Array.from(
      { length: 60 },
      (_, step) => `  const part${step} = values.slice(${step}).map((value) => value * ${step + 1} + mean(values));`,
    ).join('\n');
    repo.write(
      `src/summaries/summary${index}.js`,
      `import { mean, median } from '../stats.js';\n\n/** Summary ${index}: a weighted spread around the median. */\nexport function summary${index}(values) {\n${steps}\n  return median(values) + part0.length;\n}\n`,
    );
  }
  repo.commitAll('Summary modules');
}

async function startDevAgentRun(page: Page, repoDir: string): Promise<void> {
  await page.reload();
  await page.getByLabel('Repository path').fill(repoDir);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('repo-branch')).toHaveText('main');
  await page.getByLabel('Goal', { exact: true }).fill(GOAL);
  await page.getByRole('radio', { name: 'dev-agent' }).check();
  await page.getByLabel('Every role', { exact: true }).selectOption({ label: 'Custom spec…' });
  await page.getByLabel('Every role: custom model spec').fill(`replay:${REPLAY}`);
  await page.getByLabel('Goal', { exact: true }).press('Control+Enter');
  await expect(page.getByTestId('run-view')).toBeVisible();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'complete', { timeout: 60_000 });
  await page.getByRole('tab', { name: /Activity/ }).click();
}

test('the run view shows, per agent call, what context was included and what was dropped', async ({ app }) => {
  test.setTimeout(120_000);
  const repo = makeExampleRepo('js-stats');
  const { page } = app;
  const problems = watchPageProblems(page);
  await startDevAgentRun(page, repo.dir);
  const calls = page.getByTestId('context-calls');
  await expect(calls).toBeVisible();
  const first = calls.getByTestId('context-call').first();
  await expect(first).toContainText('coder');
  await expect(first).toContainText(/of [\d.,]+k? context tokens/);
  // The file to fix is in the coder's context, whole, ranked from the goal and the failing test.
  await expect(first.getByText('src/stats.js', { exact: true })).toBeVisible();
  await expect(first).toContainText('Included');
  await expect(page.getByTestId('timeline')).toContainText('context for code');
  await screen(page, 'context-calls');
  expect(problems).toEqual([]);
});

test('a repository larger than the window: the call lists what was dropped and why, beside what was included', async ({
  app,
}) => {
  test.setTimeout(120_000);
  const repo = makeExampleRepo('js-stats');
  addSummaryModules(repo, 30);
  const { page } = app;
  const problems = watchPageProblems(page);
  await startDevAgentRun(page, repo.dir);
  const first = page.getByTestId('context-calls').getByTestId('context-call').first();
  await expect(first).toContainText('coder');
  await expect(first).toContainText(/16,?384 window|16\.4k window/);
  await expect(first).toContainText(/\d+ included, [1-9]\d* dropped/);
  const included = first.locator('h5', { hasText: 'Included' }).locator('xpath=following-sibling::ul[1]');
  const dropped = first.locator('h5', { hasText: 'Dropped or cut' }).locator('xpath=following-sibling::ul[1]');
  // The file to fix comes first and whole; the summary modules, far below it in rank, stay out whatever
  // room is left: the ranker's confidence, not the budget, decides (decision 93).
  await expect(included.locator('li').first()).toContainText('src/stats.js');
  await expect(included).not.toContainText(/src\/summaries\/summary\d+\.js/);
  await expect(dropped).toContainText(/src\/summaries\/summary\d+\.js/);
  await expect(dropped).toContainText(
    /ranked #\d+; (scored under [\d.]+ of the best source file|no room|budget spent)/,
  );
  await first.scrollIntoViewIfNeeded();
  await screen(page, 'context-calls-dropped');
  expect(problems).toEqual([]);
  repo.remove();
});
