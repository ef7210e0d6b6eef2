import type { FakeWebContents } from './windows';

type PermissionRequestHandler = (
  webContents: FakeWebContents,
  permission: string,
  callback: (granted: boolean) => void,
  details: Record<string, unknown>,
) => void;
type PermissionCheckHandler = (
  webContents: FakeWebContents | null,
  permission: string,
  requestingOrigin: string,
  details: Record<string, unknown>,
) => boolean;
type BeforeRequestListener = (
  details: Record<string, unknown>,
  callback: (response: { cancel?: boolean; redirectURL?: string }) => void,
) => void;

let nextRequestId = 1;

/**
 * `session.defaultSession` as far as the shell uses it. Electron's defaults are what a session does
 * with no handler set: every permission request and check is granted (except the deprecated sync
 * clipboard read), and every request goes out.
 */
export class FakeSession {
  private requestHandler: PermissionRequestHandler | null = null;
  private checkHandler: PermissionCheckHandler | null = null;
  private beforeRequest: { filter: { urls: string[] } | null; listener: BeforeRequestListener } | null = null;

  readonly webRequest = {
    // Only the last listener counts; null removes it (Electron's webRequest semantics).
    onBeforeRequest: (
      filterOrListener: { urls: string[] } | BeforeRequestListener | null,
      maybeListener?: BeforeRequestListener | null,
    ) => {
      const listener =
        typeof filterOrListener === 'function' || filterOrListener === null
          ? filterOrListener
          : (maybeListener ?? null);
      const filter = typeof filterOrListener === 'object' && filterOrListener !== null ? filterOrListener : null;
      this.beforeRequest = listener ? { filter, listener } : null;
    },
  };

  setPermissionRequestHandler(handler: PermissionRequestHandler | null): void {
    this.requestHandler = handler;
  }

  setPermissionCheckHandler(handler: PermissionCheckHandler | null): void {
    this.checkHandler = handler;
  }

  /** A page asks for a permission (e.g. `Notification.requestPermission()`, `getUserMedia`). */
  requestPermission(
    contents: FakeWebContents,
    permission: string,
    details: Record<string, unknown> = {},
  ): Promise<boolean> {
    const handler = this.requestHandler;
    if (!handler) return Promise.resolve(true);
    return new Promise((resolve) =>
      handler(contents, permission, (granted) => resolve(granted === true), {
        requestingUrl: contents.getURL(),
        isMainFrame: true,
        ...details,
      }),
    );
  }

  /** A page checks a permission (e.g. `Notification.permission`); notification checks carry no webContents. */
  checkPermission(contents: FakeWebContents, permission: string): boolean {
    if (!this.checkHandler) return permission !== 'deprecated-sync-clipboard-read';
    const origin = originOf(contents.getURL());
    return (
      this.checkHandler(permission === 'notifications' ? null : contents, permission, origin, {
        requestingUrl: contents.getURL(),
        isMainFrame: true,
      }) === true
    );
  }

  /** Runs a request through `webRequest.onBeforeRequest`; resolves with whether it was cancelled. */
  filterRequest(
    contents: FakeWebContents | null,
    url: string,
    resourceType: string,
  ): Promise<{ cancelled: boolean; redirectURL?: string }> {
    const entry = this.beforeRequest;
    if (!entry || (entry.filter && !entry.filter.urls.some((pattern) => matchesUrlPattern(pattern, url))))
      return Promise.resolve({ cancelled: false });
    const details = {
      id: nextRequestId++,
      url,
      method: 'GET',
      resourceType,
      referrer: '',
      timestamp: Date.now(),
      webContentsId: contents?.id,
      webContents: contents ?? undefined,
      uploadData: [],
    };
    return new Promise((resolve) =>
      entry.listener(details, (response) =>
        resolve({
          cancelled: response?.cancel === true,
          ...(response?.redirectURL ? { redirectURL: response.redirectURL } : {}),
        }),
      ),
    );
  }
}

function originOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'file:' ? 'file:///' : parsed.origin;
  } catch {
    return '';
  }
}

/** Chromium URL patterns as webRequest filters take them: `<all_urls>` or `scheme://host/path` with `*`. */
function matchesUrlPattern(pattern: string, url: string): boolean {
  if (pattern === '<all_urls>') return true;
  const expression = new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return expression.test(url);
}
