import { zodToJsonSchema } from '../grammar/jsonSchema';
import { parseModelOutput } from '../output';
import { cutOffFailure, estimateTokens, failure, tokensPerSecond, withUsage } from '../results';
import type { ChatMessage, GenerateResult, GenerationUsage } from '../types';
import { readChunk, readErrorMessage, readMessage, readUsage, sseData, type CompletionUsage } from './openaiWire';
import {
  DEFAULT_MAX_TOKENS,
  DEFAULT_TEMPERATURE,
  fitByEstimate,
  stoppedResult,
  type Provider,
  type ProviderCall,
} from './provider';

interface ServerReply {
  text: string;
  finishReason: string | null;
  usage: CompletionUsage | undefined;
  firstTokenAt: number | null;
}

class ServerError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * An OpenAI-compatible chat-completions server (Ollama, llama-server, LM Studio, vLLM): on this
 * machine, or on another host `models.allow_hosts` lists (https when the URL says so, with a bearer
 * token from the environment). The output schema goes in `response_format` so servers that constrain
 * decoding do; the reply is validated here either way.
 */
export class OpenAiProvider implements Provider {
  /** Set after a server refused `response_format`; later calls rely on the prompt and validation. */
  private schemaUnsupported = false;

  constructor(
    private readonly baseUrl: string,
    private readonly model: string,
    private readonly token?: { envName: string; read: () => string | undefined },
  ) {}

  async generate<T>(call: ProviderCall<T>): Promise<GenerateResult<T>> {
    const fitted = fitByEstimate(call);
    if (!fitted.ok) return fitted.result;
    const started = Date.now();
    call.callSignal.startTimer();
    const streamed: string[] = [];
    let reply: ServerReply;
    try {
      reply = await this.request(call, fitted.fit.messages, streamed);
    } catch (error) {
      const partial = streamed.join('');
      if (call.callSignal.signal.aborted) return stoppedResult(call, partial === '' ? null : partial);
      if (error instanceof ServerError)
        return failure<T>('PROVIDER_ERROR', error.message, {
          retryable: error.retryable,
          raw: partial === '' ? null : partial,
        });
      return failure<T>(
        'PROVIDER_ERROR',
        `cannot reach ${this.baseUrl}: ${describeNetworkError(error)}; is the model server running?`,
        { retryable: true },
      );
    }
    const totalMs = Date.now() - started;
    const completionTokens =
      reply.usage?.completionTokens ?? (streamed.length > 0 ? streamed.length : estimateTokens(reply.text));
    const timeToFirstTokenMs = reply.firstTokenAt === null ? totalMs : reply.firstTokenAt - started;
    const promptTokens = reply.usage?.promptTokens ?? fitted.fit.promptTokens;
    const usage: GenerationUsage = {
      model: call.spec,
      promptTokens,
      completionTokens,
      // A server that says nothing of its cache is counted as having reused nothing.
      reusedPrefixTokens: Math.min(reply.usage?.cachedTokens ?? 0, promptTokens),
      ...(reply.usage?.promptTokens === undefined || reply.usage.completionTokens === undefined
        ? { estimated: true }
        : {}),
      timeToFirstTokenMs,
      totalMs,
      tokensPerSecond: tokensPerSecond(completionTokens, totalMs, timeToFirstTokenMs),
    };
    const parsed = parseModelOutput(reply.text, call.request.schema);
    if (!parsed.ok) {
      if (reply.finishReason === 'length')
        return withUsage(
          cutOffFailure<T>(parsed.message, call.config.maxTokens ?? DEFAULT_MAX_TOKENS, reply.text),
          usage,
        );
      return failure<T>('INVALID_OUTPUT', parsed.message, { raw: reply.text, usage });
    }
    return { ok: true, value: parsed.value, raw: reply.text, usage, droppedContext: fitted.fit.dropped };
  }

