import type { WebSocket, RawData } from 'ws';
import { ClientFrameSchema, type HostFrame } from '../../../shared/contract/wire';
import { isEventName, type EventName } from '../../../shared/contract/channels';
import type { Handlers } from '../../../shared/contract/api';
import { LatheError } from '../../../shared/errors';
import { dispatch } from '../api/dispatch';

/** Drop a client that stops reading rather than buffer the core's events without bound. */
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;
/**
 * Browsers never send pings (the page's WebSocket API cannot); a client that sends many is flooding,
 * and each ping costs a pong the host must write.
 */
const MAX_PINGS = 20;
const PING_WINDOW_MS = 10_000;
/** RFC 6455 close codes. */
const POLICY_VIOLATION = 1008;
const ABNORMAL_CLOSURE = 1006;

/** One browser tab's connection: requests in, responses and subscribed events out. */
export class SocketSession {
  private readonly subscribed = new Set<EventName>();
  private pings: number[] = [];
  /** The one line about this connection's bad end has been written. */
  private reported = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly handlers: Handlers,
    private readonly log: (line: string) => void,
  ) {
    socket.on('message', (data, isBinary) => void this.receive(data, isBinary));
    // ws has already closed the socket with the frame's close code (1002, 1007, 1009); without a listener
    // the 'error' event would end the whole process, every run in it included.
    socket.on('error', (error) => this.report(`${error.message} (${closeCodeOf(error) ?? 'no close code'})`));
    socket.on('ping', () => this.countPing());
    socket.on('close', (code) => {
      if (code === ABNORMAL_CLOSURE)
        this.report('the connection ended without a close frame, perhaps in the middle of a frame (1006)');
    });
  }

  private countPing(): void {
    const now = Date.now();
    this.pings = this.pings.filter((at) => now - at < PING_WINDOW_MS);
    this.pings.push(now);
    if (this.pings.length <= MAX_PINGS || this.reported) return;
    this.report(`more than ${MAX_PINGS} pings in ${PING_WINDOW_MS / 1000} s (${POLICY_VIOLATION})`);
    this.socket.close(POLICY_VIOLATION, 'too many pings');
    // The flood may go on: no more pongs, and no waiting for the client's close frame.
    this.socket.pause();
    setTimeout(() => this.socket.terminate(), 1000).unref();
  }

  private report(reason: string): void {
    if (this.reported) return;
    this.reported = true;
    this.log(`lathe serve: closed a client connection: ${reason}`);
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
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      return this.sendError(new LatheError('INVALID_PAYLOAD', 'frame is not JSON'));
    }
    const frame = ClientFrameSchema.safeParse(json);
    if (!frame.success)
      return this.sendError(new LatheError('INVALID_PAYLOAD', 'frame does not match the wire format'));
    if (frame.data.kind === 'subscribe') {
      const unknown = frame.data.events.filter((name) => !isEventName(name));
      if (unknown.length > 0) {
        return this.sendError(
          new LatheError('UNKNOWN_CHANNEL', 'unknown event names', { names: unknown.slice(0, 10) }),
        );
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

function closeCodeOf(error: Error): number | null {
  // ws tags its protocol errors with the close code it sent (a symbol-keyed property, as in its own tests).
  const symbol = Object.getOwnPropertySymbols(error).find((key) => key.description === 'status-code');
  const code: unknown = symbol ? (error as unknown as Record<symbol, unknown>)[symbol] : undefined;
  return typeof code === 'number' ? code : null;
}

function rawToString(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
