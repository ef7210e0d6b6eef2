import http from 'node:http';
import path from 'node:path';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Handlers } from '../../../shared/contract/api';
import { createSocketClient, type SocketLike } from '../../../shared/contract/socketClient';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { EventBus } from '../runs/eventBus';
import { createCore } from '../api/coreHandlers';
import { startWebHost, type WebHost } from './webHost';

let host: WebHost;
let repo: TempRepo;
const events = new EventBus();

beforeAll(async () => {
  const rendererDir = makeTempDir('lathe-renderer-');
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Lathe</title>');
  fs.mkdirSync(path.join(rendererDir, 'assets'));
  fs.writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  fs.writeFileSync(path.join(path.dirname(rendererDir), 'lathe-secret.txt'), 'outside');
  const handlers: Handlers = {
    ...createCore({ mode: 'browser', dataDir: makeTempDir(), events, appRoot: process.cwd() }).handlers,
    'dialog/openFolder': async () => ({ path: null }),
  };
  host = await startWebHost({ port: 0, rendererDir, handlers, events, token: 'test-token-123' });
  repo = makeTempRepo({ branch: 'feature/x', files: { 'a.txt': 'a\n' } });
});

afterAll(async () => {
  await host.close();
  repo.remove();
});

function get(
  pathname: string,
  headers: Record<string, string> = {},
  hostHeader?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: host.port,
        path: pathname,
        headers: { ...headers, ...(hostHeader ? { Host: hostHeader } : {}) },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

function connect(url: string, origin?: string): Promise<{ opened: boolean; status?: number }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, origin ? { headers: { Origin: origin } } : {});
    socket.on('open', () => {
      socket.close();
      resolve({ opened: true });
    });
    socket.on('unexpected-response', (_request, response) => resolve({ opened: false, status: response.statusCode }));
    socket.on('error', () => resolve({ opened: false }));
  });
}

