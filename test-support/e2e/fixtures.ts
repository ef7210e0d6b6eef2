import { _electron, chromium, test as base, type Page } from '@playwright/test';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawnLathe, waitForLine } from '../runCli';
import { makeTempDir } from '../tempRepo';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';
import { findElectronBinary } from './electronBinary';

export interface LatheApp {
  page: Page;
  mode: 'web' | 'electron';
}

interface WorkerFixtures {
  serveUrl: string;
}

/** Specs get `app.page`, the Lathe window: `lathe serve` in Chromium for `web`, the real app for `electron`. */
export const test = base.extend<{ app: LatheApp }, WorkerFixtures>({
  serveUrl: [
    async ({}, use, workerInfo) => {
      if (workerInfo.project.name !== 'web') return use('');
      const child: ChildProcessWithoutNullStreams = spawnLathe(['serve', '--port', '0'], {
        env: { LATHE_HOME: makeTempDir('lathe-home-') },
      });
      const url = await waitForLine(child, /^http:\/\/127\.0\.0\.1:/);
      await use(url);
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
    { scope: 'worker' },
  ],
  app: async ({ serveUrl }, use, testInfo) => {
    if (testInfo.project.name === 'electron') {
      const binary = findElectronBinary();
      testInfo.skip(!binary.found, binary.found ? '' : binary.reason);
      if (!binary.found) return;
      const electronApp = await _electron.launch({
        executablePath: binary.executablePath,
        args: ['out/main/index.js'],
        env: { ...process.env, LATHE_E2E: '1' },
      });
      const page = await electronApp.firstWindow();
      await use({ page, mode: 'electron' });
      await electronApp.close();
      return;
    }
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(serveUrl);
    await use({ page, mode: 'web' });
    await browser.close();
  },
});

export { expect } from '@playwright/test';
