import path from 'node:path';
import { BrowserWindow, session, shell, type IpcMainInvokeEvent, type WebPreferences } from 'electron';

/** The security settings every Lathe window uses; asserted by tests. */
export const secureWebPreferences = (preloadPath: string): WebPreferences => ({
  preload: preloadPath,
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  spellcheck: false,
});

export interface WindowPaths {
  preload: string;
  rendererIndex: string;
}

export function createMainWindow(paths: WindowPaths): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 860,
    minWidth: 900,
    minHeight: 600,
    title: 'Lathe',
    show: false,
    webPreferences: secureWebPreferences(paths.preload),
  });
  const appUrl = new URL(`file://${path.resolve(paths.rendererIndex)}`).href;

  window.webContents.on('will-navigate', (event, url) => {
    if (url !== appUrl) event.preventDefault();
  });
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.once('ready-to-show', () => window.show());
  void window.loadFile(paths.rendererIndex);
  return window;
}

/** Only pages loaded from the app's own files may call the core. */
export function isTrustedSender(rendererIndex: string) {
  const appUrl = new URL(`file://${path.resolve(rendererIndex)}`).href;
  return (event: IpcMainInvokeEvent): boolean => event.senderFrame?.url === appUrl;
}

/** No permission prompts, and no request leaves the machine: only the app's files and devtools load. */
export function lockDownSession(): void {
  const appSession = session.defaultSession;
  appSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  appSession.webRequest.onBeforeRequest((details, callback) => {
    const allowed = /^(file|devtools|data|blob|chrome-extension):/.test(details.url);
    callback({ cancel: !allowed });
  });
}
