import type { Result } from '../result';
import type {
  CoreChannel,
  EventName,
  EventOf,
  RequestChannel,
  RequestOf,
  ResponseOf,
  ValidRequestOf,
} from './channels';

/** A handler receives a validated payload and may throw a LatheError; dispatch turns both into a Result. */
export type Handler<C extends RequestChannel> = (req: ValidRequestOf<C>) => Promise<ResponseOf<C>>;

/** Mapped over the contract, so a missing handler is a compile error. */
export type Handlers = { [C in RequestChannel]: Handler<C> };
export type CoreHandlers = { [C in CoreChannel]: Handler<C> };

export type RequestFunctions = {
  [C in RequestChannel]: (req: RequestOf<C>) => Promise<Result<ResponseOf<C>>>;
};
export type EventListener<E extends EventName> = (payload: EventOf<E>) => void;
export type EventSubscribers = {
  [E in EventName]: (listener: EventListener<E>) => () => void;
};

/** What the preload exposes as `window.lathe`: one named function per channel and per event. */
export type BridgeApi = {
  requests: RequestFunctions;
  events: EventSubscribers;
};

/** The renderer's view of the core, the same in Electron and in the browser. */
export interface LatheClient {
  request<C extends RequestChannel>(channel: C, req: RequestOf<C>): Promise<Result<ResponseOf<C>>>;
  on<E extends EventName>(name: E, listener: EventListener<E>): () => void;
}

/** Builds the named request functions from any transport that can carry one call. */
export function createRequestFunctions(
  invoke: (channel: RequestChannel, payload: unknown) => Promise<Result<unknown>>,
  channels: readonly RequestChannel[],
): RequestFunctions {
  const functions: Record<string, (req: unknown) => Promise<Result<unknown>>> = {};
  for (const channel of channels) functions[channel] = (req) => invoke(channel, req);
  // Safe: one function per channel name from the contract, each forwarding its own channel.
  return functions as unknown as RequestFunctions;
}

export function clientFromBridge(bridge: BridgeApi): LatheClient {
  return {
    request: (channel, req) => bridge.requests[channel](req),
    on: (name, listener) => bridge.events[name](listener),
  };
}

/** Builds the named event functions from any transport that can deliver one event name. */
export function createEventSubscribers(
  subscribe: (name: EventName, listener: (payload: unknown) => void) => () => void,
  names: readonly EventName[],
): EventSubscribers {
  const functions: Record<string, (listener: (payload: unknown) => void) => () => void> = {};
  for (const name of names) functions[name] = (listener) => subscribe(name, listener);
  // Safe: one function per event name from the contract, each subscribing to its own name.
  return functions as unknown as EventSubscribers;
}
