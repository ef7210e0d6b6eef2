/** The parts of the OpenAI chat-completions wire format Lathe reads, checked by hand (servers vary). */

export interface CompletionUsage {
  promptTokens?: number;
  completionTokens?: number;
  cachedTokens?: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const count = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;

export function readUsage(body: unknown): CompletionUsage | undefined {
  if (!isRecord(body) || !isRecord(body.usage)) return undefined;
  const details = isRecord(body.usage.prompt_tokens_details) ? body.usage.prompt_tokens_details : {};
  return {
    promptTokens: count(body.usage.prompt_tokens),
    completionTokens: count(body.usage.completion_tokens),
    cachedTokens: count(details.cached_tokens),
  };
}

/** `choices[0].message.content` of a non-streamed reply, or null when the body is not that shape. */
export function readMessage(body: unknown): { content: string; finishReason: string | null } | null {
  if (!isRecord(body) || !Array.isArray(body.choices)) return null;
  const choice: unknown = body.choices[0];
  if (!isRecord(choice) || !isRecord(choice.message)) return null;
  const content = choice.message.content;
  if (typeof content !== 'string') return null;
  return { content, finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null };
}

/** One streamed chunk: its text delta (possibly empty), finish reason and usage when present. */
export function readChunk(
  body: unknown,
): { text: string; finishReason: string | null; usage?: CompletionUsage } | null {
  if (!isRecord(body) || !Array.isArray(body.choices)) return null;
  const choice: unknown = body.choices[0];
  const usage = readUsage(body);
  if (choice === undefined) return { text: '', finishReason: null, usage };
  if (!isRecord(choice)) return null;
  const delta = isRecord(choice.delta) ? choice.delta : {};
  const text = typeof delta.content === 'string' ? delta.content : '';
  return { text, finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null, usage };
}

/** The server's error message from an error body (`{"error": {"message": …}}` or `{"error": "…"}`). */
export function readErrorMessage(text: string): string {
  try {
    const body: unknown = JSON.parse(text);
    if (isRecord(body)) {
      if (isRecord(body.error) && typeof body.error.message === 'string') return body.error.message;
      if (typeof body.error === 'string') return body.error;
    }
  } catch {
    // catch-ok: not JSON: fall through to the raw text
  }
  return text.trim().slice(0, 300);
}

/** Splits an SSE byte stream into `data:` payloads. */
export async function* sseData(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let boundary: number;
      while ((boundary = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const event = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary).replace(/^\r?\n\r?\n/, '');
        const data = event
          .split(/\r?\n/)
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).replace(/^ /, ''))
          .join('\n');
        if (data !== '') yield data;
      }
    }
    const tail = buffer.trim();
    if (tail.startsWith('data:')) yield tail.slice(5).trim();
  } finally {
    reader.releaseLock();
  }
}
