import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface AppOptions {
  appPath: string;
  userData: string;
  platform: NodeJS.Platform;
  /** Another instance already holds the single-instance lock. */
  otherInstanceRunning: boolean;
}

/** How the process ended: what a test may inspect after the fake app has "exited". */
export interface ExitRecord {
  code: number;
  via: 'quit' | 'exit';
}

export interface AppWorld {
  /** Tries to close every window; false when one refused (its 'close' was prevented). */
  closeAllWindows(): boolean;
  windowCount(): number;
}

/**
 * Electron's `app`: lifecycle events in Electron's order (ready after the main script's first tick;
 * quit = before-quit → windows close → will-quit → quit, each step cancellable), paths, the
 * single-instance lock. Exiting does not end the test process; it is recorded, and the app is inert.
 */
export class FakeApp extends EventEmitter {
  readonly name = 'Lathe';
  readonly isPackaged = false;
  exited: ExitRecord | null = null;
  aboutPanelShown = 0;
  private ready = false;
  private quitting = false;
  private readonly readyPromise: Promise<void>;
  private markReady: () => void = () => {};

  constructor(
    private readonly options: AppOptions,
    private readonly world: AppWorld,
  ) {
    super();
    this.readyPromise = new Promise((resolve) => (this.markReady = resolve));
  }

  isReady(): boolean {
    return this.ready;
  }

  whenReady(): Promise<void> {
    return this.readyPromise;
  }

  /** Electron is done initialising: 'will-finish-launching', then 'ready'. */
  emitReady(): void {
    if (this.ready) return;
    this.emit('will-finish-launching');
    this.ready = true;
    this.emit('ready', { preventDefault() {} }, {});
    this.markReady();
  }

  getAppPath(): string {
    return this.options.appPath;
  }

  getPath(name: string): string {
    const paths: Record<string, string> = {
      userData: this.options.userData,
      appData: path.dirname(this.options.userData),
      sessionData: this.options.userData,
      home: os.homedir(),
      temp: os.tmpdir(),
      logs: path.join(this.options.userData, 'logs'),
    };
    const found = paths[name];
    if (!found) throw new Error(`Failed to get '${name}' path`);
    return found;
  }

  getVersion(): string {
    const manifest = JSON.parse(fs.readFileSync(path.join(this.options.appPath, 'package.json'), 'utf8')) as {
      version: string;
    };
    return manifest.version;
  }

  getName(): string {
    return this.name;
  }

  requestSingleInstanceLock(): boolean {
    return !this.options.otherInstanceRunning;
  }

  showAboutPanel(): void {
    this.aboutPanelShown++;
  }

  setAboutPanelOptions(): void {}

  /** `app.quit()`: cancellable at before-quit, at each window's 'close', and at will-quit. */
  quit(): void {
    if (this.exited || this.quitting) return;
    this.quitting = true;
    try {
      if (!this.cancellable('before-quit')) return;
      if (!this.world.closeAllWindows()) return;
      if (!this.cancellable('will-quit')) return;
      this.emit('quit', { preventDefault() {} }, 0);
      this.exited = { code: 0, via: 'quit' };
    } finally {
      this.quitting = false;
    }
  }

  /** `app.exit(code)`: no before-quit or will-quit; windows close without being asked. */
  exit(code = 0): void {
    if (this.exited) return;
    this.exited = { code, via: 'exit' };
  }

  /** All windows are gone (the user closed the last one): 'window-all-closed', or quit if nobody listens. */
  allWindowsClosed(): void {
    if (this.quitting || this.exited) return;
    if (this.listenerCount('window-all-closed') > 0) this.emit('window-all-closed');
    else this.quit();
  }

  get platform(): NodeJS.Platform {
    return this.options.platform;
  }

  private cancellable(name: string): boolean {
    let prevented = false;
    this.emit(name, {
      preventDefault() {
        prevented = true;
      },
      get defaultPrevented() {
        return prevented;
      },
    });
    return !prevented;
  }
}
