import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAllowedPermission, isAllowedRequest, isAppDocument, secureWebPreferences } from './securityPolicy';

const windowSource = fs.readFileSync(path.join(import.meta.dirname, 'window.ts'), 'utf8');

function cspOf(html: string): Record<string, string> {
  const content = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? '';
  return Object.fromEntries(content.split(';').map((part) => part.trim()).filter(Boolean).map((part) => [part.split(/\s+/)[0] ?? '', part]));
}

describe('Electron window security', () => {
  it('isolates the page: context isolation, sandbox, no Node integration, web security on', () => {
    expect(secureWebPreferences('/app/preload.cjs')).toEqual({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    });
    expect(windowSource).toContain('webPreferences: secureWebPreferences(paths.preload)');
  });

  it('denies navigation away and every new window', () => {
    expect(windowSource).toMatch(/will-navigate[\s\S]*preventDefault/);
    expect(windowSource).toMatch(/setWindowOpenHandler[\s\S]*action: 'deny'/);
  });

  it('blocks every request that is not local, and every permission but notifications', () => {
    for (const url of ['file:///app/index.html', 'devtools://devtools/x', 'data:text/plain,x', 'blob:file:///1']) expect(isAllowedRequest(url)).toBe(true);
    for (const url of ['https://example.com/', 'http://127.0.0.1:8080/', 'ws://localhost/', 'ftp://x/', 'HTTPS://update.electronjs.org']) expect(isAllowedRequest(url)).toBe(false);
    expect(windowSource).toMatch(/onBeforeRequest[\s\S]*isAllowedRequest/);
    expect(isAllowedPermission('notifications')).toBe(true);
    for (const permission of ['media', 'geolocation', 'clipboard-read', 'openExternal', 'fullscreen']) expect(isAllowedPermission(permission)).toBe(false);
  });

  it('answers IPC and allows navigation only for the app page itself (any query)', () => {
    const index = '/app/out/renderer/index.html';
    expect(isAppDocument('file:///app/out/renderer/index.html', index)).toBe(true);
    expect(isAppDocument('file:///app/out/renderer/index.html?repo=%2Fr&run=20260101T000000Z#x', index)).toBe(true);
    expect(isAppDocument('file:///tmp/evil.html', index)).toBe(false);
    expect(isAppDocument('file:///app/out/renderer/index.html/../../evil.html', index)).toBe(false);
    expect(isAppDocument('https://evil.example/app/out/renderer/index.html', index)).toBe(false);
    expect(isAppDocument(undefined, index)).toBe(false);
    expect(isAppDocument('not a url', index)).toBe(false);
  });

  it('ships a strict CSP in the page: own scripts only, no eval, no plugins, no foreign connections', () => {
    const csp = cspOf(fs.readFileSync(path.resolve('renderer', 'index.html'), 'utf8'));
    expect(csp['default-src']).toBe("default-src 'self'");
    expect(csp['script-src']).toBe("script-src 'self'");
    expect(csp['object-src']).toBe("object-src 'none'");
    expect(csp['connect-src']).toBe("connect-src 'self'");
    expect(Object.values(csp).join(' ')).not.toMatch(/unsafe-eval|https?:|\*/);
  });
});
