import { eventChannels, type EventName, type EventOf } from '../../../shared/contract/channels';
import { LatheError } from '../../../shared/errors';

export type AnyEventListener = (name: EventName, payload: unknown) => void;

/** The core's one outlet for pushed events; transports (IPC, WebSocket, CLI) attach listeners. */
export class EventBus {
  private readonly listeners = new Set<AnyEventListener>();

  subscribe(listener: AnyEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<E extends EventName>(name: E, payload: EventOf<E>): void {
    const checked = eventChannels[name].safeParse(payload);
    if (!checked.success) {
      // An invalid event is a core bug; refusing it keeps clients' reducers safe.
      throw new LatheError('INTERNAL', `invalid payload for event ${name}`, {
        issues: checked.error.issues.slice(0, 5).map((issue) => issue.message),
      });
    }
    for (const listener of this.listeners) {
      try {
        listener(name, checked.data);
      } catch {
        // catch-ok: A failing transport must not stop the others or the engine.
      }
    }
  }
}
