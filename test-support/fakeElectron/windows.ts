import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type {
  BrowserWindowConstructorOptions,
  HandlerDetails,
  WebPreferences,
  WindowOpenHandlerResponse,
} from 'electron';
import { documentSubresources, FakePage, type EffectiveWebPreferences } from './page';
import type { FakeSession } from './session';
import { cloneForIpc } from './transfer';

/** What a window needs from the rest of the fake Electron. */
export interface WindowWorld {
  isReady(): boolean;
  appPath(): string;
  session: FakeSession;
  windows: FakeBrowserWindow[];
  /** `ipcRenderer.invoke` arriving in the main process from a frame of `contents`. */
  dispatchInvoke(
    contents: FakeWebContents,
    channel: string,
    args: unknown[],
  ): Promise<{ result?: unknown; error?: string }>;
  dispatchMessage(contents: FakeWebContents, channel: string, args: unknown[]): void;
  windowClosed(window: FakeBrowserWindow): void;
  log: { level: string; text: string }[];
}

/** The main process's own handle on the page's frame, as ipc events carry it in `senderFrame`. */
export interface FakeFrame {
  url: string;
  processId: number;
  routingId: number;
  frameTreeNodeId: number;
}

let nextId = 1;

/** Electron 45's effective preferences: isolated and sandboxed unless a window turns that off. */
export function effectivePreferences(prefs: WebPreferences = {}): EffectiveWebPreferences {
  const nodeIntegration = prefs.nodeIntegration === true;
  return {
    preload: prefs.preload ?? null,
    contextIsolation: prefs.contextIsolation !== false,
    sandbox: prefs.sandbox === true || (prefs.sandbox === undefined && !nodeIntegration),
    nodeIntegration,
    nodeIntegrationInWorker: prefs.nodeIntegrationInWorker === true,
    webSecurity: prefs.webSecurity !== false,
    allowRunningInsecureContent: prefs.allowRunningInsecureContent === true,
  };
}

export class FakeWebContents extends EventEmitter {
  readonly id = nextId++;
  /** Every `send` the main process made, after the structured clone the renderer gets. */
  readonly sent: { channel: string; args: unknown[] }[] = [];
  page: FakePage | null = null;
  zoomLevel = 0;
  devToolsOpened = false;
  private windowOpenHandler: ((details: HandlerDetails) => WindowOpenHandlerResponse) | null = null;
  private destroyed = false;
  private readonly pendingLoad: Promise<void>[] = [];

  constructor(
    private readonly world: WindowWorld,
    readonly owner: FakeBrowserWindow,
    readonly prefs: EffectiveWebPreferences,
  ) {
    super();
  }

  get session(): FakeSession {
    return this.world.session;
  }

  get mainFrame(): FakeFrame {
    return { url: this.getURL(), processId: this.id, routingId: 1, frameTreeNodeId: this.id };
  }

  getURL(): string {
    return this.page?.url ?? '';
  }

