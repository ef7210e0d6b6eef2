import fs from 'node:fs';
import path from 'node:path';
import { makeExampleRepo } from '../test-support/exampleRepo';
import { makeTempDir } from '../test-support/tempRepo';
import { MEDIAN_FIX, writeSlowCoderTranscript } from '../test-support/e2e/gateTranscript';
import { startSlowModelServer } from '../test-support/e2e/slowModelServer';
import { expect, test } from '../test-support/e2e/fixtures';
import { screen, watchPageProblems } from '../test-support/e2e/screens';
import { startDevAgentRun as startRun } from '../test-support/e2e/startRun';
import { readLog } from '../electron/core/engine/runStore';

test('pause lets the Coder finish its answer and stops resumably; resume completes without asking again; export and merge; Stop ends another run for good', async ({
  app,
}) => {
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
    await expect(page.getByTestId('plan-tree').locator('[data-step-id="T1"]')).toHaveAttribute(
      'data-status',
      'in_progress',
    );
    await screen(page, '15-run-active-agent');

    // Pause waits for the Coder's answer (the step under way), saves it, then stops: status paused, resumable.
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Pausing…', exact: true })).toBeDisabled();
    await expect(page.getByTestId('timeline')).toContainText('you asked to pause');
    await screen(page, '16a-run-pausing');
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'paused', { timeout: 15_000 });
    await expect(page.getByTestId('run-status')).toHaveText('paused');
    await expect(page.getByTestId('run-outcome')).toContainText('Paused: paused by the user after the current step');
    await expect(page.getByTestId('timeline')).toContainText('coder answered');
    await expect(page.getByRole('button', { name: 'Resume', exact: true })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeDisabled();
    await screen(page, '16-run-paused');

    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
    await expect(page.getByTestId('timeline')).toContainText('resumed from');
    await expect(page.getByTestId('run-facts')).toContainText('PASS');
    // The answer given before the pause was kept: the Coder was asked once in all.
    const log = readLog(path.join(repo.dir, '.lathe', 'runs', runId, 'log.jsonl'));
    expect(log.filter((event) => event.type === 'agent_call' && event.role === 'coder')).toHaveLength(1);

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

    // Stop interrupts and ends a run for good: no Resume afterwards. Its dialog offers the safe choice first.
    await startRun(page, other.dir, writeSlowCoderTranscript(replays, 'slow-coder-2', 4000));
    await expect(page.getByTestId('active-agent')).toContainText('coder');
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect(page.getByRole('dialog').getByRole('button', { name: 'Keep it' })).toBeFocused();
    await screen(page, '16b-stop-dialog');
    await page.getByRole('dialog').getByRole('button', { name: 'Stop the run' }).click();
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'aborted');
    await expect(page.getByTestId('run-status')).toHaveText('stopped');
    await expect(page.getByTestId('run-outcome')).toContainText('stopped for good by the user');
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
