import type { WebSocket, RawData } from 'ws';
import { ClientFrameSchema, type HostFrame } from '../../../shared/contract/wire';
import { isEventName, type EventName } from '../../../shared/contract/channels';
import type { Handlers } from '../../../shared/contract/api';
import { LatheError } from '../../../shared/errors';
import { dispatch } from '../api/dispatch';

/** Drop a client that stops reading rather than buffer the core's events without bound. */
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;

/** One browser tab's connection: requests in, responses and subscribed events out. */
export class SocketSession {
  private readonly subscribed = new Set<EventName>();

  constructor(
    private readonly socket: WebSocket,
    private readonly handlers: Handlers,
  ) {
    socket.on('message', (data, isBinary) => void this.receive(data, isBinary));
  }

  push(name: EventName, payload: unknown): void {
    if (!this.subscribed.has(name)) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.socket.close(1013, 'client too slow');
      return;
    }
    this.send({ kind: 'event', name, payload });
  }

  private async receive(data: RawData, isBinary: boolean): Promise<void> {
    if (isBinary) return this.sendError(new LatheError('INVALID_PAYLOAD', 'binary frames are not accepted'));
    let json: unknown;
    try {
      json = JSON.parse(rawToString(data));
    } catch {
      return this.sendError(new LatheError('INVALID_PAYLOAD', 'frame is not JSON'));
    }
    const frame = ClientFrameSchema.safeParse(json);
    if (!frame.success) return this.sendError(new LatheError('INVALID_PAYLOAD', 'frame does not match the wire format'));
    if (frame.data.kind === 'subscribe') {
      const unknown = frame.data.events.filter((name) => !isEventName(name));
      if (unknown.length > 0) {
        return this.sendError(new LatheError('UNKNOWN_CHANNEL', 'unknown event names', { names: unknown.slice(0, 10) }));
      }
      for (const name of frame.data.events) if (isEventName(name)) this.subscribed.add(name);
      return;
    }
    const result = await dispatch(this.handlers, frame.data.channel, frame.data.payload);
    this.send({ kind: 'response', id: frame.data.id, result });
  }

  private sendError(error: LatheError): void {
    this.send({ kind: 'error', error: error.toShape() });
  }

  private send(frame: HostFrame): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(frame));
  }
}

function rawToString(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
