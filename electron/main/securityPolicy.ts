/**
 * The Electron window's security settings, kept free of the `electron` import so tests can assert
 * them without the Electron binary.
 */

export interface SecureWebPreferences {
  preload: string;
  contextIsolation: true;
  sandbox: true;
  nodeIntegration: false;
  nodeIntegrationInWorker: false;
  webSecurity: true;
  allowRunningInsecureContent: false;
  spellcheck: false;
}

export function secureWebPreferences(preloadPath: string): SecureWebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    spellcheck: false,
  };
}

/** Nothing leaves the machine: the app's own files, devtools and in-memory URLs only. */
export function isAllowedRequest(url: string): boolean {
  return /^(file|devtools|data|blob|chrome-extension):/i.test(url);
}

/** Only notifications (pending gates) are granted; every other permission prompt is refused. */
export function isAllowedPermission(permission: string): boolean {
  return permission === 'notifications';
}

/** Only the app's own page may call the core. */
export function isAppUrl(url: string | undefined, appUrl: string): boolean {
  return url === appUrl;
}
