import { LatheError } from '../errors';
import { failure, type Result } from '../result';
import type { EventListener, LatheClient } from './api';
import type { EventName, RequestChannel } from './channels';
import { HostFrameSchema, type ClientFrame, type HostFrame } from './wire';

// Method-style (bivariant) so the DOM's and `ws`'s narrower event types both fit.
type SocketHandler<E> = { bivarianceHack(event: E): void }['bivarianceHack'];

/** The part of the browser WebSocket API the client needs; `ws` in Node satisfies it too. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: SocketHandler<unknown> | null;
  onclose: SocketHandler<unknown> | null;
  onerror: SocketHandler<unknown> | null;
  onmessage: SocketHandler<{ data: unknown }> | null;
}

export type ConnectionState = 'connecting' | 'open' | 'closed';

export interface SocketClientOptions {
  url: string;
  createSocket: (url: string) => SocketLike;
  /** Reconnect delays grow from this up to 5 s; 0 disables reconnecting. */
  reconnectBaseMs?: number;
  onStateChange?: (state: ConnectionState) => void;
}

export interface SocketClient extends LatheClient {
  /** Resolves when the first connection opens. */
  ready: Promise<void>;
  close(): void;
}

const OPEN = 1;

/** A host frame from a message, or null for anything else (not text, not JSON, not a frame): it is ignored. */
function hostFrameOf(data: unknown): HostFrame | null {
  if (typeof data !== 'string') return null;
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return null;
  }
  const frame = HostFrameSchema.safeParse(json);
  return frame.success ? frame.data : null;
}

/** Every request still waiting is answered DISCONNECTED. */
function failPending(pending: Map<number, (result: Result<unknown>) => void>): void {
  for (const [id, resolve] of pending) {
    pending.delete(id);
    resolve(failure(new LatheError('DISCONNECTED', 'connection to Lathe closed').toShape()));
  }
}

/** The typed browser client: contract requests and events over the web host's WebSocket. */
export function createSocketClient(options: SocketClientOptions): SocketClient {
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const queue: string[] = [];
  let nextId = 1;
  let socket: SocketLike;
  let closedByUser = false;
  let attempt = 0;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const send = (frame: ClientFrame) => {
    const text = JSON.stringify(frame);
    if (socket.readyState === OPEN) socket.send(text);
    else queue.push(text);
  };

  const connect = () => {
    options.onStateChange?.('connecting');
    socket = options.createSocket(options.url);
    socket.onopen = () => {
      attempt = 0;
      options.onStateChange?.('open');
      if (listeners.size > 0) socket.send(JSON.stringify({ kind: 'subscribe', events: [...listeners.keys()] }));
      for (const text of queue.splice(0)) socket.send(text);
      markReady();
    };
    socket.onmessage = (event) => receive(event.data);
    socket.onerror = () => {};
    socket.onclose = () => {
      options.onStateChange?.('closed');
      failPending(pending);
      const base = options.reconnectBaseMs ?? 250;
      if (!closedByUser && base > 0) setTimeout(connect, Math.min(5000, base * 2 ** attempt++));
    };
  };

  const receive = (data: unknown) => {
    const frame = hostFrameOf(data);
    if (frame?.kind === 'response') {
      const resolve = pending.get(frame.id);
      pending.delete(frame.id);
      resolve?.(frame.result);
    } else if (frame?.kind === 'event') {
      const set = listeners.get(frame.name as EventName);
      const payload = frame.payload;
      set?.forEach((listener) => listener(payload));
    }
  };

  connect();

  return {
    ready,
    request: (channel: RequestChannel, payload: unknown) =>
      new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, resolve as (result: Result<unknown>) => void);
        send({ kind: 'request', id, channel, payload });
      }),
    on: <E extends EventName>(name: E, listener: EventListener<E>) => {
      let set = listeners.get(name);
      if (!set) {
        set = new Set();
        listeners.set(name, set);
        send({ kind: 'subscribe', events: [name] });
      }
      const untyped = listener as (payload: unknown) => void;
      set.add(untyped);
      return () => set.delete(untyped);
    },
    close: () => {
      closedByUser = true;
      socket.close();
    },
  } as SocketClient;
}
