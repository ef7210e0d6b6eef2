import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import timers from 'node:timers';
import url from 'node:url';
import vm from 'node:vm';
import { cloneForIpc, deepFreeze, passValue, realmOf, type Realm } from './transfer';

/** What the page's main frame knows of its browser side: how it reaches the main process. */
export interface FrameHost {
  /** Delivers `ipcRenderer.invoke` to the main process; resolves with Electron's reply shape. */
  invoke(channel: string, args: unknown[]): Promise<{ result?: unknown; error?: string }>;
  send(channel: string, args: unknown[]): void;
  reportPreloadError(preloadPath: string, error: unknown): void;
  console(level: 'log' | 'warn' | 'error', text: string): void;
}

export interface EffectiveWebPreferences {
  preload: string | null;
  contextIsolation: boolean;
  sandbox: boolean;
  nodeIntegration: boolean;
  nodeIntegrationInWorker: boolean;
  webSecurity: boolean;
  allowRunningInsecureContent: boolean;
}

/** The Content-Security-Policy a document declares in `<meta http-equiv>`, directive → sources. */
export function documentCsp(html: string): Record<string, string[]> | null {
  const meta = /<meta\s+[^>]*http-equiv=["']Content-Security-Policy["'][^>]*>/i.exec(html)?.[0];
  const quoted = meta ? /content=(?:"([^"]*)"|'([^']*)')/i.exec(meta) : null;
  const content = quoted ? (quoted[1] ?? quoted[2]) : undefined;
  if (content === undefined) return null;
  const directives: Record<string, string[]> = {};
  for (const part of content.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives[name.toLowerCase()] = sources;
  }
  return directives;
}

