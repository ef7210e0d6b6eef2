import { EventEmitter } from 'node:events';
import type {
  BrowserWindowConstructorOptions,
  MenuItemConstructorOptions,
  NotificationConstructorOptions,
  OpenDialogOptions,
  OpenDialogReturnValue,
} from 'electron';
import { FakeApp, type AppOptions } from './app';
import { FakeMenu, FakeMenuItem, normaliseAccelerator, type RoleTarget } from './menu';
import { FakeSession } from './session';
import { cloneForIpc } from './transfer';
import { FakeBrowserWindow, type FakeWebContents, type WindowWorld } from './windows';

type InvokeHandler = (event: unknown, ...args: unknown[]) => unknown;

/** `ipcMain` (and `webContents.ipc`): one invoke handler per channel, as Electron's IpcMainImpl. */
export class FakeIpcMain extends EventEmitter {
  readonly invokeHandlers = new Map<string, InvokeHandler>();

  constructor() {
    super();
    this.on('error', () => {});
  }

  handle(channel: string, handler: InvokeHandler): void {
    if (this.invokeHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    if (typeof handler !== 'function')
      throw new TypeError(`Expected handler to be a function, but found type '${typeof handler}'`);
    this.invokeHandlers.set(channel, handler);
  }

  handleOnce(channel: string, handler: InvokeHandler): void {
    this.handle(channel, (event, ...args) => {
      this.removeHandler(channel);
      return handler(event, ...args);
    });
  }

  removeHandler(channel: string): void {
    this.invokeHandlers.delete(channel);
  }
}

export interface ShownDialog {
  window: FakeBrowserWindow | null;
  options: OpenDialogOptions;
}

export interface ShownNotification {
  options: NotificationConstructorOptions;
  notification: EventEmitter;
}

export type FakeElectronOptions = Partial<AppOptions> & Pick<AppOptions, 'appPath' | 'userData'>;

let nextWorldId = 1;

/**
 * One Electron main process as the shell sees it: the modules `import … from 'electron'` gives the
 * main bundle, and the records and user actions a test drives it with.
 */
export class FakeElectron implements WindowWorld {
  readonly id = nextWorldId++;
  readonly windows: FakeBrowserWindow[] = [];
  readonly session = new FakeSession();
  readonly ipcMain = new FakeIpcMain();
  readonly log: { level: string; text: string }[] = [];
  readonly dialogs: ShownDialog[] = [];
  /** Error boxes shown (dialog.showErrorBox), title and text. */
  readonly errorBoxes: { title: string; content: string }[] = [];
  readonly notifications: ShownNotification[] = [];
  readonly openedExternally: string[] = [];
  readonly app: FakeApp;
  applicationMenu: FakeMenu | null = null;
  /** What the user picks in the next open dialogs (first in, first out); an empty queue cancels. */
  readonly dialogAnswers: OpenDialogReturnValue[] = [];
  notificationsSupported = true;
  private readonly platform: NodeJS.Platform;

  constructor(options: FakeElectronOptions) {
    this.platform = options.platform ?? process.platform;
    this.app = new FakeApp(
      { platform: this.platform, otherInstanceRunning: false, ...options },
      {
        closeAllWindows: () => {
          for (const window of [...this.windows]) window.close();
          return this.windows.length === 0;
        },
        windowCount: () => this.windows.length,
      },
    );
  }

  isReady(): boolean {
    return this.app.isReady();
  }

  appPath(): string {
    return this.app.getAppPath();
  }

  windowClosed(): void {
    if (this.windows.length === 0) this.app.allWindowsClosed();
  }

  /** The renderer's `ipcRenderer.invoke`, delivered the way lib/browser/ipc-dispatch.ts does. */
  async dispatchInvoke(
    contents: FakeWebContents,
    channel: string,
    args: unknown[],
  ): Promise<{ result?: unknown; error?: string }> {
    await new Promise((resolve) => setImmediate(resolve));
    const frame = contents.mainFrame;
    const event = {
      type: 'frame',
      sender: contents,
      senderFrame: frame,
      processId: frame.processId,
      frameId: frame.routingId,
      frameTreeNodeId: frame.frameTreeNodeId,
      preventDefault() {},
    };
    const handler = this.ipcMain.invokeHandlers.get(channel);
    if (!handler) return { error: String(new Error(`No handler registered for '${channel}'`)) };
    try {
      const result = await handler(event, ...cloneForIpc(args));
      return { result: cloneForIpc(result) };
    } catch (error) {
      this.log.push({ level: 'error', text: `Error occurred in handler for '${channel}': ${String(error)}` });
      return { error: String(error) };
    }
  }

