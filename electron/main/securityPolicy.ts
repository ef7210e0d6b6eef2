import path from 'node:path';
import { pathToFileURL } from 'node:url';

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

/**
 * True for the app's own page, whatever its query and fragment (the window keeps its place — repo,
 * run, tab — in the query, so a reload or deep link lands on the same view); false for any other file.
 */
export function isAppDocument(url: string | undefined, rendererIndex: string): boolean {
  if (!url) return false;
  try {
    const candidate = new URL(url);
    const app = pathToFileURL(path.resolve(rendererIndex));
    return candidate.protocol === 'file:' && candidate.host === app.host && candidate.pathname === app.pathname;
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return false;
  }
}
