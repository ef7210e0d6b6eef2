import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateWithRetries, type AgentUsage } from '../../agents/runAgent';
import { createModelRouter } from '../router';
import type { LlmEvent, RoleModelConfig } from '../types';

/** What the fake server does with the next request. */
type Behaviour =
  | { kind: 'json'; status?: number; body: unknown }
  | { kind: 'text'; status: number; body: string }
  | { kind: 'sse'; events: string[] }
  | { kind: 'hang' };

interface Received {
  url: string;
  body: Record<string, unknown>;
}

const Review = z.object({ score: z.number().min(0).max(10), approve: z.boolean() });
const ask = [
  { role: 'system' as const, content: 'You review patches.' },
  { role: 'user' as const, content: 'Review this.' },
];
const completion = (content: string, usage?: object) => ({
  id: 'x',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage,
});
const sseChunk = (content: string) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

let server: http.Server;
let baseUrl: string;
const queue: Behaviour[] = [];
const received: Received[] = [];
const hanging: http.ServerResponse[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let data = '';
    request.on('data', (chunk: Buffer) => (data += chunk.toString()));
    request.on('end', () => {
      received.push({ url: request.url ?? '', body: JSON.parse(data) as Record<string, unknown> });
      const behaviour = queue.shift() ?? { kind: 'text', status: 500, body: 'no behaviour queued' };
      if (behaviour.kind === 'hang') {
        hanging.push(response);
        return;
      }
      if (behaviour.kind === 'sse') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const event of behaviour.events) response.write(event);
        response.end();
        return;
      }
      if (behaviour.kind === 'text') {
        response.writeHead(behaviour.status, { 'content-type': 'text/plain' });
        response.end(behaviour.body);
        return;
      }
      response.writeHead(behaviour.status ?? 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(behaviour.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  for (const response of hanging) response.destroy();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  queue.length = 0;
  received.length = 0;
});

function routerFor(config: Partial<RoleModelConfig> = {}, allowedHosts?: string[]) {
  const events: LlmEvent[] = [];
  const router = createModelRouter({
    roles: { supervisor: { model: `openai:${baseUrl}#test-model`, ...config } },
    onEvent: (event) => events.push(event),
    allowedHosts,
  });
  return { router, events };
}

describe('OpenAI-compatible provider', () => {
  it('posts the chat, the output schema as response_format and the role settings, then validates the reply', async () => {
    queue.push({
      kind: 'json',
      body: completion('{"score": 8, "approve": true}', {
        prompt_tokens: 31,
        completion_tokens: 9,
        prompt_tokens_details: { cached_tokens: 20 },
      }),
    });
    const { router } = routerFor({ temperature: 0.1, maxTokens: 64 });
    const result = await router.generate({ role: 'supervisor', messages: ask, schema: Review });
    expect(result).toMatchObject({ ok: true, value: { score: 8, approve: true } });
    expect(result.ok && result.usage).toMatchObject({
      model: `openai:${baseUrl}#test-model`,
      promptTokens: 31,
      completionTokens: 9,
      reusedPrefixTokens: 20,
    });
    expect(received[0]?.url).toBe('/v1/chat/completions');
    expect(received[0]?.body).toMatchObject({
      model: 'test-model',
      messages: ask,
      temperature: 0.1,
      max_tokens: 64,
      stream: false,
    });
    const format = received[0]?.body.response_format as {
      type: string;
      json_schema: { schema: Record<string, unknown> };
    };
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.schema).toMatchObject({ type: 'object', required: ['score', 'approve'] });
    expect(format.json_schema.schema).not.toHaveProperty('$schema');
  });

  it('streams server-sent events as token events and reads usage from the last chunk', async () => {
    queue.push({
      kind: 'sse',
      events: [
        sseChunk('{"score"'),
        sseChunk(': 3, "approve"'),
        sseChunk(': false}'),
        `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 12, completion_tokens: 5 } })}\n\n`,
        'data: [DONE]\n\n',
      ],
    });
    const { router, events } = routerFor();
    const tokens: string[] = [];
    const result = await router.generate({
      role: 'supervisor',
      messages: ask,
      schema: Review,
      onToken: (text) => tokens.push(text),
    });
    expect(result).toMatchObject({
      ok: true,
      value: { score: 3, approve: false },
      raw: '{"score": 3, "approve": false}',
    });
    expect(tokens).toEqual(['{"score"', ': 3, "approve"', ': false}']);
    expect(events.filter((event) => event.type === 'token')).toHaveLength(3);
    expect(received[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(result.ok && result.usage).toMatchObject({ promptTokens: 12, completionTokens: 5 });
  });

  it("sums a retried call's tokens with the server's cached counts: cached + prefill = prompt, the counts real", async () => {
    // A first answer that does not validate, then a retry the server serves mostly from its prompt cache.
    queue.push({
      kind: 'json',
      body: completion('{"score": 99}', {
        prompt_tokens: 400,
        completion_tokens: 6,
        prompt_tokens_details: { cached_tokens: 0 },
      }),
    });
    queue.push({
      kind: 'json',
      body: completion('{"score": 7, "approve": true}', {
        prompt_tokens: 430,
        completion_tokens: 9,
        prompt_tokens_details: { cached_tokens: 390 },
      }),
    });
    const { router } = routerFor();
    const usage: AgentUsage = { prompt_tokens: 0, completion_tokens: 0 };
    const call = await generateWithRetries(
      { role: 'supervisor', messages: ask, schema: Review },
      { router, retries: 1, backoffMs: 0 },
      usage,
    );
    expect(call).toMatchObject({ calls: 2, last: { ok: true } });
    expect(usage).toMatchObject({ prompt_tokens: 830, cached_tokens: 390, completion_tokens: 15 });
    expect(usage.estimated).toBeUndefined();
    const prefill = usage.prompt_tokens - (usage.cached_tokens ?? 0);
    expect(prefill).toBe(400 + (430 - 390));
  });

  it('never counts more cached tokens than prompt tokens, and marks counts the server did not give as estimated', async () => {
    queue.push({
      kind: 'json',
      body: completion('{"score": 7, "approve": true}', {
        prompt_tokens: 10,
        completion_tokens: 9,
        prompt_tokens_details: { cached_tokens: 64 },
      }),
    });
    queue.push({ kind: 'json', body: completion('{"score": 7, "approve": true}') });
    const { router } = routerFor();
    const over = await router.generate({ role: 'supervisor', messages: ask, schema: Review });
    expect(over.usage).toMatchObject({ promptTokens: 10, reusedPrefixTokens: 10 });
    expect(over.usage?.estimated).toBeUndefined();
    const silent = await router.generate({ role: 'supervisor', messages: ask, schema: Review });
    expect(silent.usage).toMatchObject({ reusedPrefixTokens: 0, estimated: true });
    expect(silent.usage?.promptTokens).toBeGreaterThan(0);
  });

  it('marks an answer the server stopped at max_tokens as cut off (cutOffAt), an unparsable finished one not', async () => {
    const cut = {
      id: 'x',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: '{"score": 8, "appr' }, finish_reason: 'length' }],
    };
    queue.push({ kind: 'json', body: cut }, { kind: 'json', body: completion('{"score": 8, "appr') });
    const { router } = routerFor({ maxTokens: 16 });
    const stopped = await router.generate({ role: 'supervisor', messages: ask, schema: Review });
    expect(stopped).toMatchObject({
      ok: false,
      raw: '{"score": 8, "appr',
      error: {
        code: 'INVALID_OUTPUT',
        retryable: true,
        cutOffAt: 16,
        message: expect.stringContaining('(cut at maxTokens 16)'),
      },
    });
    expect(stopped.ok || stopped.usage).toMatchObject({ model: `openai:${baseUrl}#test-model` });
    const malformed = await router.generate({ role: 'supervisor', messages: ask, schema: Review });
    expect(malformed.ok || malformed.error.cutOffAt).toBeUndefined();
  });

  it('turns a malformed body into a retryable PROVIDER_ERROR', async () => {
    queue.push({ kind: 'text', status: 200, body: '<html>proxy error</html>' });
    const { router } = routerFor();
    const result = await router.generate({ role: 'supervisor', messages: ask, schema: Review });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'PROVIDER_ERROR', retryable: true, message: expect.stringContaining('not JSON') },
    });

    queue.push({ kind: 'json', body: { choices: [{ message: { role: 'assistant' } }] } });
    const missing = await router.generate({ role: 'supervisor', messages: ask, schema: Review });
    expect(missing).toMatchObject({
      ok: false,
      error: { code: 'PROVIDER_ERROR', message: expect.stringContaining('choices[0].message.content') },
    });

    queue.push({ kind: 'sse', events: [sseChunk('{"sc'), 'data: {broken\n\n'] });
    const broken = await router.generate({
      role: 'supervisor',
      messages: ask,
      schema: Review,
      onToken: () => undefined,
    });
    expect(broken).toMatchObject({
      ok: false,
      error: { code: 'PROVIDER_ERROR', message: expect.stringContaining('malformed stream event') },
      raw: '{"sc',
    });
  });

  it('keeps the raw text when the reply is not valid output', async () => {
    queue.push({ kind: 'json', body: completion('Sure! Here is my review: looks good') });
    const { router } = routerFor();
    const result = await router.generate({ role: 'supervisor', messages: ask, schema: Review });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'INVALID_OUTPUT', retryable: true },
      raw: 'Sure! Here is my review: looks good',
    });
  });

  it('times out a server that never answers', async () => {
    queue.push({ kind: 'hang' });
    const { router } = routerFor();
    const started = Date.now();
    const result = await router.generate({ role: 'supervisor', messages: ask, schema: Review, timeoutMs: 150 });
    expect(result).toMatchObject({ ok: false, error: { code: 'TIMEOUT', retryable: true } });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('cancels on the AbortSignal', async () => {
    queue.push({ kind: 'hang' });
    const { router } = routerFor();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const result = await router.generate({
      role: 'supervisor',
      messages: ask,
      schema: Review,
      signal: controller.signal,
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
  });

  it('reports HTTP errors with the server message; 5xx is retryable, 4xx is not', async () => {
    queue.push({ kind: 'json', status: 503, body: { error: { message: 'model is loading' } } });
    queue.push({ kind: 'json', status: 404, body: { error: 'model "test-model" not found' } });
    const { router } = routerFor();
    const busy = await router.generate({ role: 'supervisor', messages: ask, schema: Review });
    expect(busy).toMatchObject({
      ok: false,
      error: { code: 'PROVIDER_ERROR', retryable: true, message: 'the server answered HTTP 503: model is loading' },
    });
    const missing = await router.generate({ role: 'supervisor', messages: ask, schema: Review });
    expect(missing).toMatchObject({
      ok: false,
      error: { code: 'PROVIDER_ERROR', retryable: false, message: expect.stringContaining('not found') },
    });
  });

  it('retries once without response_format when the server refuses it', async () => {
    queue.push({
      kind: 'json',
      status: 400,
      body: { error: { message: "unsupported response_format type 'json_schema'" } },
    });
    queue.push({ kind: 'json', body: completion('{"score": 5, "approve": true}') });
    const { router } = routerFor();
    const result = await router.generate({ role: 'supervisor', messages: ask, schema: Review });
    expect(result.ok).toBe(true);
    expect(received).toHaveLength(2);
    expect(received[1]?.body).not.toHaveProperty('response_format');
  });

  it('refuses a non-loopback host before any connection, unless the host is allowed', async () => {
    const router = createModelRouter({ roles: { supervisor: { model: 'openai:http://10.1.2.3:8080/v1#m' } } });
    const result = await router.generate({ role: 'supervisor', messages: ask, schema: Review });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'BAD_MODEL_SPEC', retryable: false, message: expect.stringContaining('models.allow_hosts') },
    });
    expect(received).toHaveLength(0);

    // An already-aborted call gets past the spec check without opening a connection.
    const allowed = createModelRouter({
      roles: { supervisor: { model: 'openai:http://gpu-box.lan:8080/v1#m' } },
      allowedHosts: ['gpu-box.lan'],
    });
    const passed = await allowed.generate({
      role: 'supervisor',
      messages: ask,
      schema: Review,
      signal: AbortSignal.abort(),
    });
    expect(passed).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
  });

  it('says the server is unreachable when nothing listens', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const router = createModelRouter({ roles: { supervisor: { model: `openai:http://127.0.0.1:${port}/v1#m` } } });
    const result = await router.generate({ role: 'supervisor', messages: ask, schema: Review });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'PROVIDER_ERROR',
        retryable: true,
        message: expect.stringMatching(/ECONNREFUSED.*server running/),
      },
    });
  });
});
