import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../tempRepo';
import { FakeElectron } from './world';
import type { FakeBrowserWindow } from './windows';

// The fake must behave as Electron 45 does where the shell depends on it; each case cites the behaviour.
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function fixture(preload: string, html = '<!doctype html><title>t</title>') {
  const dir = makeTempDir('lathe-fake-electron-');
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, 'preload.cjs'), preload);
  fs.writeFileSync(path.join(dir, 'index.html'), html);
  fs.writeFileSync(path.join(dir, 'package.json'), '{"version":"1.0.0"}');
  const electron = new FakeElectron({ appPath: dir, userData: dir });
  const modules = electron.mainModules() as {
    BrowserWindow: new (options: object) => FakeBrowserWindow;
    session: { defaultSession: unknown };
  };
  return { dir, electron, modules };
}

async function open(preload: string, webPreferences: object = {}) {
  const { dir, electron, modules } = fixture(preload);
  electron.app.emitReady();
  const window = new modules.BrowserWindow({
    webPreferences: { preload: path.join(dir, 'preload.cjs'), ...webPreferences },
  });
  await window.loadFile('index.html');
  const page = window.webContents.page;
  if (!page) throw new Error('no page');
  return { dir, electron, window, page };
}

describe('ipc', () => {
  it('allows one invoke handler per channel, and rejects an invoke nobody handles or that throws', async () => {
    const { electron, page } = await open('');
    electron.ipcMain.handle('a', (_event, value) => ({ doubled: (value as number) * 2 }));
    expect(() => electron.ipcMain.handle('a', () => 1)).toThrow("Attempted to register a second handler for 'a'");
    expect(await page.ipcRenderer.invoke('a', 21)).toEqual({ doubled: 42 });
    await expect(page.ipcRenderer.invoke('b')).rejects.toThrow(
      "Error invoking remote method 'b': Error: No handler registered for 'b'",
    );
    electron.ipcMain.handle('c', () => {
      throw new Error('boom');
    });
    await expect(page.ipcRenderer.invoke('c')).rejects.toThrow("Error invoking remote method 'c': Error: boom");
    await expect(page.ipcRenderer.invoke('a', () => 1)).rejects.toThrow('An object could not be cloned.');
  });

  it('webContents.send clones like postMessage: prototypes drop, Maps survive, a function is logged and not sent', async () => {
    const { electron, window, page } = await open('');
    const got: unknown[] = [];
    page.ipcRenderer.on('x', (_event: unknown, value: unknown) => got.push(value));
    class Point {
      constructor(readonly x: number) {}
      get twice() {
        return this.x * 2;
      }
    }
    window.webContents.send('x', new Point(1));
    window.webContents.send('x', new Map([['k', 1]]));
    window.webContents.send('x', { f: () => 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(got).toEqual([{ x: 1 }, new Map([['k', 1]])]);
    expect(Object.getPrototypeOf(got[0])).toBe(Object.prototype);
    expect(electron.log.some((entry) => /could not be cloned/.test(entry.text))).toBe(true);
  });
});

describe('the sandboxed preload and the context bridge', () => {
  it('gives a sandboxed preload only electron, events, timers and url', async () => {
    const { page, electron } = await open(`
      const { contextBridge } = require('electron');
      const found = ['events', 'timers', 'url', 'fs', 'child_process', 'path'].map((name) => { try { require(name); return name + ':ok'; } catch (e) { return name + ':' + e.message; } });
      contextBridge.exposeInMainWorld('found', found);`);
    expect(page.window.found).toEqual([
      'events:ok',
      'timers:ok',
      'url:ok',
      'fs:module not found: fs',
      'child_process:module not found: child_process',
      'path:module not found: path',
    ]);
    expect(electron.log).toEqual([]);
  });

  it('copies and freezes what it exposes, proxies functions and promises, and re-creates errors from their message', async () => {
    const { page } = await open(`
      const { contextBridge } = require('electron');
      const state = { list: [1, 2] };
      class Thing { constructor() { this.own = 1; } method() { return 2; } }
      contextBridge.exposeInMainWorld('api', {
        state,
        thing: new Thing(),
        grow: () => { state.list.push(3); return state.list; },
        later: () => Promise.resolve({ when: 'later' }),
        fail: () => { const e = new Error('nope'); e.code = 'X'; throw e; },
        echo: (value) => value,
      });`);
    const api = page.window.api as Record<string, (...args: unknown[]) => unknown> & {
      state: { list: number[] };
      thing: object;
    };
    expect(Object.isFrozen(api) && Object.isFrozen(api.state.list)).toBe(true);
    expect(api.thing).toEqual({ own: 1 });
    expect(api.grow?.()).toEqual([1, 2, 3]);
    expect(api.state.list).toEqual([1, 2]);
    expect(await (api.later?.() as Promise<unknown>)).toEqual({ when: 'later' });
    let thrown: unknown;
    try {
      api.fail?.();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ message: 'nope' });
    expect((thrown as { code?: string }).code).toBeUndefined();
    const arg = { nested: { n: 1 } };
    const back = api.echo?.(arg);
    expect(back).toEqual(arg);
    expect(back).not.toBe(arg);
  });

  it('refuses a key that is already on window, and the bridge itself without context isolation', async () => {
    const twice = await open(
      "const { contextBridge } = require('electron'); contextBridge.exposeInMainWorld('a', 1); contextBridge.exposeInMainWorld('a', 2);",
    );
    expect(twice.page.window.a).toBe(1);
    expect(twice.electron.log.map((entry) => entry.text).join('\n')).toContain(
      'Cannot bind an API on top of an existing property on the window object',
    );
    const unisolated = await open("require('electron').contextBridge.exposeInMainWorld('a', 1);", {
      contextIsolation: false,
    });
    expect(unisolated.electron.log.map((entry) => entry.text).join('\n')).toContain(
      'contextBridge API can only be used when contextIsolation is enabled',
    );
  });

  it('puts Node in the page itself only with nodeIntegration', async () => {
    expect((await open('')).page.evaluate('typeof require')).toBe('undefined');
    expect((await open('', { nodeIntegration: true })).page.evaluate('typeof require')).toBe('function');
  });
});

describe('windows, navigation and the session', () => {
  it('refuses windows and sessions before ready, and a missing page with ERR_FILE_NOT_FOUND', async () => {
    const { electron, modules } = fixture('');
    expect(() => new modules.BrowserWindow({})).toThrow('Cannot create BrowserWindow before app is ready');
    expect(() => modules.session.defaultSession).toThrow('Session can only be received when app is ready');
    electron.app.emitReady();
    await expect(new modules.BrowserWindow({}).loadFile('missing.html')).rejects.toMatchObject({
      code: 'ERR_FILE_NOT_FOUND',
      errno: -6,
    });
  });

  it("emits will-navigate for the page's own navigations, not for loadURL, and honours preventDefault", async () => {
    const { window, dir } = await open('');
    const seen: string[] = [];
    window.webContents.on('will-navigate', (event: { url: string; preventDefault(): void }) => {
      seen.push(event.url);
      if (event.url.includes('blocked')) event.preventDefault();
    });
    fs.writeFileSync(path.join(dir, 'other.html'), '<title>o</title>');
    await window.loadURL(pathToFileURL(path.join(dir, 'other.html')).href);
    expect(seen).toEqual([]);
    expect(await window.webContents.navigateFromPage('blocked.html')).toEqual({ navigated: false });
    expect(await window.webContents.navigateFromPage('index.html')).toEqual({ navigated: true });
    expect(seen.map((url) => path.basename(url))).toEqual(['blocked.html', 'index.html']);
  });

  it('opens windows by default, and treats a malformed window-open answer as a denial', async () => {
    const { electron, window, dir } = await open('');
    const child = window.webContents.openWindowFromPage(pathToFileURL(path.join(dir, 'index.html')).href);
    expect(child).not.toBeNull();
    expect(electron.windows).toHaveLength(2);
    window.webContents.setWindowOpenHandler(() => ({}) as never);
    expect(window.webContents.openWindowFromPage('index.html')).toBeNull();
    expect(electron.log.some((entry) => /window open handler response/.test(entry.text))).toBe(true);
  });

  it('grants permissions and lets requests out when the session has no handlers (Electron defaults)', async () => {
    const { electron, window } = await open('');
    expect(await electron.session.requestPermission(window.webContents, 'media')).toBe(true);
    expect(electron.session.checkPermission(window.webContents, 'notifications')).toBe(true);
    expect(await electron.session.filterRequest(window.webContents, 'https://example.com/', 'xhr')).toEqual({
      cancelled: false,
    });
  });

  it('quits in order (before-quit, windows close, will-quit, quit) and stops where a step is prevented', async () => {
    const { electron, window } = await open('');
    const order: string[] = [];
    let holdOnce = true;
    electron.app.on('before-quit', (event: { preventDefault(): void }) => {
      order.push('before-quit');
      if (holdOnce) {
        holdOnce = false;
        event.preventDefault();
      }
    });
    window.on('close', () => order.push('close'));
    window.on('closed', () => order.push('closed'));
    electron.app.on('window-all-closed', () => order.push('window-all-closed'));
    electron.app.on('will-quit', () => order.push('will-quit'));
    electron.app.on('quit', () => order.push('quit'));
    electron.app.quit();
    expect(electron.app.exited).toBeNull();
    electron.app.quit();
    expect(order).toEqual(['before-quit', 'before-quit', 'close', 'closed', 'will-quit', 'quit']);
    expect(electron.app.exited).toEqual({ code: 0, via: 'quit' });
  });
});
