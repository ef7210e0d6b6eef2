import type { EventListener, LatheClient } from '../../../shared/contract/api';
import type { EventName, EventOf, RequestChannel, RequestOf, ResponseOf } from '../../../shared/contract/channels';
import { LatheError } from '../../../shared/errors';
import { failure, ok, type Result } from '../../../shared/result';
import { setClient } from '../api/client';

export type FakeHandlers = { [C in RequestChannel]?: (req: RequestOf<C>) => ResponseOf<C> | Promise<ResponseOf<C>> };

export interface FakeClient extends LatheClient {
  calls: { channel: RequestChannel; req: unknown }[];
  emit<E extends EventName>(name: E, payload: EventOf<E>): void;
}

/** A LatheClient answering from handlers (a thrown LatheError becomes a failed Result), installed for the stores. */
export function installFakeClient(handlers: FakeHandlers): FakeClient {
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const fake: FakeClient = {
    calls: [],
    async request<C extends RequestChannel>(channel: C, req: RequestOf<C>): Promise<Result<ResponseOf<C>>> {
      fake.calls.push({ channel, req });
      const handler = handlers[channel] as ((req: RequestOf<C>) => ResponseOf<C> | Promise<ResponseOf<C>>) | undefined;
      if (!handler) return failure(new LatheError('UNKNOWN_CHANNEL', `no fake for ${channel}`).toShape());
      try {
        return ok(await handler(req));
      } catch (error) {
        return failure(LatheError.from(error).toShape());
      }
    },
    on<E extends EventName>(name: E, listener: EventListener<E>) {
      const set = listeners.get(name) ?? new Set();
      listeners.set(name, set);
      set.add(listener as (payload: unknown) => void);
      return () => set.delete(listener as (payload: unknown) => void);
    },
    emit(name, payload) {
      listeners.get(name)?.forEach((listener) => listener(payload));
    },
  };
  setClient(fake);
  return fake;
}

/** Lets queued timers and promise callbacks run. */
export function settle(ms = 0): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
