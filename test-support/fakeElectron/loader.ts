import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { FakeElectron } from './world';

/**
 * Loads a built main-process bundle with Node's own ESM loader, its `import … from 'electron'`
 * answered by a fake world. A loader hook maps 'electron' to a tiny module reading the world from a
 * registry, for importers whose URL carries `?lathe-fake-electron=<id>`; each id is a fresh instance
 * of the bundle (its dependencies stay shared). Only tests call this: nothing in the product knows it.
 */

const REGISTRY = Symbol.for('lathe.fakeElectron.worlds');
const QUERY = 'lathe-fake-electron';
/** The main-process module names of Electron 45; those the fake does not model throw when used. */
const MAIN_MODULES = [
  'app',
  'autoUpdater',
  'BaseWindow',
  'BrowserWindow',
  'clipboard',
  'contentTracing',
  'crashReporter',
  'desktopCapturer',
  'dialog',
  'globalShortcut',
  'inAppPurchase',
  'ipcMain',
  'Menu',
  'MenuItem',
  'MessageChannelMain',
  'nativeImage',
  'nativeTheme',
  'net',
  'netLog',
  'Notification',
  'powerMonitor',
  'powerSaveBlocker',
  'protocol',
  'pushNotifications',
  'safeStorage',
  'screen',
  'session',
  'ShareMenu',
  'shell',
  'systemPreferences',
  'TouchBar',
  'Tray',
  'utilityProcess',
  'View',
  'webContents',
  'WebContentsView',
  'webFrameMain',
];

const hooks = `
const names = ${JSON.stringify(MAIN_MODULES)};
const shim = (id) => 'const world = globalThis[Symbol.for(${JSON.stringify(REGISTRY.description)})].get(' + id + ');\\n' +
  names.map((name) => 'export const ' + name + ' = world[' + JSON.stringify(name) + '];').join('\\n') + '\\nexport default world;';
export async function resolve(specifier, context, next) {
  if ((specifier === 'electron' || specifier === 'electron/main') && context.parentURL) {
    const id = new URL(context.parentURL).searchParams.get(${JSON.stringify(QUERY)});
    if (id) return { url: 'data:text/javascript,' + encodeURIComponent(shim(Number(id))), shortCircuit: true };
  }
  return next(specifier, context);
}`;

let registered = false;
// Vitest evaluates test modules itself, without Node's dynamic import; this file goes through Node's require.
const nativeImport = createRequire(import.meta.url)('./nativeImport.cjs') as (url: string) => Promise<unknown>;

function registry(): Map<number, Record<string, unknown>> {
  const holder = globalThis as unknown as Record<symbol, Map<number, Record<string, unknown>> | undefined>;
  return (holder[REGISTRY] ??= new Map());
}

function unmodelled(name: string): unknown {
  return new Proxy(function unmodelledModule() {}, {
    get: (_target, property) => {
      if (property === Symbol.toPrimitive || property === 'then') return undefined;
      throw new Error(`fake electron: ${name}.${String(property)} is not modelled`);
    },
    construct: () => {
      throw new Error(`fake electron: new ${name}() is not modelled`);
    },
    apply: () => {
      throw new Error(`fake electron: ${name}() is not modelled`);
    },
  });
}

/** Runs the bundle at `file` as the main script of `world`'s process. */
export async function loadMainBundle(world: FakeElectron, file: string): Promise<void> {
  if (!registered) {
    register(`data:text/javascript,${encodeURIComponent(hooks)}`);
    registered = true;
  }
  const modules = world.mainModules();
  registry().set(
    world.id,
    Object.fromEntries(MAIN_MODULES.map((name) => [name, name in modules ? modules[name] : unmodelled(name)])),
  );
  await nativeImport(`${pathToFileURL(file).href}?${QUERY}=${world.id}`);
}
