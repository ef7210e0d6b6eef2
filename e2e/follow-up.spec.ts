import { makeExampleRepo } from '../test-support/exampleRepo';
import { makeTempDir } from '../test-support/tempRepo';
import { writeSlowCoderTranscript } from '../test-support/e2e/gateTranscript';
import { expect, test } from '../test-support/e2e/fixtures';
import { screen, watchPageProblems } from '../test-support/e2e/screens';
import { startDevAgentRun } from '../test-support/e2e/startRun';

/** Issue 29: Follow up in History opens the New run form for a follow-up; the new run's row links back to the run it continues. */

const FOLLOW_UP_GOAL =
  'Keep median() fixed, and make sure the whole test suite still passes on top of the previous run.';

test('Follow up on a finished run: the form says so, the new run completes, History links it to its parent', async ({
  app,
}) => {
  test.setTimeout(120_000);
  const { page } = app;
  const problems = watchPageProblems(page);
  const repo = makeExampleRepo('js-stats');
  const replays = makeTempDir('lathe-e2e-replay-');
  try {
    const parent = await startDevAgentRun(page, repo.dir, writeSlowCoderTranscript(replays, 'parent', 0));
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });

    await page.getByRole('button', { name: 'History', exact: true }).click();
    const parentRow = page.locator(`tr[data-run-id='${parent}']`);
    await expect(parentRow).toContainText('complete');
    await parentRow.getByRole('button', { name: `Follow up on run ${parent}`, exact: true }).click();

    // The New run form, opened as a follow-up of that run.
    await expect(page.getByRole('heading', { name: 'Follow-up run' })).toBeVisible();
    await expect(page.getByTestId('follow-up-notice')).toContainText(`Follows up on run ${parent}`);
    await page.getByLabel('Goal', { exact: true }).fill(FOLLOW_UP_GOAL);
    await page.getByRole('radio', { name: 'dev-agent' }).check();
    await page.getByLabel('Every role', { exact: true }).selectOption({ label: 'Custom spec…' });
    await page.getByLabel('Every role: custom model spec').fill(writeSlowCoderTranscript(replays, 'follow-up', 0));
    await page.getByLabel(/^step gate/).selectOption('off');
    await page.getByRole('button', { name: 'Start run' }).click();
    await expect(page.getByTestId('run-view')).toBeVisible();
    await expect.poll(() => new URL(page.url()).searchParams.get('run')).not.toBe(parent);
    const child = new URL(page.url()).searchParams.get('run') ?? '';
    expect(child).toMatch(/^\d{8}T\d{6}Z/);
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });

    // History: the follow-up's row names the run it continues; the parent's does not.
    await page.getByRole('button', { name: 'History', exact: true }).click();
    const childRow = page.locator(`tr[data-run-id='${child}']`);
    await expect(childRow).toContainText('complete');
    const link = childRow.getByTestId('follow-up-of');
    await expect(link).toHaveText(`↳ follows up on ${parent}`);
    await expect(parentRow.getByTestId('follow-up-of')).toHaveCount(0);
    await screen(page, 'follow-up-chain', { fullPage: false });

    // The link opens the parent run.
    await link.click();
    await expect(page.getByTestId('run-view')).toBeVisible();
    await expect.poll(() => new URL(page.url()).searchParams.get('run')).toBe(parent);
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'complete');
    await expect(page.locator('#run-goal')).toContainText('Fix median()');
    expect(problems).toEqual([]);
  } finally {
    repo.remove();
  }
});
