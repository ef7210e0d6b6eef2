import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT } from '../../test-support/appBuild';
import { launchTestApp } from '../../test-support/fakeElectron/index';
import { isAllowedRequest, isAppDocument } from './securityPolicy';

// The built app, started in a fake Electron 45: every assertion below is on what the shell did.
let app: Awaited<ReturnType<typeof launchTestApp>>;
beforeAll(async () => {
  app = await launchTestApp();
});
afterAll(() => app?.close());

const appPage = pathToFileURL(BUILT.rendererIndex).href;

describe('the window the app opens', () => {
  it('isolates the page: context isolation, sandbox, no Node integration, web security on', () => {
    expect(app.window.options.webPreferences).toEqual({
      preload: BUILT.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    });
    expect(app.window.options.show).toBe(false);
    expect(app.window.isVisible()).toBe(true);
    // The sandboxed preload ran (and exposed the bridge) without needing more than Electron allows it.
    expect(app.electron.log.filter((entry) => entry.level === 'error')).toEqual([]);
    expect(app.page.exposedKeys).toEqual(['lathe']);
    expect(app.page.mainWorld).not.toBe(app.page.isolatedWorld);
    expect(app.page.evaluate('[typeof require, typeof process, typeof module, typeof Buffer]')).toEqual([
      'undefined',
      'undefined',
      'undefined',
      'undefined',
    ]);
  });

  it('loads the built page, whose CSP allows its own scripts only: no eval, no inline script, no plugins, no foreign connections', () => {
    expect(app.page.url).toBe(appPage);
    const csp = app.page.csp;
    expect(csp).not.toBeNull();
    expect(csp?.['default-src']).toEqual(["'self'"]);
    expect(csp?.['script-src']).toEqual(["'self'"]);
    expect(csp?.['object-src']).toEqual(["'none'"]);
    expect(csp?.['connect-src']).toEqual(["'self'"]);
    expect(
      Object.values(csp ?? {})
        .flat()
        .join(' '),
    ).not.toMatch(/unsafe-eval|unsafe-inline.*script|https?:|\*/);
  });

  it('lets the page navigate only to its own page (any query), never away from it', async () => {
    const contents = app.window.webContents;
    for (const url of [
      'https://example.com/',
      'file:///tmp/evil.html',
      `${appPage}/../../evil.html`,
      'data:text/html,<p>x',
    ]) {
      expect(await contents.navigateFromPage(url), url).toEqual({ navigated: false });
    }
    expect(contents.getURL()).toBe(appPage);
    expect(await contents.navigateFromPage(`${appPage}?view=history`)).toEqual({ navigated: true });
    expect(contents.getURL()).toBe(`${appPage}?view=history`);
  });

  it('opens no window: https links go to the system browser, anything else nowhere', () => {
    const contents = app.window.webContents;
    for (const url of [
      'https://example.com/docs',
      'http://example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      appPage,
    ])
      expect(contents.openWindowFromPage(url), url).toBeNull();
    expect(app.electron.windows).toEqual([app.window]);
    expect(app.electron.openedExternally).toEqual(['https://example.com/docs']);
  });

  it('refuses every permission the page asks for or checks, notifications included', async () => {
    const contents = app.window.webContents;
    for (const permission of [
      'notifications',
      'media',
      'geolocation',
      'clipboard-read',
      'openExternal',
      'fullscreen',
      'midiSysex',
      'unknown',
    ]) {
      expect(await app.electron.session.requestPermission(contents, permission), permission).toBe(false);
      expect(app.electron.session.checkPermission(contents, permission), permission).toBe(false);
    }
  });

  it('lets no request leave the machine, while the page loads its own files', async () => {
    const contents = app.window.webContents;
    for (const url of [
      'https://example.com/',
      'http://127.0.0.1:8080/',
      'ws://localhost/',
      'ftp://x/',
      'HTTPS://update.electronjs.org',
    ]) {
      expect(await app.electron.session.filterRequest(contents, url, 'xhr'), url).toEqual({ cancelled: true });
    }
    for (const url of [
      appPage,
      pathToFileURL(path.join(path.dirname(BUILT.rendererIndex), 'assets', 'x.js')).href,
      'data:text/plain,x',
      'blob:file:///1',
      'devtools://devtools/x',
    ]) {
      expect(await app.electron.session.filterRequest(contents, url, 'script'), url).toEqual({ cancelled: false });
    }
    // Loading the built page asked for its scripts and styles: none was blocked or missing.
    expect(app.electron.log.filter((entry) => /Failed to load resource/.test(entry.text))).toEqual([]);
  });
});

describe('the policy functions', () => {
  it('allow only local schemes', () => {
    for (const url of ['file:///app/index.html', 'devtools://devtools/x', 'data:text/plain,x', 'blob:file:///1'])
      expect(isAllowedRequest(url)).toBe(true);
    for (const url of [
      'https://example.com/',
      'http://127.0.0.1:8080/',
      'ws://localhost/',
      'ftp://x/',
      'HTTPS://update.electronjs.org',
    ])
      expect(isAllowedRequest(url)).toBe(false);
  });

  it('treat the app page with any query as the app page, and nothing else', () => {
    const index = '/app/out/renderer/index.html';
    expect(isAppDocument('file:///app/out/renderer/index.html', index)).toBe(true);
    expect(isAppDocument('file:///app/out/renderer/index.html?repo=%2Fr&run=20260101T000000Z#x', index)).toBe(true);
    expect(isAppDocument('file:///tmp/evil.html', index)).toBe(false);
    expect(isAppDocument('file:///app/out/renderer/index.html/../../evil.html', index)).toBe(false);
    expect(isAppDocument('https://evil.example/app/out/renderer/index.html', index)).toBe(false);
    expect(isAppDocument(undefined, index)).toBe(false);
    expect(isAppDocument('not a url', index)).toBe(false);
  });
});
