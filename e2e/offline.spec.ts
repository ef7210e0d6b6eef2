import path from 'node:path';
import { makeExampleRepo, REPLAYS } from '../test-support/exampleRepo';
import { expect, test } from '../test-support/e2e/fixtures';

// Web only: the Electron session blocks non-local requests itself (securityPolicy.test.ts).
test(
  'the window makes no request outside its own origin during a whole run',
  { tag: '@web-only' },
  async ({ app }, testInfo) => {
    test.setTimeout(120_000);
    const { page } = app;
    const requests: string[] = [];
    const sockets: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('websocket', (socket) => sockets.push(socket.url()));
    const repo = makeExampleRepo('js-stats');
    try {
      await page.reload();
      const origin = new URL(page.url()).origin;
      await page.getByLabel('Repository path').fill(repo.dir);
      await page.getByRole('button', { name: 'Open', exact: true }).click();
      await page.getByLabel('Goal', { exact: true }).fill('Fix median() and document both functions.');
      await page.getByRole('radio', { name: 'minimal' }).check();
      await page.getByLabel('Every role', { exact: true }).selectOption({ label: 'Custom spec…' });
      await page
        .getByLabel('Every role: custom model spec')
        .fill(`replay:${path.join(REPLAYS, 'js-stats.minimal.json')}`);
      await page.getByLabel('Goal', { exact: true }).press('Control+Enter');
      await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'complete', { timeout: 60_000 });
      // The diff view loads Monaco and its worker, the heaviest part of the window.
      await page.getByRole('tab', { name: /Changes/ }).click();
      await expect(page.locator('.monaco-diff-editor').first()).toBeVisible({ timeout: 30_000 });
      await page.getByRole('tab', { name: /Tests/ }).click();

      const foreign = requests.filter(
        (url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:'),
      );
      expect(foreign).toEqual([]);
      expect(requests.length).toBeGreaterThan(3);
      expect(sockets.length).toBeGreaterThan(0);
      for (const socket of sockets) expect(new URL(socket).host).toBe(new URL(origin).host);
      testInfo.annotations.push({ type: 'requests', description: `${requests.length} requests, all to ${origin}` });
    } finally {
      repo.remove();
    }
  },
);
