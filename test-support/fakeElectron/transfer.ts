import { types } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * How values cross Electron's boundaries, as Electron 45 does it:
 * - IPC (`webContents.send`, `ipcRenderer.invoke` and its reply) serialises with V8's ValueSerializer,
 *   so functions, promises, symbols and class prototypes do not survive (shell/common/v8_util.cc);
 * - the context bridge copies plain objects and arrays key by key, proxies functions and promises,
 *   re-creates errors from their message alone and structured-clones everything else
 *   (shell/renderer/api/electron_api_context_bridge.cc).
 */

/** A structured clone through V8's serializer; throws Electron's own message when a value cannot be cloned. */
export function cloneForIpc<T>(value: T): T {
  let bytes: Buffer;
  try {
    bytes = v8.serialize(value);
  } catch {
    throw new Error('An object could not be cloned.');
  }
  return v8.deserialize(bytes) as T;
}

/** The constructors of one JavaScript realm (a vm context), to build values that belong to it. */
export interface Realm {
  context: vm.Context;
  Object: ObjectConstructor;
  Array: ArrayConstructor;
  Error: ErrorConstructor;
  Promise: PromiseConstructor;
  /** Makes a function of this realm that forwards (receiver, arguments) to `impl`. */
  makeFunction(impl: (receiver: unknown, args: unknown[]) => unknown): (...args: unknown[]) => unknown;
}

export function realmOf(context: vm.Context): Realm {
  const intrinsics = vm.runInContext('({ Object, Array, Error, Promise })', context) as Pick<
    Realm,
    'Object' | 'Array' | 'Error' | 'Promise'
  >;
  const factory = vm.runInContext(
    '(impl) => function () { return impl(this, Array.prototype.slice.call(arguments)); }',
    context,
  ) as Realm['makeFunction'];
  return { context, ...intrinsics, makeFunction: factory };
}

const MAX_DEPTH = 1000;
/** Proxy function → the function it stands for, so a function sent back over the bridge is the original again. */
const originals = new WeakMap<object, { fn: (...args: unknown[]) => unknown; realm: Realm }>();

function isPlainObject(value: object): boolean {
  return !(
    Array.isArray(value) ||
    types.isDate(value) ||
    types.isArgumentsObject(value) ||
    types.isBoxedPrimitive(value) ||
    types.isNativeError(value) ||
    types.isRegExp(value) ||
    types.isPromise(value) ||
    types.isMap(value) ||
    types.isSet(value) ||
    types.isMapIterator(value) ||
    types.isSetIterator(value) ||
    types.isWeakMap(value) ||
    types.isWeakSet(value) ||
    types.isAnyArrayBuffer(value) ||
    types.isArrayBufferView(value) ||
    types.isGeneratorObject(value) ||
    types.isModuleNamespaceObject(value) ||
    types.isProxy(value)
  );
}

/** Passes one value from `source` to `destination` the way the context bridge does. */
export function passValue(
  value: unknown,
  source: Realm,
  destination: Realm,
  cache = new Map<unknown, unknown>(),
  depth = 0,
  receiver: unknown = undefined,
): unknown {
  if (depth >= MAX_DEPTH)
    throw new TypeError(
      'Electron contextBridge recursion depth exceeded.  Nested objects deeper than 1000 are not supported.',
    );
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value;
  if (cache.has(value)) return cache.get(value);

  if (typeof value === 'function') {
    const original = originals.get(value);
    if (original && original.realm === destination) return original.fn;
    const fn = value as (...args: unknown[]) => unknown;
    const proxy = destination.makeFunction((_receiver, args) => callAcross(fn, receiver, args, destination, source));
    originals.set(proxy, { fn, realm: source });
    cache.set(value, proxy);
    return proxy;
  }
  if (types.isPromise(value)) {
    const proxied = new destination.Promise((resolve, reject) => {
      (value as Promise<unknown>).then(
        (result) => {
          try {
            resolve(passValue(result, source, destination));
          } catch (error) {
            reject(new destination.Error(error instanceof Error ? error.message : String(error)));
          }
        },
        (error: unknown) => reject(passValue(error, source, destination)),
      );
    });
    cache.set(value, proxied);
    return proxied;
  }
  if (types.isNativeError(value)) {
    const message = (value as Error).message;
    return new destination.Error(typeof message === 'string' ? message : String(value));
  }
  if (Array.isArray(value) && !types.isArrayBufferView(value)) {
    const copy = new destination.Array();
    cache.set(value, copy);
    for (const element of value) copy.push(passValue(element, source, destination, cache, depth + 1, value));
    return copy;
  }
  if (isPlainObject(value)) {
    const copy = new destination.Object() as Record<string, unknown>;
    cache.set(value, copy);
    for (const key of Object.keys(value)) {
      const passed = passValue((value as Record<string, unknown>)[key], source, destination, cache, depth + 1, value);
      Object.defineProperty(copy, key, { value: passed, writable: true, enumerable: true, configurable: true });
    }
    return copy;
  }
  const cloned = cloneForIpc(value);
  cache.set(value, cloned);
  return cloned;
}

/** A bridged call: arguments copied in, the result (or the error's message) copied back out. */
function callAcross(
  fn: (...args: unknown[]) => unknown,
  receiver: unknown,
  args: unknown[],
  calling: Realm,
  owning: Realm,
): unknown {
  const cache = new Map<unknown, unknown>();
  const passedArgs = args.map((arg) => passValue(arg, calling, owning, cache));
  let result: unknown;
  try {
    result = fn.apply(receiver, passedArgs);
  } catch (error) {
    const message =
      error !== null && typeof error === 'object' && typeof (error as Error).message === 'string'
        ? (error as Error).message
        : 'An unknown exception occurred in the isolated context, an error occurred but a valid exception was not thrown.';
    throw new calling.Error(message);
  }
  try {
    return passValue(result, owning, calling);
  } catch (error) {
    throw new calling.Error(error instanceof Error ? error.message : String(error));
  }
}

/** Recursively freezes an object graph (typed arrays aside), as the bridge does before it exposes an API. */
export function deepFreeze(value: object, seen = new Set<object>()): void {
  if (seen.has(value)) return;
  seen.add(value);
  for (const key of Object.getOwnPropertyNames(value)) {
    const child = (value as Record<string, unknown>)[key];
    if (child !== null && (typeof child === 'object' || typeof child === 'function') && !types.isTypedArray(child))
      deepFreeze(child, seen);
  }
  Object.freeze(value);
}