describe('web host access', () => {
  it('listens on 127.0.0.1 only and prints one URL with the token', () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/?token=test-token-123`);
  });

  it('is not reachable on a non-loopback address', async () => {
    const { networkInterfaces } = await import('node:os');
    const external = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry && entry.family === 'IPv4' && !entry.internal);
    if (!external) return expect(external).toBeUndefined();
    const reached = await new Promise<boolean>((resolve) => {
      const request = http.get({ host: external.address, port: host.port, path: '/', timeout: 2000 }, () =>
        resolve(true),
      );
      request.on('error', () => resolve(false));
      request.on('timeout', () => {
        request.destroy();
        resolve(false);
      });
    });
    expect(reached).toBe(false);
  });

  it('answers 403 without the token', async () => {
    expect((await get('/')).status).toBe(403);
    expect((await get('/assets/app.js')).status).toBe(403);
    expect((await get('/?token=wrong-token-123')).status).toBe(403);
  });

  it('tells a person who opened an address without the token how to get a working link, serving nothing of the app', async () => {
    const response = await get('/?repo=/home/user/js-stats&run=20261122T033735Z&tab=changes');
    expect(response.status).toBe(403);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(response.body).toContain('needs its access link');
    expect(response.body).toContain(`http://127.0.0.1:${host.port}/?token=…`);
    expect(response.body).toContain('npx lathe serve');
    expect(response.body).not.toContain('/home/user/js-stats');
    expect(response.body).not.toContain('test-token-123');
    expect(response.body).not.toMatch(/<script/i);
    expect((await get('/?token=wrong-token-123')).body).toContain('needs its access link');
  });

  it('answers 403 to a foreign Origin even with the token', async () => {
    const response = await get('/?token=test-token-123', { Origin: 'http://evil.example' });
    expect(response.status).toBe(403);
    expect(response.body).toContain('Origin');
  });

  it('answers 403 to a foreign Host header (DNS rebinding)', async () => {
    expect((await get('/?token=test-token-123', {}, `evil.example:${host.port}`)).status).toBe(403);
  });

  it('answers 200 with the token, sets the cookie and a CSP', async () => {
    const response = await get('/?token=test-token-123', { Origin: `http://127.0.0.1:${host.port}` });
    expect(response.status).toBe(200);
    expect(response.body).toContain('<title>Lathe</title>');
    expect(response.headers['set-cookie']?.[0]).toMatch(/^lathe_token=test-token-123; HttpOnly; SameSite=Strict/);
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('serves assets with the cookie and never a file outside the renderer folder', async () => {
    const cookie = { Cookie: 'lathe_token=test-token-123' };
    expect((await get('/assets/app.js', cookie)).status).toBe(200);
    expect((await get('/../lathe-secret.txt', cookie)).status).toBe(404);
    expect((await get('/%2e%2e/lathe-secret.txt', cookie)).status).toBe(404);
    expect((await get('/%2e%2e%2flathe-secret.txt', cookie)).status).toBe(404);
  });

  it('refuses WebSocket upgrades without the token, with a foreign or missing Origin', async () => {
    const ws = `ws://127.0.0.1:${host.port}/ws`;
    const own = `http://127.0.0.1:${host.port}`;
    expect(await connect(ws, own)).toMatchObject({ opened: false, status: 403 });
    expect(await connect(`${ws}?token=test-token-123`, 'http://evil.example')).toMatchObject({
      opened: false,
      status: 403,
    });
    expect(await connect(`${ws}?token=test-token-123`)).toMatchObject({ opened: false, status: 403 });
    expect(await connect(`${ws}?token=test-token-123`, own)).toEqual({ opened: true });
  });
});

describe('web host contract over WebSocket', () => {
  const client = () =>
    createSocketClient({
      url: `ws://127.0.0.1:${host.port}/ws?token=test-token-123`,
      createSocket: (url) =>
        new WebSocket(url, { headers: { Origin: `http://127.0.0.1:${host.port}` } }) as unknown as SocketLike,
      reconnectBaseMs: 0,
    });

  it('answers typed requests and typed errors', async () => {
    const socket = client();
    const info = await socket.request('app/info', {});
    expect(info).toMatchObject({ ok: true, value: { name: 'Lathe', mode: 'browser' } });
    const opened = await socket.request('repo/open', { path: repo.dir });
    expect(opened).toMatchObject({ ok: true, value: { branch: 'feature/x', dirty: false } });
    const invalid = await socket.request('repo/open', { path: 12 } as unknown as { path: string });
    expect(invalid).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD' } });
    socket.close();
  });

  it('pushes subscribed events only', async () => {
    const socket = client();
    const seen: string[] = [];
    socket.on('repo/changed', (status) => seen.push(status.name));
    await socket.ready;
    await socket.request('app/info', {});
    events.emit('run/event', { ts: 't', seq: 1, run_id: 'r', role: 'engine', type: 'x', data: {} });
    await socket.request('repo/open', { path: repo.dir });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toEqual([path.basename(repo.dir)]);
    socket.close();
  });

  it('survives garbage frames and keeps answering', async () => {
    const raw = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=test-token-123`, {
      headers: { Origin: `http://127.0.0.1:${host.port}` },
    });
    const frames: unknown[] = [];
    raw.on('message', (data) => frames.push(JSON.parse(data.toString())));
    await new Promise((resolve) => raw.on('open', resolve));
    raw.send('not json');
    raw.send(JSON.stringify({ kind: 'request', id: 'x' }));
    raw.send(JSON.stringify({ kind: 'subscribe', events: ['__proto__'] }));
    raw.send(JSON.stringify({ kind: 'request', id: 7, channel: 'constructor', payload: {} }));
    raw.send(JSON.stringify({ kind: 'request', id: 8, channel: 'app/info', payload: {} }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    raw.close();
    expect(frames).toEqual([
      expect.objectContaining({ kind: 'error', error: expect.objectContaining({ code: 'INVALID_PAYLOAD' }) }),
      expect.objectContaining({ kind: 'error', error: expect.objectContaining({ code: 'INVALID_PAYLOAD' }) }),
      expect.objectContaining({ kind: 'error', error: expect.objectContaining({ code: 'UNKNOWN_CHANNEL' }) }),
      {
        kind: 'response',
        id: 7,
        result: expect.objectContaining({ ok: false, error: expect.objectContaining({ code: 'UNKNOWN_CHANNEL' }) }),
      },
      { kind: 'response', id: 8, result: expect.objectContaining({ ok: true }) },
    ]);
  });
});

describe('web host under random frames', () => {
  it('survives hundreds of random frames and keeps answering', async () => {
    const raw = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=test-token-123`, {
      headers: { Origin: `http://127.0.0.1:${host.port}` },
    });
    const frames: { kind?: string; id?: number }[] = [];
    raw.on('message', (data) => frames.push(JSON.parse(data.toString()) as { kind?: string; id?: number }));
    await new Promise((resolve) => raw.on('open', resolve));
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pieces = [
      '{',
      '}',
      '[',
      ']',
      '"kind"',
      '"request"',
      '"subscribe"',
      ':',
      ',',
      '"id"',
      '1',
      '-1',
      'null',
      '"channel"',
      '"app/info"',
      '"payload"',
      '"__proto__"',
      '\u0000',
      '"events"',
    ];
    for (let index = 0; index < 300; index++) {
      const frame = Array.from(
        { length: 1 + Math.floor(random() * 12) },
        () => pieces[Math.floor(random() * pieces.length)],
      ).join('');
      raw.send(index % 10 === 0 ? Buffer.from([0xff, 0xfe, index % 256]) : frame);
    }
    raw.send(JSON.stringify({ kind: 'request', id: 99_999, channel: 'app/info', payload: {} }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(frames.find((frame) => frame.kind === 'response' && frame.id === 99_999)).toMatchObject({
      kind: 'response',
      id: 99_999,
      result: { ok: true },
    });
    raw.close();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
