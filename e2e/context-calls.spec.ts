import path from 'node:path';
import { makeExampleRepo } from '../test-support/exampleRepo';
import { expect, test } from '../test-support/e2e/fixtures';
import { screen, watchPageProblems } from '../test-support/e2e/screens';

const GOAL = 'median() returns the mean instead of the median. Fix median() in src/stats.js.';

test('the run view shows, per agent call, what context was included and what was dropped', async ({ app }) => {
  test.setTimeout(120_000);
  const repo = makeExampleRepo('js-stats');
  const replay = path.resolve('resources/replays/js-stats.dev-agent.json');
  const { page } = app;
  const problems = watchPageProblems(page);
  await page.reload();
  await page.getByLabel('Repository path').fill(repo.dir);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('repo-branch')).toHaveText('main');
  await page.getByLabel('Goal', { exact: true }).fill(GOAL);
  await page.getByRole('radio', { name: 'dev-agent' }).check();
  await page.getByLabel('Every role', { exact: true }).selectOption({ label: 'Custom spec…' });
  await page.getByLabel('Every role: custom model spec').fill(`replay:${replay}`);
  await page.getByLabel('Goal', { exact: true }).press('Control+Enter');

  await expect(page.getByTestId('run-view')).toBeVisible();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'complete', { timeout: 60_000 });
  await page.getByRole('tab', { name: /Activity/ }).click();
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