  getType(): 'window' {
    return 'window';
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  setWindowOpenHandler(handler: (details: HandlerDetails) => WindowOpenHandlerResponse): void {
    this.windowOpenHandler = handler;
  }

  /** Electron serialises the arguments; a value it cannot clone is logged, not thrown, and nothing is sent. */
  send(channel: string, ...args: unknown[]): void {
    if (typeof channel !== 'string') throw new TypeError('Missing required channel argument');
    if (this.destroyed) throw new Error('Object has been destroyed');
    let cloned: unknown[];
    try {
      cloned = cloneForIpc(args);
    } catch (error) {
      this.world.log.push({ level: 'error', text: `Error sending from webFrameMain:  ${String(error)}` });
      return;
    }
    this.sent.push({ channel, args: cloned });
    const page = this.page;
    // The renderer gets it asynchronously, in the order it was sent.
    setImmediate(() => page?.deliver(channel, cloneForIpc(cloned)));
  }

  loadFile(filePath: string, options: { query?: Record<string, string>; hash?: string } = {}): Promise<void> {
    const target = pathToFileURL(path.resolve(this.world.appPath(), filePath));
    for (const [key, value] of Object.entries(options.query ?? {})) target.searchParams.set(key, value);
    if (options.hash) target.hash = options.hash;
    return this.loadURL(target.href);
  }

  /** A programmatic load: no `will-navigate`; the request still goes through the session's filter. */
  loadURL(url: string): Promise<void> {
    const load = this.commitNavigation(url);
    this.pendingLoad.push(load.catch(() => undefined));
    return load;
  }

  reload(): void {
    if (this.page) void this.loadURL(this.page.url);
  }

  /** Waits for every load started so far (for tests that act once the window has its page). */
  async whenLoaded(): Promise<void> {
    await Promise.all(this.pendingLoad);
  }

  toggleDevTools(): void {
    this.devToolsOpened = !this.devToolsOpened;
  }

  // The Edit menu's roles act on the focused page; the fake only has to accept them.
  undo(): void {}
  redo(): void {}
  cut(): void {}
  copy(): void {}
  paste(): void {}
  delete(): void {}
  selectAll(): void {}

  /** The page navigates itself (a link, `location.href = …`): `will-navigate` may cancel it. */
  async navigateFromPage(url: string): Promise<{ navigated: boolean }> {
    const current = this.page ? new URL(this.page.url) : null;
    const next = new URL(url, this.page?.url);
    if (current && next.href.split('#')[0] === current.href.split('#')[0] && next.hash !== current.hash) {
      this.emit('did-navigate-in-page', { preventDefault() {} }, next.href, true);
      return { navigated: true };
    }
    let prevented = false;
    const event = {
      url: next.href,
      isSameDocument: false,
      isMainFrame: true,
      frame: this.mainFrame,
      initiator: this.mainFrame,
      get defaultPrevented() {
        return prevented;
      },
      preventDefault() {
        prevented = true;
      },
    };
    this.emit('will-frame-navigate', event);
    this.emit('will-navigate', event, next.href, false, true, this.id, 1);
    if (prevented) return { navigated: false };
    try {
      await this.commitNavigation(next.href);
      return { navigated: true };
    } catch {
      return { navigated: false };
    }
  }

  /** The page calls `window.open(url)` (or a link with target=_blank). Returns the new window, if any. */
  openWindowFromPage(url: string, frameName = '', features = ''): FakeBrowserWindow | null {
    const details = {
      url: new URL(url, this.page?.url).href,
      frameName,
      features,
      disposition: 'new-window',
      referrer: { url: this.getURL(), policy: 'strict-origin-when-cross-origin' },
      postBody: undefined,
    } as HandlerDetails;
    if (!this.windowOpenHandler) return this.createChild(details, {});
    const response = this.windowOpenHandler(details);
    if (
      typeof response !== 'object' ||
      response === null ||
      (response.action !== 'allow' && response.action !== 'deny')
    ) {
      this.world.log.push({
        level: 'error',
        text: "The window open handler response must be an object with an 'action' property of 'allow' or 'deny'.",
      });
      return null;
    }
    if (response.action === 'deny') return null;
    return this.createChild(details, response.overrideBrowserWindowOptions ?? {});
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.page?.unload();
    this.emit('destroyed');
  }

  private createChild(details: HandlerDetails, overrides: BrowserWindowConstructorOptions): FakeBrowserWindow {
    // A child inherits its opener's web preferences (Electron's makeWebPreferences).
    const child = new FakeBrowserWindow(this.world, {
      ...overrides,
      webPreferences: { ...this.owner.options.webPreferences, ...overrides.webPreferences },
    });
    this.emit('did-create-window', child, details);
    void child.webContents.loadURL(details.url).catch(() => undefined);
    return child;
  }

  private async commitNavigation(url: string): Promise<void> {
    const filtered = await this.world.session.filterRequest(this, url, 'mainFrame');
    if (filtered.cancelled) return this.failLoad(url, -3, 'ERR_ABORTED');
    const parsed = new URL(url);
    if (parsed.protocol !== 'file:') return this.failLoad(url, -106, 'ERR_INTERNET_DISCONNECTED');
    const file = fileURLToPath(parsed);
    if (!fs.existsSync(file) || !fs.statSync(file).isFile()) return this.failLoad(url, -6, 'ERR_FILE_NOT_FOUND');
    const html = fs.readFileSync(file, 'utf8');
    this.page?.unload();
    this.page = new FakePage(url, html, this.prefs, {
      invoke: (channel, args) => this.world.dispatchInvoke(this, channel, args),
      send: (channel, args) => this.world.dispatchMessage(this, channel, args),
      reportPreloadError: (preloadPath, error) =>
        this.emit('preload-error', { preventDefault() {} }, preloadPath, error),
      console: (level, text) => this.world.log.push({ level, text }),
    });
    for (const resource of documentSubresources(html)) {
      const resourceUrl = new URL(resource.url, url).href;
      const result = await this.world.session.filterRequest(this, resourceUrl, resource.resourceType);
      if (result.cancelled)
        this.world.log.push({
          level: 'error',
          text: `Failed to load resource: net::ERR_BLOCKED_BY_CLIENT ${resourceUrl}`,
        });
      else if (resourceUrl.startsWith('file:') && !fs.existsSync(fileURLToPath(resourceUrl)))
        this.world.log.push({
          level: 'error',
          text: `Failed to load resource: net::ERR_FILE_NOT_FOUND ${resourceUrl}`,
        });
    }
    this.emit('did-navigate', { preventDefault() {} }, url, 200, 'OK');
    this.emit('dom-ready', { preventDefault() {} });
    this.emit('did-finish-load', { preventDefault() {} });
    this.owner.pageRendered();
  }

  private failLoad(url: string, errorCode: number, errorDescription: string): Promise<never> {
    this.emit('did-fail-load', { preventDefault() {} }, errorCode, errorDescription, url, true);
    const error = Object.assign(new Error(`${errorDescription} (${errorCode}) loading '${url}'`), {
      errno: errorCode,
      code: errorDescription,
      url,
    });
    return Promise.reject(error);
  }
}

export class FakeBrowserWindow extends EventEmitter {
  readonly id = nextId++;
  readonly webContents: FakeWebContents;
  readonly options: BrowserWindowConstructorOptions;
  private visible: boolean;
  private focused = false;
  private minimized = false;
  private fullScreen = false;
  private destroyed = false;
  private shownOnce = false;
  title: string;

