import type { MenuItemConstructorOptions } from 'electron';
import type { FakeBrowserWindow } from './windows';

/** What a role does and its default accelerator (Electron 45's lib/browser/api/menu-item-roles.ts, for the roles the fake knows). */
interface RoleSpec {
  label: string;
  accelerator?: (platform: NodeJS.Platform) => string | undefined;
  run?: (target: RoleTarget) => void;
  submenu?: (platform: NodeJS.Platform) => MenuItemConstructorOptions[];
}

export interface RoleTarget {
  window: FakeBrowserWindow | null;
  quit(): void;
  showAboutPanel(): void;
}

const mac = (platform: NodeJS.Platform) => platform === 'darwin';
const onContents =
  (method: 'undo' | 'redo' | 'cut' | 'copy' | 'paste' | 'delete' | 'selectAll' | 'reload' | 'toggleDevTools') =>
  (target: RoleTarget) =>
    target.window?.webContents[method]();

const ROLES: Record<string, RoleSpec> = {
  about: { label: 'About', run: (target) => target.showAboutPanel() },
  quit: {
    label: 'Quit',
    accelerator: (platform) => (platform === 'win32' ? undefined : 'CommandOrControl+Q'),
    run: (target) => target.quit(),
  },
  close: { label: 'Close Window', accelerator: () => 'CommandOrControl+W', run: (target) => target.window?.close() },
  minimize: { label: 'Minimize', accelerator: () => 'CommandOrControl+M', run: (target) => target.window?.minimize() },
  zoom: { label: 'Zoom' },
  front: { label: 'Bring All to Front' },
  undo: { label: 'Undo', accelerator: () => 'CommandOrControl+Z', run: onContents('undo') },
  redo: {
    label: 'Redo',
    accelerator: (platform) => (platform === 'win32' ? 'Control+Y' : 'Shift+CommandOrControl+Z'),
    run: onContents('redo'),
  },
  cut: { label: 'Cut', accelerator: () => 'CommandOrControl+X', run: onContents('cut') },
  copy: { label: 'Copy', accelerator: () => 'CommandOrControl+C', run: onContents('copy') },
  paste: { label: 'Paste', accelerator: () => 'CommandOrControl+V', run: onContents('paste') },
  pasteandmatchstyle: {
    label: 'Paste and Match Style',
    accelerator: (platform) => (mac(platform) ? 'Cmd+Option+Shift+V' : 'Shift+CommandOrControl+V'),
  },
  delete: { label: 'Delete', run: onContents('delete') },
  selectall: { label: 'Select All', accelerator: () => 'CommandOrControl+A', run: onContents('selectAll') },
  reload: { label: 'Reload', accelerator: () => 'CmdOrCtrl+R', run: onContents('reload') },
  forcereload: { label: 'Force Reload', accelerator: () => 'Shift+CmdOrCtrl+R', run: onContents('reload') },
  toggledevtools: {
    label: 'Toggle Developer Tools',
    accelerator: (platform) => (mac(platform) ? 'Alt+Command+I' : 'Ctrl+Shift+I'),
    run: onContents('toggleDevTools'),
  },
  resetzoom: {
    label: 'Actual Size',
    accelerator: () => 'CommandOrControl+0',
    run: (target) => target.window && (target.window.webContents.zoomLevel = 0),
  },
  zoomin: {
    label: 'Zoom In',
    accelerator: () => 'CommandOrControl+Plus',
    run: (target) => target.window && (target.window.webContents.zoomLevel += 0.5),
  },
  zoomout: {
    label: 'Zoom Out',
    accelerator: () => 'CommandOrControl+-',
    run: (target) => target.window && (target.window.webContents.zoomLevel -= 0.5),
  },
  togglefullscreen: {
    label: 'Toggle Full Screen',
    accelerator: (platform) => (mac(platform) ? 'Control+Command+F' : 'F11'),
    run: (target) => target.window?.setFullScreen(!target.window.isFullScreen()),
  },
  hide: { label: 'Hide', accelerator: () => 'Command+H' },
  hideothers: { label: 'Hide Others', accelerator: () => 'Command+Alt+H' },
  unhide: { label: 'Show All' },
  services: { label: 'Services' },
  appmenu: {
    label: 'Electron',
    submenu: () => [
      { role: 'about' },
      { type: 'separator' },
      { role: 'services' },
      { type: 'separator' },
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      { type: 'separator' },
      { role: 'quit' },
    ],
  },
  filemenu: { label: 'File', submenu: (platform) => [mac(platform) ? { role: 'close' } : { role: 'quit' }] },
  editmenu: {
    label: 'Edit',
    submenu: (platform) => [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(mac(platform)
        ? ([{ role: 'pasteAndMatchStyle' }, { role: 'delete' }, { role: 'selectAll' }] as MenuItemConstructorOptions[])
        : ([{ role: 'delete' }, { type: 'separator' }, { role: 'selectAll' }] as MenuItemConstructorOptions[])),
    ],
  },
  viewmenu: {
    label: 'View',
    submenu: () => [
      { role: 'reload' },
      { role: 'forceReload' },
      { role: 'toggleDevTools' },
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  },
  windowmenu: {
    label: 'Window',
    submenu: (platform) => [
      { role: 'minimize' },
      { role: 'zoom' },
      ...(mac(platform)
        ? ([{ type: 'separator' }, { role: 'front' }] as MenuItemConstructorOptions[])
        : ([{ role: 'close' }] as MenuItemConstructorOptions[])),
    ],
  },
  help: { label: 'Help' },
};

export class FakeMenuItem {
  readonly label: string;
  readonly role: string | undefined;
  readonly type: string;
  readonly accelerator: string | undefined;
  readonly submenu: FakeMenu | undefined;
  private readonly clickHandler: MenuItemConstructorOptions['click'];

  constructor(options: MenuItemConstructorOptions, platform: NodeJS.Platform) {
    if (!options.label && !options.role && !options.type)
      throw new Error('Invalid template for MenuItem: must have at least one of label, role or type');
    const role = options.role?.toLowerCase();
    if (role !== undefined && !Object.hasOwn(ROLES, role))
      throw new Error(`fake electron: role '${options.role}' is not modelled`);
    const spec = role ? ROLES[role] : undefined;
    this.role = options.role;
    this.type = options.type ?? (options.submenu || spec?.submenu ? 'submenu' : 'normal');
    this.label = options.label ?? spec?.label ?? '';
    this.accelerator = options.accelerator ?? spec?.accelerator?.(platform);
    const submenu = options.submenu ?? spec?.submenu?.(platform);
    this.submenu =
      submenu === undefined
        ? undefined
        : Array.isArray(submenu)
          ? FakeMenu.build(submenu, platform)
          : (submenu as unknown as FakeMenu);
    this.clickHandler = options.click;
  }

  /** What a click (or the accelerator) does: the item's own click, else its role's action. */
  activate(target: RoleTarget): void {
    if (this.clickHandler) {
      this.clickHandler(
        this as never,
        (target.window ?? undefined) as never,
        { triggeredByAccelerator: true } as never,
      );
      return;
    }
    const role = this.role?.toLowerCase();
    if (role) ROLES[role]?.run?.(target);
  }
}

export class FakeMenu {
  readonly items: FakeMenuItem[] = [];

  static build(template: MenuItemConstructorOptions[], platform: NodeJS.Platform): FakeMenu {
    if (!Array.isArray(template)) throw new TypeError('Invalid template for Menu: Menu template must be an array');
    const menu = new FakeMenu();
    for (const entry of template) {
      if (typeof entry !== 'object' || entry === null)
        throw new TypeError('Invalid template for MenuItem: must have at least one of label, role or type');
      menu.items.push(new FakeMenuItem(entry, platform));
    }
    return menu;
  }

  /** Every item at any depth, with the labels of the menus above it. */
  flatten(parents: string[] = []): { path: string[]; item: FakeMenuItem }[] {
    return this.items.flatMap((item) => [
      { path: [...parents, item.label], item },
      ...(item.submenu ? item.submenu.flatten([...parents, item.label]) : []),
    ]);
  }
}

/** `CmdOrCtrl+Shift+I` on this platform as a set of keys, so accelerators compare however they are spelled. */
export function normaliseAccelerator(accelerator: string, platform: NodeJS.Platform): string {
  const command = platform === 'darwin' ? 'command' : 'control';
  const names: Record<string, string> = {
    cmdorctrl: command,
    commandorcontrol: command,
    cmd: 'command',
    command: 'command',
    ctrl: 'control',
    control: 'control',
    alt: 'alt',
    option: 'alt',
    shift: 'shift',
    super: 'super',
    meta: 'super',
    plus: '+',
  };
  const parts = accelerator.split(/\+(?!$)/).map((part) => names[part.toLowerCase()] ?? part.toLowerCase());
  const key = parts.pop() ?? '';
  return [...new Set(parts)].sort().concat(key).join('+');
}
