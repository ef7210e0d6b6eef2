import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createModelRouter } from '../router';

// 127.0.0.2 stands in for another machine on the team's network: Lathe treats it as another host.
const REMOTE = '127.0.0.2';
const TOKEN_ENV = 'LATHE_TEST_REMOTE_TOKEN';
const Review = z.object({ score: z.number().min(0).max(10), approve: z.boolean() });
const ask = [
  { role: 'system' as const, content: 'You review patches.' },
  { role: 'user' as const, content: 'Review this.' },
];
const sseChunk = (content: string) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

interface Seen {
  authorization: string | undefined;
}
type Behaviour = 'stream' | 'hang' | 'unauthorized';

/** A fake OpenAI-compatible server: streams a review, hangs, or wants a token. */
function handler(seen: Seen[], next: () => Behaviour, hanging: http.ServerResponse[]) {
  return (request: http.IncomingMessage, response: http.ServerResponse) => {
    request.resume();
    request.on('end', () => {
      seen.push({ authorization: request.headers.authorization });
      const behaviour = next();
      if (behaviour === 'hang') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(sseChunk('{"score": '));
        hanging.push(response);
        return;
      }
      if (behaviour === 'unauthorized') {
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'invalid api key' } }));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const piece of ['{"score": 8', ', "approve": ', 'true}']) response.write(sseChunk(piece));
      response.end('data: [DONE]\n\n');
    });
  };
}

const seen: Seen[] = [];
const queue: Behaviour[] = [];
const hanging: http.ServerResponse[] = [];
let server: http.Server;
let port = 0;

