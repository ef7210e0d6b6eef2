import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APP_ROOT, BUILT, ensureAppBuilt } from '../appBuild';
import { loadMainBundle } from './loader';
import type { FakePage } from './page';
import { FakeElectron, type FakeElectronOptions } from './world';
import type { FakeBrowserWindow } from './windows';

export { FakeElectron } from './world';
export type { FakePage } from './page';
export type { FakeBrowserWindow, FakeWebContents } from './windows';
export { documentCsp } from './page';
export { normaliseAccelerator } from './menu';

export interface LaunchedApp {
  electron: FakeElectron;
  /** The first window the app opened, once its page has loaded. */
  window: FakeBrowserWindow;
  page: FakePage;
}

/** Polls until `probe` returns a value (the shell's start-up is a chain of promises). */
export async function eventually<T>(
  probe: () => T | null | undefined | false,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Starts the built app (`out/main/index.js`, building `out/` first if it is stale) in a fake
 * Electron 45 main process, as `electron .` would: the main script runs, 'ready' fires after its first
 * tick, and this resolves once the first window's page (with its preload) has loaded.
 */
export async function launchApp(
  options: Omit<FakeElectronOptions, 'appPath'> & { appPath?: string; bundle?: string },
): Promise<LaunchedApp> {
  const electron = await startMainProcess(options);
  const window = await eventually(() => electron.windows[0], 'the first window');
  await window.webContents.whenLoaded();
  const page = await eventually(() => window.webContents.page, 'the page');
  return { electron, window, page };
}

/** Runs the main script and fires 'ready', without waiting for any window. */
export async function startMainProcess(
  options: Omit<FakeElectronOptions, 'appPath'> & { appPath?: string; bundle?: string },
): Promise<FakeElectron> {
  ensureAppBuilt();
  const electron = new FakeElectron({ appPath: APP_ROOT, ...options });
  await loadMainBundle(electron, options.bundle ?? BUILT.main);
  await new Promise((resolve) => setImmediate(resolve));
  electron.app.emitReady();
  return electron;
}

/** A launched app whose user-data folder and process are cleaned up by the returned function. */
export async function launchTestApp(
  options: { userData?: string } & Partial<Omit<FakeElectronOptions, 'appPath'>> = {},
): Promise<LaunchedApp & { userData: string; close(): void }> {
  const userData = options.userData ?? fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-electron-data-'));
  const launched = await launchApp({ ...options, userData });
  return {
    ...launched,
    userData,
    close: () => {
      launched.electron.app.exit(0);
      if (!options.userData) fs.rmSync(userData, { recursive: true, force: true });
    },
  };
}