  dispatchMessage(contents: FakeWebContents, channel: string, args: unknown[]): void {
    setImmediate(() =>
      this.ipcMain.emit(
        channel,
        { type: 'frame', sender: contents, senderFrame: contents.mainFrame },
        ...cloneForIpc(args),
      ),
    );
  }

  /** The modules of `import { … } from 'electron'` in the main process. */
  mainModules(): Record<string, unknown> {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the classes below close over this world
    const world = this;
    class BrowserWindow extends FakeBrowserWindow {
      constructor(options: BrowserWindowConstructorOptions = {}) {
        super(world, options);
      }
      static getAllWindows(): FakeBrowserWindow[] {
        return [...world.windows];
      }
      static getFocusedWindow(): FakeBrowserWindow | null {
        return world.windows.find((window) => window.isFocused()) ?? null;
      }
      static fromWebContents(contents: FakeWebContents): FakeBrowserWindow | null {
        return world.windows.find((window) => window.webContents === contents) ?? null;
      }
    }
    class Notification extends EventEmitter {
      static isSupported(): boolean {
        return world.notificationsSupported;
      }
      constructor(private readonly options: NotificationConstructorOptions = {}) {
        super();
      }
      show(): void {
        world.notifications.push({ options: this.options, notification: this });
        this.emit('show', { preventDefault() {} });
      }
      close(): void {
        this.emit('close', { preventDefault() {} });
      }
    }
    const platform = this.platform;
    const Menu = {
      buildFromTemplate: (template: MenuItemConstructorOptions[]) => FakeMenu.build(template, platform),
      setApplicationMenu: (menu: FakeMenu | null) => {
        world.applicationMenu = menu;
      },
      getApplicationMenu: () => world.applicationMenu,
    };
    const session = {
      get defaultSession() {
        if (!world.app.isReady()) throw new Error('Session can only be received when app is ready');
        return world.session;
      },
      fromPartition: () => world.session,
    };
    const dialog = {
      showOpenDialog: (
        windowOrOptions: FakeBrowserWindow | OpenDialogOptions,
        maybeOptions?: OpenDialogOptions,
      ): Promise<OpenDialogReturnValue> => {
        const window = windowOrOptions instanceof FakeBrowserWindow ? windowOrOptions : null;
        const options = (window ? maybeOptions : windowOrOptions) as OpenDialogOptions;
        world.dialogs.push({ window, options });
        return Promise.resolve(world.dialogAnswers.shift() ?? { canceled: true, filePaths: [] });
      },
      showErrorBox: (title: string, content: string) => {
        world.errorBoxes.push({ title, content });
      },
    };
    const shell = {
      openExternal: (url: string) => {
        world.openedExternally.push(url);
        return Promise.resolve();
      },
    };
    const webContents = { getAllWebContents: () => world.windows.map((window) => window.webContents) };
    return {
      app: this.app,
      BrowserWindow,
      ipcMain: this.ipcMain,
      Menu,
      MenuItem: FakeMenuItem,
      Notification,
      session,
      dialog,
      shell,
      webContents,
    };
  }

  /** The user presses a key combination with a window focused: the application menu's accelerator fires. */
  pressAccelerator(keys: string): boolean {
    const wanted = normaliseAccelerator(keys, this.platform);
    const entry = this.applicationMenu
      ?.flatten()
      .find(
        ({ item }) =>
          item.accelerator !== undefined && normaliseAccelerator(item.accelerator, this.platform) === wanted,
      );
    if (!entry) return false;
    entry.item.activate(this.roleTarget());
    return true;
  }

  /** The user picks a menu item by its labels, e.g. ['File', 'Open Folder…']. */
  clickMenu(...labels: string[]): void {
    const entry = this.applicationMenu?.flatten().find(({ path }) => path.join('\u0000') === labels.join('\u0000'));
    if (!entry) throw new Error(`no menu item ${labels.join(' > ')}`);
    entry.item.activate(this.roleTarget());
  }

  /** Someone starts the app again while this instance runs. */
  secondInstance(argv: string[] = [], workingDirectory = process.cwd()): void {
    this.app.emit('second-instance', { preventDefault() {} }, argv, workingDirectory, {});
  }

  /** macOS: the dock icon is clicked. */
  activate(hasVisibleWindows = this.windows.length > 0): void {
    this.app.emit('activate', { preventDefault() {} }, hasVisibleWindows);
  }

  private roleTarget(): RoleTarget {
    return {
      window: this.windows.find((window) => window.isFocused()) ?? null,
      quit: () => this.app.quit(),
      showAboutPanel: () => this.app.showAboutPanel(),
    };
  }
}
