import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** Opens the repository in the window and starts a dev-agent run with every gate off on the given model spec; returns the run id. */
export async function startDevAgentRun(
  page: Page,
  repoDir: string,
  spec: string,
  goal = 'Fix median() in src/stats.js so the median test passes.',
): Promise<string> {
  await page.getByRole('button', { name: 'New run', exact: true }).click();
  await page.getByLabel('Repository path').fill(repoDir);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('repo-summary')).toContainText(repoDir.split('/').pop() ?? '');
  await page.getByLabel('Goal', { exact: true }).fill(goal);
  await page.getByRole('radio', { name: 'dev-agent' }).check();
  await page.getByLabel('Every role', { exact: true }).selectOption({ label: 'Custom spec…' });
  await page.getByLabel('Every role: custom model spec').fill(spec);
  await page.getByLabel(/^step gate/).selectOption('off');
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByTestId('run-view')).toBeVisible();
  await expect.poll(() => new URL(page.url()).searchParams.get('run')).toMatch(/^\d{8}T\d{6}Z/);
  return new URL(page.url()).searchParams.get('run') ?? '';
}