/** The sub-resources a document asks for: scripts, stylesheets, module preloads. */
export function documentSubresources(html: string): { url: string; resourceType: 'script' | 'stylesheet' | 'other' }[] {
  const found: { url: string; resourceType: 'script' | 'stylesheet' | 'other' }[] = [];
  for (const match of html.matchAll(/<script\b[^>]*\bsrc=["']([^"']+)["']/gi))
    found.push({ url: match[1] ?? '', resourceType: 'script' });
  for (const match of html.matchAll(/<link\b[^>]*\bhref=["']([^"']+)["'][^>]*>/gi))
    found.push({
      url: match[1] ?? '',
      resourceType: /rel=["']stylesheet["']/i.test(match[0]) ? 'stylesheet' : 'other',
    });
  return found;
}

/**
 * One document in a window's main frame: its main world (the page's own scripts) and, with context
 * isolation, the isolated world its preload runs in. The test plays the page: it calls what the
 * preload exposed on `window`, exactly as the renderer bundle would.
 */
export class FakePage {
  readonly mainWorld: Realm;
  readonly isolatedWorld: Realm;
  /** The page's `window` (its main world's global object). */
  readonly window: Record<string, unknown>;
  readonly ipcRenderer: EventEmitter & {
    invoke(channel: string, ...args: unknown[]): Promise<unknown>;
    send(channel: string, ...args: unknown[]): void;
  };
  readonly csp: Record<string, string[]> | null;
  /** The keys the preload put on `window` through the context bridge, in order. */
  readonly exposedKeys: string[] = [];
  private alive = true;

  constructor(
    readonly url: string,
    private readonly html: string,
    readonly prefs: EffectiveWebPreferences,
    private readonly host: FrameHost,
  ) {
    this.csp = documentCsp(html);
    const mainContext = vm.createContext(this.windowGlobals(prefs.nodeIntegration));
    this.mainWorld = realmOf(mainContext);
    this.window = vm.runInContext('globalThis', mainContext) as Record<string, unknown>;
    this.isolatedWorld = prefs.contextIsolation ? realmOf(vm.createContext(this.windowGlobals(false))) : this.mainWorld;
    this.ipcRenderer = this.createIpcRenderer();
    if (prefs.preload) this.runPreload(prefs.preload);
  }

  get documentHtml(): string {
    return this.html;
  }

  /** Runs a script in the page's main world, as a page script would. */
  evaluate(source: string): unknown {
    return vm.runInContext(source, this.mainWorld.context);
  }

  /** A message from the main process (`webContents.send`) arriving in this document. */
  deliver(channel: string, args: unknown[]): void {
    if (!this.alive) return;
    this.ipcRenderer.emit(channel, { sender: this.ipcRenderer, ports: [] }, ...args);
  }

  unload(): void {
    this.alive = false;
    this.ipcRenderer.removeAllListeners();
  }

  private windowGlobals(withNode: boolean): Record<string, unknown> {
    const globals: Record<string, unknown> = {
      console: this.pageConsole(),
      setTimeout,
      clearTimeout,
      setInterval,
      clearInterval,
      queueMicrotask,
      URL,
      URLSearchParams,
      TextEncoder,
      TextDecoder,
      location: { href: this.url, protocol: new URL(this.url).protocol },
    };
    // nodeIntegration puts Node's own require and process in the page itself.
    if (withNode) Object.assign(globals, { require: createNodeRequire(), process, Buffer });
    return globals;
  }

  private pageConsole(): Pick<Console, 'log' | 'warn' | 'error' | 'info' | 'debug'> {
    const say =
      (level: 'log' | 'warn' | 'error') =>
      (...args: unknown[]) =>
        this.host.console(level, args.map(String).join(' '));
    return { log: say('log'), info: say('log'), debug: say('log'), warn: say('warn'), error: say('error') };
  }

  private createIpcRenderer(): FakePage['ipcRenderer'] {
    const host = this.host;
    const emitter = new EventEmitter() as FakePage['ipcRenderer'];
    emitter.invoke = async (channel: string, ...args: unknown[]) => {
      const { error, result } = await host.invoke(channel, cloneForIpc(args));
      if (error) throw new Error(`Error invoking remote method '${channel}': ${error}`);
      return result;
    };
    emitter.send = (channel: string, ...args: unknown[]) => host.send(channel, cloneForIpc(args));
    return emitter;
  }

  private contextBridge() {
    const isolated = this.isolatedWorld;
    const main = this.mainWorld;
    const contextIsolated = this.prefs.contextIsolation;
    const requireIsolation = () => {
      if (!contextIsolated) throw new Error('contextBridge API can only be used when contextIsolation is enabled');
    };
    return {
      exposeInMainWorld: (key: string, api: unknown) => {
        requireIsolation();
        if (Object.hasOwn(this.window, key))
          throw new Error('Cannot bind an API on top of an existing property on the window object');
        const proxy = passValue(api, isolated, main);
        if (proxy !== null && typeof proxy === 'object') deepFreeze(proxy);
        else if (typeof proxy === 'function') deepFreeze(proxy);
        Object.defineProperty(this.window, key, {
          value: proxy,
          writable: false,
          configurable: false,
          enumerable: true,
        });
        this.exposedKeys.push(key);
      },
      exposeInIsolatedWorld: () => {
        requireIsolation();
        throw new Error('fake electron: exposeInIsolatedWorld is not modelled');
      },
    };
  }

  /** Loads the preload the way Electron 45 does: sandboxed (a function with a limited `require`) or with Node. */
  private runPreload(preloadPath: string): void {
    try {
      if (!path.isAbsolute(preloadPath)) throw new Error(`preload script must have an absolute path: ${preloadPath}`);
      const source = fs.readFileSync(preloadPath, 'utf8');
      const electron = {
        contextBridge: this.contextBridge(),
        ipcRenderer: this.ipcRenderer,
        webFrame: {},
        webUtils: {},
        crashReporter: {},
        nativeImage: {},
      };
      const exports = {};
      const module = { exports };
      if (this.prefs.sandbox) {
        const loaded = new Map<string, unknown>([
          ['electron', electron],
          ['electron/common', electron],
          ['electron/renderer', electron],
          ['events', EventEmitter],
          ['node:events', EventEmitter],
          ['timers', timers],
          ['node:timers', timers],
          ['url', url],
          ['node:url', url],
        ]);
        const preloadRequire = (name: string) => {
          if (loaded.has(name)) return loaded.get(name);
          throw new Error(`module not found: ${name}`);
        };
        const preloadProcess = Object.assign(new EventEmitter(), {
          type: 'renderer',
          sandboxed: true,
          contextIsolated: this.prefs.contextIsolation,
          platform: process.platform,
          arch: process.arch,
          versions: { ...process.versions },
          env: {},
        });
        const fn = vm.compileFunction(
          source,
          ['require', 'process', 'exports', 'module', 'Buffer', 'global', 'setImmediate', 'clearImmediate'],
          { parsingContext: this.isolatedWorld.context, filename: preloadPath },
        );
        fn(
          preloadRequire,
          preloadProcess,
          exports,
          module,
          Buffer,
          vm.runInContext('globalThis', this.isolatedWorld.context),
          setImmediate,
          clearImmediate,
        );
      } else {
        const nodeRequire = createNodeRequire();
        const unsandboxedRequire = (name: string) =>
          name === 'electron' || name === 'electron/renderer' ? electron : nodeRequire(name);
        const fn = vm.compileFunction(
          source,
          ['require', 'module', 'exports', '__filename', '__dirname', 'process', 'Buffer', 'global'],
          { parsingContext: this.isolatedWorld.context, filename: preloadPath },
        );
        fn(
          unsandboxedRequire,
          module,
          exports,
          preloadPath,
          path.dirname(preloadPath),
          process,
          Buffer,
          vm.runInContext('globalThis', this.isolatedWorld.context),
        );
      }
    } catch (error) {
      // Electron logs the failure, tells the main process ('preload-error') and loads the page anyway.
      this.host.console('error', `Unable to load preload script: ${preloadPath}`);
      this.host.console('error', String(error));
      this.host.reportPreloadError(preloadPath, error);
    }
  }
}

function createNodeRequire(): NodeJS.Require {
  return createRequire(import.meta.url);
}
