import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlowModelServer {
  /** The `openai:` model spec pointing at this server. */
  spec: string;
  /** Chat requests received so far. */
  requests: number;
  close(): Promise<void>;
}

/**
 * A loopback OpenAI-compatible server that streams each answer slowly, piece by piece, as a local
 * model would: the window's live token stream can be watched while the agent works.
 */
export async function startSlowModelServer(
  answers: unknown[],
  options: { pieceChars?: number; pieceDelayMs?: number } = {},
): Promise<SlowModelServer> {
  const pieceChars = options.pieceChars ?? 6;
  const pieceDelayMs = options.pieceDelayMs ?? 40;
  const state = { requests: 0 };
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
        response.writeHead(404).end();
        return;
      }
      const answer = JSON.stringify(answers[Math.min(state.requests, answers.length - 1)]);
      state.requests += 1;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const pieces = answer.match(new RegExp(`[\\s\\S]{1,${pieceChars}}`, 'g')) ?? [];
      let index = 0;
      const timer = setInterval(() => {
        if (response.destroyed) return clearInterval(timer);
        const piece = pieces[index++];
        if (piece !== undefined) {
          response.write(
            `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`,
          );
          return;
        }
        clearInterval(timer);
        response.write(
          `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 900, completion_tokens: pieces.length } })}\n\n`,
        );
        response.end('data: [DONE]\n\n');
      }, pieceDelayMs);
      response.on('close', () => clearInterval(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    spec: `openai:http://127.0.0.1:${port}/v1#slow-local-model`,
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