beforeAll(async () => {
  server = http.createServer(handler(seen, () => queue.shift() ?? 'stream', hanging));
  await new Promise<void>((resolve) => server.listen(0, REMOTE, resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const response of hanging) response.destroy();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen.length = 0;
  queue.length = 0;
  delete process.env[TOKEN_ENV];
});

function remoteRouter(allowedHosts: string[] | undefined) {
  return createModelRouter({
    roles: { supervisor: { model: `openai:http://${REMOTE}:${port}/v1#big-model` } },
    allowedHosts,
    serverTokenEnv: TOKEN_ENV,
  });
}

describe('a model server on another host', () => {
  it('is refused by default, before any connection, with a message naming the setting', async () => {
    const router = remoteRouter(undefined);
    const result = await router.generate({ role: 'supervisor', purpose: 'review_step', messages: ask, schema: Review });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('BAD_MODEL_SPEC');
    expect(!result.ok && result.error.message).toContain('models.allow_hosts');
    expect(seen).toHaveLength(0);
    await router.dispose();
  });

  it('is reached when models.allow_hosts lists it, streaming tokens, with the bearer token from the environment', async () => {
    process.env[TOKEN_ENV] = 'team-secret';
    for (const allowed of [[REMOTE], [`${REMOTE}:${port}`]]) {
      const router = remoteRouter(allowed);
      const tokens: string[] = [];
      const result = await router.generate({
        role: 'supervisor',
        purpose: 'review_step',
        messages: ask,
        schema: Review,
        onToken: (text) => tokens.push(text),
      });
      expect(result.ok && result.value).toEqual({ score: 8, approve: true });
      expect(tokens.join('')).toBe('{"score": 8, "approve": true}');
      await router.dispose();
    }
    expect(seen.map((request) => request.authorization)).toEqual(['Bearer team-secret', 'Bearer team-secret']);
  });

  it('sends no token when the variable is unset, and says which variable a refusing server wants', async () => {
    queue.push('unauthorized');
    const router = remoteRouter([REMOTE]);
    const result = await router.generate({ role: 'supervisor', purpose: 'review_step', messages: ask, schema: Review });
    expect(seen[0]?.authorization).toBeUndefined();
    expect(!result.ok && result.error.message).toMatch(/HTTP 401.*invalid api key.*LATHE_TEST_REMOTE_TOKEN is not set/);
    await router.dispose();
  });

  it('times out and aborts mid-stream as a local server does', async () => {
    queue.push('hang', 'hang');
    const router = remoteRouter([REMOTE]);
    const timedOut = await router.generate({
      role: 'supervisor',
      purpose: 'review_step',
      messages: ask,
      schema: Review,
      timeoutMs: 300,
      onToken: () => {},
    });
    expect(!timedOut.ok && timedOut.error.code).toBe('TIMEOUT');
    const controller = new AbortController();
    const aborted = router.generate({
      role: 'supervisor',
      purpose: 'review_step',
      messages: ask,
      schema: Review,
      signal: controller.signal,
      onToken: () => controller.abort(),
    });
    const result = await aborted;
    expect(!result.ok && result.error.code).toBe('ABORTED');
    expect(!result.ok && result.raw).toBe('{"score": ');
    await router.dispose();
  });
});

describe('a model server on another host over https', () => {
  // Inside the repository, so the child's script resolves zod from its node_modules.
  const root = path.resolve(import.meta.dirname, '..', '..', '..', '..');
  fs.mkdirSync(path.join(root, '.cache'), { recursive: true });
  const dir = fs.mkdtempSync(path.join(root, '.cache', 'lathe-tls-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('verifies the server certificate: trusted through NODE_EXTRA_CA_CERTS, refused without it', async (context) => {
    const cert = path.join(dir, 'cert.pem');
    const key = path.join(dir, 'key.pem');
    const made = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        `/CN=${REMOTE}`,
        '-addext',
        `subjectAltName=IP:${REMOTE}`,
      ],
      { encoding: 'utf8' },
    );
    if (made.status !== 0)
      context.skip(`openssl could not make a test certificate: ${made.stderr || made.error?.message}`);
    const tlsSeen: Seen[] = [];
    const tlsServer = https.createServer(
      { cert: fs.readFileSync(cert), key: fs.readFileSync(key) },
      handler(tlsSeen, () => 'stream', []),
    );
    await new Promise<void>((resolve) => tlsServer.listen(0, REMOTE, resolve));
    const url = `https://${REMOTE}:${(tlsServer.address() as AddressInfo).port}/v1`;
    // A child process: Node reads NODE_EXTRA_CA_CERTS (how a team trusts its own CA) only at start.
    const script = path.join(dir, 'call.mts');
    fs.writeFileSync(
      script,
      `import { createModelRouter } from ${JSON.stringify(path.resolve(import.meta.dirname, '..', 'router.ts'))};
import { z } from 'zod';
const router = createModelRouter({ roles: { supervisor: { model: ${JSON.stringify(`openai:${url}#big-model`)} } }, allowedHosts: [${JSON.stringify(REMOTE)}], serverTokenEnv: ${JSON.stringify(TOKEN_ENV)} });
const result = await router.generate({ role: 'supervisor', purpose: 'review_step', messages: [{ role: 'user', content: 'Review this.' }], schema: z.object({ score: z.number(), approve: z.boolean() }), onToken: () => {} });
process.stdout.write(JSON.stringify(result.ok ? { value: result.value } : { error: result.error }));
await router.dispose();
`,
    );
    const call = (env: NodeJS.ProcessEnv) =>
      new Promise<{ value?: unknown; error?: { code: string; message: string } }>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', script], {
          cwd: root,
          env: { ...process.env, ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
        child.on('exit', () => {
          try {
            resolve(JSON.parse(out) as { value?: unknown; error?: { code: string; message: string } });
          } catch {
            reject(new Error(`no result: ${out} ${err}`));
          }
        });
      });
    try {
      const trusted = await call({ NODE_EXTRA_CA_CERTS: cert, [TOKEN_ENV]: 'tls-secret' });
      expect(trusted, JSON.stringify(trusted)).toEqual({ value: { score: 8, approve: true } });
      expect(tlsSeen.map((request) => request.authorization)).toEqual(['Bearer tls-secret']);
      const untrusted = await call({ NODE_EXTRA_CA_CERTS: '' });
      expect(untrusted.error?.code).toBe('PROVIDER_ERROR');
      expect(untrusted.error?.message).toMatch(/SELF_SIGNED|certificate/i);
      expect(tlsSeen).toHaveLength(1);
    } finally {
      await new Promise((resolve) => tlsServer.close(resolve));
    }
  }, 60_000);
});