  private async request<T>(call: ProviderCall<T>, messages: ChatMessage[], streamed: string[]): Promise<ServerReply> {
    const stream = call.request.onToken !== undefined;
    try {
      return await this.post(call, messages, stream, streamed, !this.schemaUnsupported);
    } catch (error) {
      // Older servers reject json_schema response formats; retry once relying on validation alone.
      if (
        error instanceof ServerError &&
        error.status === 400 &&
        /response_format|json_schema/i.test(error.message) &&
        !this.schemaUnsupported
      ) {
        this.schemaUnsupported = true;
        return this.post(call, messages, stream, streamed, false);
      }
      throw error;
    }
  }

  private async post<T>(
    call: ProviderCall<T>,
    messages: ChatMessage[],
    stream: boolean,
    streamed: string[],
    withSchema: boolean,
  ): Promise<ServerReply> {
    const schema = zodToJsonSchema(call.request.schema);
    delete schema.$schema;
    const body: Record<string, unknown> = {
      model: this.model,
      messages,
      temperature: call.config.temperature ?? DEFAULT_TEMPERATURE,
      max_tokens: call.config.maxTokens ?? DEFAULT_MAX_TOKENS,
      stream,
    };
    if (withSchema)
      body.response_format = {
        type: 'json_schema',
        json_schema: { name: `${call.role}_output`, strict: true, schema },
      };
    if (stream) body.stream_options = { include_usage: true };
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
    };
    const token = this.token?.read();
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await fetch(`${this.baseUrl}/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: call.callSignal.signal,
    });
    if (!response.ok) {
      // catch-ok: the HTTP status is the error reported; the body only adds the server's words when it can be read
      const text = await response.text().catch(() => '');
      const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
      throw new ServerError(
        `the server answered HTTP ${response.status}: ${readErrorMessage(text) || response.statusText}${this.authHint(response.status, token)}`,
        retryable,
        response.status,
      );
    }
    const contentType = response.headers.get('content-type') ?? '';
    if (stream && contentType.includes('text/event-stream') && response.body)
      return this.readStream(call, response.body, streamed);
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      throw new ServerError(`the server's reply is not JSON: ${JSON.stringify(text.slice(0, 200))}`, true);
    }
    const message = readMessage(json);
    if (!message)
      throw new ServerError(
        `the server's reply has no choices[0].message.content: ${JSON.stringify(text.slice(0, 200))}`,
        true,
      );
    if (stream && message.content !== '') {
      streamed.push(message.content);
      call.emitToken(message.content);
    }
    return { text: message.content, finishReason: message.finishReason, usage: readUsage(json), firstTokenAt: null };
  }

  private async readStream<T>(
    call: ProviderCall<T>,
    body: ReadableStream<Uint8Array>,
    streamed: string[],
  ): Promise<ServerReply> {
    let finishReason: string | null = null;
    let usage: CompletionUsage | undefined;
    let firstTokenAt: number | null = null;
    for await (const data of sseData(body)) {
      if (data.trim() === '[DONE]') break;
      let json: unknown;
      try {
        json = JSON.parse(data);
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
        throw new ServerError(`the server sent a malformed stream event: ${JSON.stringify(data.slice(0, 200))}`, true);
      }
      const chunk = readChunk(json);
      if (!chunk)
        throw new ServerError(
          `the server sent a stream event without choices: ${JSON.stringify(data.slice(0, 200))}`,
          true,
        );
      if (chunk.text !== '') {
        firstTokenAt ??= Date.now();
        streamed.push(chunk.text);
        call.emitToken(chunk.text);
      }
      finishReason = chunk.finishReason ?? finishReason;
      usage = chunk.usage ?? usage;
    }
    return { text: streamed.join(''), finishReason, usage, firstTokenAt };
  }

  private authHint(status: number, token: string | undefined): string {
    if (status !== 401 && status !== 403) return '';
    if (!this.token) return ' (a server that wants a token: name its environment variable in models.token_env)';
    return token ? ` (the token in ${this.token.envName} was refused)` : ` (${this.token.envName} is not set)`;
  }

  async dispose(): Promise<void> {}
}

function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error && typeof error.cause === 'object' && error.cause !== null ? error.cause : null;
  const code = cause !== null && 'code' in cause ? String(cause.code) : null;
  const message = error instanceof Error ? error.message : String(error);
  return code ? `${code} (${message})` : message;
}
