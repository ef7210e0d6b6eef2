import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { makeExampleRepo } from '../test-support/exampleRepo';
import { makeTempDir } from '../test-support/tempRepo';
import { MEDIAN_FIX, writeSlowCoderTranscript } from '../test-support/e2e/gateTranscript';
import { startSlowModelServer } from '../test-support/e2e/slowModelServer';
import { expect, test } from '../test-support/e2e/fixtures';
import { screen, watchPageProblems } from '../test-support/e2e/screens';

/** Opens the repository and starts a dev-agent run with every gate off on the given replay spec. */
async function startRun(page: Page, repoDir: string, spec: string): Promise<string> {
  await page.getByRole('button', { name: 'New run', exact: true }).click();
  await page.getByLabel('Repository path').fill(repoDir);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('repo-summary')).toContainText(repoDir.split('/').pop() ?? '');
  await page.getByLabel('Goal', { exact: true }).fill('Fix median() in src/stats.js so the median test passes.');
  await page.getByRole('radio', { name: 'dev-agent' }).check();
  await page.getByLabel('Every role', { exact: true }).selectOption({ label: 'Custom spec…' });
  await page.getByLabel('Every role: custom model spec').fill(spec);
  await page.getByLabel(/^step gate/).selectOption('off');
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByTestId('run-view')).toBeVisible();
  return new URL(page.url()).searchParams.get('run') ?? '';
}

test('pause while the Coder works, resume to completion, export the patch and merge; stop another run for good', async ({ app }) => {
  test.setTimeout(120_000);
  const { page } = app;
  const problems = watchPageProblems(page);
  await page.reload();
  const repo = makeExampleRepo('js-stats');
  const other = makeExampleRepo('js-stats');
  const replays = makeTempDir('lathe-e2e-replay-');
  try {
    const runId = await startRun(page, repo.dir, writeSlowCoderTranscript(replays, 'slow-coder', 4000));
    const agent = page.getByTestId('active-agent');
    await expect(agent).toContainText('coder is working on code for T1');
    await expect(page.getByTestId('tests-tab').or(page.getByRole('tab', { name: /Tests\s*1/ }))).toHaveCount(1);
    await expect(page.getByTestId('plan-tree').locator('[data-step-id="T1"]')).toHaveAttribute('data-status', 'in_progress');
    await screen(page, '15-run-active-agent');

    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'aborted');
    await expect(page.getByTestId('timeline')).toContainText('resumable');
    await expect(page.getByRole('button', { name: 'Resume', exact: true })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeDisabled();
    await screen(page, '16-run-paused');

    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
    await expect(page.getByTestId('timeline')).toContainText('resumed from');
    await expect(page.getByTestId('run-facts')).toContainText('PASS');

    await page.getByRole('button', { name: 'History', exact: true }).click();
    const row = page.locator(`tr[data-run-id="${runId}"]`);
    await row.getByRole('button', { name: 'Export patch' }).click();
    const exported = page.getByTestId('notices').getByText(/Patch of 1 commit\(s\) written to/);
    await expect(exported).toBeVisible();
    const patchFile = ((await exported.textContent()) ?? '').replace(/^.*written to /, '').trim();
    expect(fs.readFileSync(patchFile, 'utf8')).toContain('+  const sorted = [...values].sort((a, b) => a - b);');
    await row.getByRole('button', { name: 'Merge' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Merge' }).click();
    await expect(page.getByTestId('notices')).toContainText(`Run ${runId} merged`);
    expect(repo.git('log', '--format=%s', 'main')).toContain('lathe(T1)');
    expect(fs.readFileSync(`${repo.dir}/src/stats.js`, 'utf8')).toContain('const sorted = [...values]');

    // Stop ends a run for good: no Resume afterwards.
    await startRun(page, other.dir, writeSlowCoderTranscript(replays, 'slow-coder-2', 4000));
    await expect(page.getByTestId('active-agent')).toContainText('coder');
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Stop the run' }).click();
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'aborted');
    await expect(page.getByRole('button', { name: 'Resume', exact: true })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeDisabled();
    expect(problems).toEqual([]);
  } finally {
    repo.remove();
    other.remove();
  }
});

test('the agent at work streams its answer live from a local model server, with its token rate', async ({ app }) => {
  const { page } = app;
  const problems = watchPageProblems(page);
  await page.reload();
  const repo = makeExampleRepo('js-stats');
  const model = await startSlowModelServer([MEDIAN_FIX], { pieceChars: 6, pieceDelayMs: 70 });
  try {
    await startRun(page, repo.dir, model.spec);
    const agent = page.getByTestId('active-agent');
    await expect(agent).toContainText('coder is working on code for T1');
    const stream = agent.getByLabel('coder output as it is generated');
    // The text grows while the Coder is still at work, each piece once. Pieces streamed before the window followed
    // the run come with its first read of the log, so what it shows is always a prefix of the answer.
    const answer = JSON.stringify(MEDIAN_FIX);
    await expect(stream).toContainText('{"diff');
    await expect(page.locator('.agents-table tr', { hasText: 'coder' })).toContainText('live');
    const early = ((await stream.textContent()) ?? '').length;
    await expect.poll(async () => ((await stream.textContent()) ?? '').length).toBeGreaterThan(early + 20);
    const streamed = ((await stream.textContent()) ?? '').trim();
    expect(answer.startsWith(streamed)).toBe(true);
    // A window opened mid-call (here: reloaded) shows the call from its first piece, not from when it joined.
    await page.reload();
    await expect(stream).toContainText('{"diff');
    const rejoined = ((await stream.textContent()) ?? '').trim();
    expect(rejoined.length).toBeGreaterThanOrEqual(streamed.length);
    expect(answer.startsWith(rejoined)).toBe(true);
    await expect(agent).toContainText('coder is working');
    await screen(page, '17-live-token-stream');
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
    expect(model.requests).toBe(1);
    await expect(page.locator('.agents-table tr', { hasText: 'coder' })).not.toContainText('live');
    expect(problems).toEqual([]);
  } finally {
    await model.close();
    repo.remove();
  }
});
