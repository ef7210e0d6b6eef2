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
  const isAppPage = sameDocument(paths.rendererIndex);

  window.webContents.on('will-navigate', (event, url) => {
    if (!isAppPage(url)) event.preventDefault();
  });
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.once('ready-to-show', () => window.show());
  void window.loadFile(paths.rendererIndex);
  return window;
}

/**
 * True for the app's own page, whatever its query and fragment: the window keeps its place (repo, run,
 * tab) in the query so a reload or deep link lands on the same view.
 */
export function sameDocument(rendererIndex: string) {
  const appUrl = new URL(`file://${path.resolve(rendererIndex)}`);
  return (url: string | undefined): boolean => {
    if (!url) return false;
    try {
      const candidate = new URL(url);
      return candidate.protocol === 'file:' && candidate.host === appUrl.host && candidate.pathname === appUrl.pathname;
    } catch {
      return false;
    }
  };
}

/** Only pages loaded from the app's own files may call the core. */
export function isTrustedSender(rendererIndex: string) {
  const isAppPage = sameDocument(rendererIndex);
  return (event: IpcMainInvokeEvent): boolean => isAppPage(event.senderFrame?.url);
}

/** The one permission the window may use: OS notifications when a gate waits for the user. */
export const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['notifications']);

/** No other permission, and no request leaves the machine: only the app's files and devtools load. */
export function lockDownSession(): void {
  const appSession = session.defaultSession;
  appSession.setPermissionRequestHandler((_contents, permission, callback) => callback(ALLOWED_PERMISSIONS.has(permission)));
  appSession.setPermissionCheckHandler((_contents, permission) => ALLOWED_PERMISSIONS.has(permission));
  appSession.webRequest.onBeforeRequest((details, callback) => {
    const allowed = /^(file|devtools|data|blob|chrome-extension):/.test(details.url);
    callback({ cancel: !allowed });
  });
}
