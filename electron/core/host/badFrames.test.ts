import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Handlers } from '../../../shared/contract/api';
import { MAX_FRAME_BYTES } from '../../../shared/contract/wire';
import { makeTempDir } from '../../../test-support/tempRepo';
import { createCore } from '../api/coreHandlers';
import { EventBus } from '../runs/eventBus';
import { startWebHost, type WebHost } from './webHost';

const TOKEN = 'bad-frames-token';
let host: WebHost;
const logged: string[] = [];
/** A well-behaved client connected for the whole file: every bad client must leave it answering. */
let bystander: WebSocket;
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  const rendererDir = makeTempDir('lathe-renderer-');
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Lathe</title>');
  const events = new EventBus();
  const handlers: Handlers = {
    ...createCore({ mode: 'browser', dataDir: makeTempDir(), events, appRoot: process.cwd() }).handlers,
    'dialog/openFolder': async () => ({ path: null }),
  };
  host = await startWebHost({ port: 0, rendererDir, handlers, events, token: TOKEN, log: (line) => logged.push(line) });
  bystander = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${TOKEN}`, {
    headers: { Origin: `http://127.0.0.1:${host.port}` },
  });
  await new Promise((resolve) => bystander.once('open', resolve));
});

afterAll(async () => {
  bystander.close();
  await host.close();
  process.off('uncaughtException', onUncaught);
});

/** The bystander's `app/info` answer: proof that the process, its host and its other sockets live on. */
async function bystanderAnswers(): Promise<boolean> {
  const id = Math.floor(Math.random() * 1e9);
  const answered = new Promise<boolean>((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const frame = JSON.parse(data.toString()) as { kind: string; id?: number; result?: { ok: boolean } };
      if (frame.kind === 'response' && frame.id === id) {
        bystander.off('message', onMessage);
        resolve(frame.result?.ok === true);
      }
    };
    bystander.on('message', onMessage);
    setTimeout(() => resolve(false), 5000);
  });
  bystander.send(JSON.stringify({ kind: 'request', id, channel: 'app/info', payload: {} }));
  return answered;
}

interface RawClient {
  socket: net.Socket;
  /** The close code of the server's close frame; null when the connection ended without one. */
  closed: Promise<{ code: number | null }>;
}

/** A TCP client that speaks the WebSocket handshake by hand, so it can then send frames no library would. */
async function rawClient(): Promise<RawClient> {
  const socket = net.connect(host.port, '127.0.0.1');
  socket.on('error', () => undefined);
  const key = crypto.randomBytes(16).toString('base64');
  socket.write(
    `GET /ws?token=${TOKEN} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nOrigin: http://127.0.0.1:${host.port}\r\n` +
      `Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  let received = Buffer.alloc(0);
  let handshakeDone: () => void = () => undefined;
  const handshake = new Promise<void>((resolve) => (handshakeDone = resolve));
  const closed = new Promise<{ code: number | null }>((resolve) => {
    let code: number | null = null;
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end >= 0 && received.subarray(0, 12).toString('latin1') === 'HTTP/1.1 101') {
        handshakeDone();
        code = closeCodeIn(received.subarray(end + 4)) ?? code;
      }
    });
    socket.on('close', () => resolve({ code }));
  });
  await handshake;
  return { socket, closed };
}

/** The status code of the first close frame among the server's frames (server frames are unmasked). */
function closeCodeIn(frames: Buffer): number | null {
  let offset = 0;
  while (offset + 2 <= frames.length) {
    const opcode = (frames[offset] as number) & 0x0f;
    let length = (frames[offset + 1] as number) & 0x7f;
    let header = 2;
    if (length === 126) [length, header] = [frames.readUInt16BE(offset + 2), 4];
    else if (length === 127) [length, header] = [Number(frames.readBigUInt64BE(offset + 2)), 10];
    if (offset + header + length > frames.length) return null;
    if (opcode === 0x8) return length >= 2 ? frames.readUInt16BE(offset + header) : 1005;
    offset += header + length;
  }
  return null;
}

/** A client frame: FIN set, masked unless told otherwise, with a 7-, 16- or 64-bit length as the size needs. */
function frame(opcode: number, payload: Buffer, options: { masked?: boolean; declaredLength?: number } = {}): Buffer {
  const masked = options.masked ?? true;
  const length = options.declaredLength ?? payload.length;
  const lengthBytes =
    length < 126
      ? Buffer.from([length])
      : length < 65536
        ? Buffer.from([126, length >> 8, length & 0xff])
        : Buffer.concat([Buffer.from([127]), bigEndian64(length)]);
  lengthBytes[0] = (lengthBytes[0] as number) | (masked ? 0x80 : 0);
  const mask = masked ? crypto.randomBytes(4) : Buffer.alloc(0);
  const body = masked ? Buffer.from(payload.map((byte, index) => byte ^ (mask[index % 4] as number))) : payload;
  return Buffer.concat([Buffer.from([0x80 | opcode]), lengthBytes, mask, body]);
}

function bigEndian64(value: number): Buffer {
  const buffer = Buffer.alloc(8);
  buffer.writeBigUInt64BE(BigInt(value));
  return buffer;
}

const TEXT = 0x1;
const PING = 0x9;

describe('the web host survives bad clients (issue 27, item 4)', () => {
  it.each([
    [
      'a frame over the 4 MiB limit',
      1009,
      (client: RawClient) =>
        client.socket.write(frame(TEXT, Buffer.alloc(64 * 1024, 0x20), { declaredLength: MAX_FRAME_BYTES + 1 })),
    ],
    [
      'an unmasked client frame',
      1002,
      (client: RawClient) =>
        client.socket.write(frame(TEXT, Buffer.from('{"kind":"subscribe","events":[]}'), { masked: false })),
    ],
    [
      'invalid UTF-8 in a text frame',
      1007,
      (client: RawClient) => client.socket.write(frame(TEXT, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))),
    ],
    [
      'a flood of pings',
      1008,
      (client: RawClient) =>
        client.socket.write(Buffer.concat(Array.from({ length: 2000 }, () => frame(PING, Buffer.from('ping'))))),
    ],
    [
      'a truncated frame, then the connection ends',
      null,
      (client: RawClient) =>
        client.socket.end(frame(TEXT, Buffer.from('{"kind":"subs'), { declaredLength: 400 }).subarray(0, 20)),
    ],
  ])(
    '%s closes that socket only (code %s), logs one line, and the other client and the process go on',
    async (_name, code, send) => {
      const before = logged.length;
      const client = await rawClient();
      send(client);
      const outcome = await client.closed;
      expect(outcome.code).toBe(code);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(logged.slice(before)).toHaveLength(1);
      expect(logged.at(-1)).toMatch(/^lathe serve: closed a client connection/);
      expect(uncaught).toEqual([]);
      expect(bystander.readyState).toBe(WebSocket.OPEN);
      expect(await bystanderAnswers()).toBe(true);
    },
  );

  it('a connection reset during the upgrade leaves the host running', async () => {
    const socket = net.connect(host.port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n`,
    );
    socket.resetAndDestroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(uncaught).toEqual([]);
    expect(await bystanderAnswers()).toBe(true);
  });
});
