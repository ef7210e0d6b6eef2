import { makeExampleRepo } from '../test-support/exampleRepo';
import { makeTempDir } from '../test-support/tempRepo';
import { writeSlowCoderTranscript } from '../test-support/e2e/gateTranscript';
import { expect, test } from '../test-support/e2e/fixtures';
import { screen, watchPageProblems } from '../test-support/e2e/screens';
import { startDevAgentRun } from '../test-support/e2e/startRun';

/** Issue 29, item 6: History at 800×600 — every action on screen, multi-line goals marked, Export patch confirmed. */

const LONG_GOAL =
  'Fix median() in src/stats.js so the median test passes, and keep the input array unchanged while doing it.\nAlso document mean() and median() in README.md.\nThird line the list must not show.';

test('History at 800×600 keeps every action on screen, marks a multi-line goal, and confirms an export', async ({
  app,
}) => {
  test.setTimeout(120_000);
  const { page } = app;
  const problems = watchPageProblems(page);
  await page.setViewportSize({ width: 800, height: 600 });
  const repo = makeExampleRepo('js-stats');
  const replays = makeTempDir('lathe-e2e-replay-');
  try {
    const first = await startDevAgentRun(page, repo.dir, writeSlowCoderTranscript(replays, 'first', 0));
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
    const second = await startDevAgentRun(page, repo.dir, writeSlowCoderTranscript(replays, 'second', 0), LONG_GOAL);
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
    // The run header: the first line, marked as cut, the whole goal on hover.
    await expect(page.locator('#run-goal')).toHaveText(/^Fix median\(\).*…$/);
    await expect(page.locator('#run-goal')).toHaveAttribute('title', LONG_GOAL);

    await page.getByRole('button', { name: 'History', exact: true }).click();
    for (const runId of [first, second]) {
      const row = page.locator(`tr[data-run-id='${runId}']`);
      for (const name of [
        `Open run ${runId}`,
        `Report of run ${runId}`,
        'Merge',
        `Follow up on run ${runId}`,
        'Export patch',
        'Undo',
      ]) {
        const button = row.getByRole('button', { name, exact: true });
        await expect(button).toBeVisible();
        const box = await button.boundingBox();
        expect(box, name).not.toBeNull();
        // Inside the 800 px window, without scrolling sideways.
        expect((box?.x ?? 0) + (box?.width ?? 0), `${name} of ${runId}`).toBeLessThanOrEqual(800);
      }
    }
    const longRow = page.locator(`tr[data-run-id='${second}']`);
    await expect(longRow.locator('.goal-line')).toHaveText(/…$/);
    await expect(longRow.locator('.goal-line')).toHaveAttribute('title', LONG_GOAL);
    // The spec compiles without the DOM library; the page's document is reached through globalThis.
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement
            .scrollWidth,
      ),
    ).toBeLessThanOrEqual(800);

    await longRow.getByRole('button', { name: 'Export patch', exact: true }).click();
    const status = page.getByTestId('export-status');
    await expect(status).toContainText(`Patch of run ${second} (1 commit) saved to`);
    await expect(status.getByTestId('export-download')).toHaveAttribute('download', `${second}.patch`);
    await screen(page, 'history-800x600', { fullPage: false });
    expect(problems).toEqual([]);
  } finally {
    repo.remove();
  }
});
