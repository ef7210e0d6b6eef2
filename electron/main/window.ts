import path from 'node:path';
import { BrowserWindow, session, shell, type IpcMainInvokeEvent, type WebPreferences } from 'electron';
import { isAllowedPermission, isAllowedRequest, isAppUrl, secureWebPreferences } from './securityPolicy';


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
  return (event: IpcMainInvokeEvent): boolean => isAppUrl(event.senderFrame?.url, appUrl);
}

/** No permission prompts but notifications, and no request leaves the machine (securityPolicy.ts). */
export function lockDownSession(): void {
  const appSession = session.defaultSession;
  appSession.setPermissionRequestHandler((_contents, permission, callback) => callback(isAllowedPermission(permission)));
  appSession.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !isAllowedRequest(details.url) }));
}
