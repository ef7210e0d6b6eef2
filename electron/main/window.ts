import { BrowserWindow, session, shell, type IpcMainInvokeEvent, type WebPreferences } from 'electron';
import { isAllowedRequest, isAppDocument, secureWebPreferences } from './securityPolicy';

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
    webPreferences: secureWebPreferences(paths.preload) satisfies WebPreferences,
  });

  window.webContents.on('will-navigate', (event, url) => {
    if (!isAppDocument(url, paths.rendererIndex)) event.preventDefault();
  });
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.once('ready-to-show', () => window.show());
  void window.loadFile(paths.rendererIndex);
  return window;
}

/** Only the app's own page (with any query: it keeps the view there) may call the core. */
export function isTrustedSender(rendererIndex: string) {
  return (event: IpcMainInvokeEvent): boolean => isAppDocument(event.senderFrame?.url, rendererIndex);
}

/**
 * No permission at all (gate notifications come from the main process, gateNotifier.ts), and no
 * request leaves the machine (securityPolicy.ts). Electron grants every permission a session has no
 * handler for.
 */
export function lockDownSession(): void {
  const appSession = session.defaultSession;
  appSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  appSession.setPermissionCheckHandler(() => false);
  appSession.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !isAllowedRequest(details.url) }));
}