  constructor(
    private readonly world: WindowWorld,
    options: BrowserWindowConstructorOptions = {},
  ) {
    super();
    if (!world.isReady()) throw new Error('Cannot create BrowserWindow before app is ready');
    this.options = options;
    this.title = options.title ?? 'Electron';
    this.visible = options.show !== false;
    this.webContents = new FakeWebContents(world, this, effectivePreferences(options.webPreferences));
    world.windows.push(this);
    if (this.visible) this.focused = true;
  }

  loadFile(filePath: string, options?: { query?: Record<string, string>; hash?: string }): Promise<void> {
    return this.webContents.loadFile(filePath, options);
  }

  loadURL(url: string): Promise<void> {
    return this.webContents.loadURL(url);
  }

  show(): void {
    this.visible = true;
    this.minimized = false;
    this.emit('show');
    this.focus();
  }

  hide(): void {
    this.visible = false;
    this.blur();
    this.emit('hide');
  }

  isVisible(): boolean {
    return this.visible;
  }

  focus(): void {
    for (const other of this.world.windows) if (other !== this) other.blur();
    if (!this.focused) {
      this.focused = true;
      this.emit('focus');
    }
  }

  blur(): void {
    if (this.focused) {
      this.focused = false;
      this.emit('blur');
    }
  }

  isFocused(): boolean {
    return this.focused;
  }

  minimize(): void {
    this.minimized = true;
    this.blur();
    this.emit('minimize');
  }

  restore(): void {
    if (this.minimized) {
      this.minimized = false;
      this.visible = true;
      this.emit('restore');
    }
  }

  isMinimized(): boolean {
    return this.minimized;
  }

  setFullScreen(value: boolean): void {
    this.fullScreen = value;
  }

  isFullScreen(): boolean {
    return this.fullScreen;
  }

  setTitle(title: string): void {
    this.title = title;
  }

  getTitle(): string {
    return this.title;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  /** Like a click on the window's close button: 'close' can be prevented, then the window goes. */
  close(): void {
    if (this.destroyed) return;
    let prevented = false;
    this.emit('close', {
      preventDefault() {
        prevented = true;
      },
    });
    if (!prevented) this.destroy();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.focused = false;
    this.webContents.destroy();
    const index = this.world.windows.indexOf(this);
    if (index >= 0) this.world.windows.splice(index, 1);
    this.emit('closed');
    this.world.windowClosed(this);
  }

  /** First paint of a page: 'ready-to-show' fires once per window. */
  pageRendered(): void {
    if (this.shownOnce) return;
    this.shownOnce = true;
    this.emit('ready-to-show');
  }
}
