import fs from 'node:fs';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Handlers } from '../../../shared/contract/api';
import { MAX_FRAME_BYTES } from '../../../shared/contract/wire';
import type { EventBus } from '../runs/eventBus';
import { checkAccess, newAccessToken, TOKEN_MISSING, tokenCookie } from './accessGuard';
import { ACCESS_PAGE_POLICY, accessPage } from './accessPage';
import { SocketSession } from './socketSession';
import { resolveStaticFile } from './staticFiles';

export interface WebHostOptions {
  /** 0 picks a free port. */
  port: number;
  rendererDir: string;
  handlers: Handlers;
  events: EventBus;
  token?: string;
  /** Extra query parameters for the printed URL, such as the repo to open. */
  launchQuery?: Record<string, string>;
  /** One line per client connection the host had to close (a bad frame, a flood); stderr by default. */
  log?: (line: string) => void;
}

export interface WebHost {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "worker-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Serves the built renderer and the WebSocket contract on 127.0.0.1 only, behind a per-launch token. */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? newAccessToken();
  const rendererDir = fs.realpathSync(options.rendererDir);
  const sessions = new Set<SocketSession>();
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  let port = options.port;

  const server = http.createServer((request, response) => {
    const access = checkAccess(request, port, token, false);
    if (!access.allowed)
      return access.reason === TOKEN_MISSING ? askForLink(response, port) : deny(response, access.reason);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const file = resolveStaticFile(rendererDir, url.pathname);
    if (!file) {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found');
      return;
    }
    const headers: http.OutgoingHttpHeaders = {
      'Content-Type': file.contentType,
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      // Built assets carry a content hash in their name, so the browser may keep them (and its compiled
      // Monaco) for good; the page itself is never cached.
      'Cache-Control': /^\/assets\/[^/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/.test(url.pathname)
        ? 'public, max-age=31536000, immutable'
        : 'no-store',
    };
    if (access.viaQuery) headers['Set-Cookie'] = tokenCookie(token);
    response.writeHead(200, headers);
    if (request.method === 'HEAD') return void response.end();
    fs.createReadStream(file.absolutePath).pipe(response);
  });

  server.on('upgrade', (request, socket: Duplex, head) => {
    // Until ws takes the socket over, a reset from the client would be an unhandled 'error' that ends the process.
    socket.on('error', () => socket.destroy());
    const access = checkAccess(request, port, token, true);
    const pathname = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (!access.allowed || pathname !== '/ws') {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (webSocket) => {
      const session = new SocketSession(webSocket, options.handlers, log);
      sessions.add(session);
      webSocket.on('close', () => sessions.delete(session));
    });
  });

  const unsubscribe = options.events.subscribe((name, payload) => {
    for (const session of sessions) session.push(name, payload);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : options.port;
  const query = new URLSearchParams({ token, ...options.launchQuery });

  return {
    url: `http://127.0.0.1:${port}/?${query.toString()}`,
    port,
    token,
    close: async () => {
      unsubscribe();
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A person followed an address without the token: say how to get a working link (still 403, nothing served). */
function askForLink(response: http.ServerResponse, port: number): void {
  response
    .writeHead(403, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': ACCESS_PAGE_POLICY,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    })
    .end(accessPage(port));
}

function deny(response: http.ServerResponse, reason: string): void {
  response.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`forbidden: ${reason}`);
}
