import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog } from 'electron';
import type { Handlers } from '../../shared/contract/api';
import { EventBus } from '../core/runs/eventBus';
import { createCore } from '../core/api/coreHandlers';
import { notifyGates } from './gateNotifier';
import { forwardEvents, registerIpc } from './ipc';
import { installAppMenu } from './menu';
import { stopRunsBeforeQuit } from './quit';
import { createShellHandlers } from './shellHandlers';
import { createMainWindow, isTrustedSender, lockDownSession } from './window';

const paths = {
  preload: fileURLToPath(new URL('../preload/index.cjs', import.meta.url)),
  rendererIndex: fileURLToPath(new URL('../renderer/index.html', import.meta.url)),
};

let mainWindow: BrowserWindow | null = null;
let openWindow: () => void = () => {};

/** The window to the front: restored, shown and focused, or a new one (macOS keeps running without). */
function bringToFront(): void {
  if (!mainWindow) {
    if (app.isReady()) openWindow();
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

async function start(): Promise<void> {
  lockDownSession();
  const events = new EventBus();
  const core = createCore({
    mode: 'electron',
    dataDir: app.getPath('userData'),
    appRoot: app.getAppPath(),
    events,
    electronVersion: process.versions.electron ?? null,
  });
  stopRunsBeforeQuit(core.runs);
  const handlers: Handlers = { ...core.handlers, ...createShellHandlers(() => mainWindow) };
  registerIpc(handlers, events, isTrustedSender(paths.rendererIndex));
  notifyGates(events, () => mainWindow, bringToFront);

  const openFolder = async () => {
    const picked = await handlers['dialog/openFolder']({});
    // repo/open emits repo/changed, which the window's repo store follows.
    // The menu has no page to answer, so a folder it cannot open (not a repository, unreadable) is said in a box.
    if (picked.path) {
      await handlers['repo/open']({ path: picked.path }).catch((error: unknown) =>
        dialog.showErrorBox('Lathe cannot open this folder', error instanceof Error ? error.message : String(error)),
      );
    }
  };
  installAppMenu(() => void openFolder());

  openWindow = () => {
    const window = createMainWindow(paths);
    const stopForwarding = forwardEvents(events, window);
    window.on('closed', () => {
      stopForwarding();
      if (mainWindow === window) mainWindow = null;
    });
    mainWindow = window;
  };
  openWindow();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => bringToFront());
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0 && app.isReady()) openWindow();
  });
  void app.whenReady().then(start);
}
