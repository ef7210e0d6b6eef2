import { TokenBias, type LlamaGrammar, type LlamaModel } from 'node-llama-cpp';
import { isLatheError, type ErrorCode } from '../../../../shared/errors';
import { untilAborted } from '../callSignal';
import { fitContext } from '../contextFit';
import { grammarForSchema, relaxRepetitions } from '../grammar';
import { GbnfMatcher } from '../grammar/gbnfMatcher';
import { parseGbnf, type ParsedGrammar } from '../grammar/gbnfParser';
import { decodeAnswer, type DecodedAnswer } from '../llama/decodeAnswer';
import type { LlamaModelPool, LoadedModel } from '../llama/modelPool';
import type { RoleSession } from '../llama/roleSession';
import { parseModelOutput } from '../output';
import { cutOffFailure, failure, tokensPerSecond, withUsage } from '../results';
import type { GenerateResult, GenerationUsage, PromptCounter, RoleModelConfig } from '../types';
import type { GenerationErrorCode } from '../../../../shared/errors';
import type { ModelRole } from '../../../../shared/schemas/roles';
import {
  DEFAULT_MAX_TOKENS,
  DEFAULT_TEMPERATURE,
  overflow,
  reportDropped,
  stoppedResult,
  type Provider,
  type ProviderCall,
} from './provider';

export interface LlamaSampling {
  /** Call n of a role samples with seed + n: runs repeat exactly, retries still differ. */
  seed?: number;
  /** Ban tokens that decode to U+FFFD alone (random-weight test models emit lone UTF-8 bytes). */
  banIncompleteUtf8Tokens?: boolean;
}

interface LoadedGrammar {
  grammar: LlamaGrammar;
  /** Null when the matcher cannot follow this grammar: the answer is then neither steered nor ended early. */
  parsed: ParsedGrammar | null;
}

const PASSED_ON_CODES: readonly ErrorCode[] = ['MODEL_LOAD_FAILED', 'INSUFFICIENT_MEMORY', 'CONTEXT_OVERFLOW'];

function isPassedOn(
  code: ErrorCode,
): code is Extract<GenerationErrorCode, 'MODEL_LOAD_FAILED' | 'INSUFFICIENT_MEMORY' | 'CONTEXT_OVERFLOW'> {
  return PASSED_ON_CODES.includes(code);
}

/** A local GGUF model through node-llama-cpp, its output constrained by the schema's grammar. */
export class LlamaProvider implements Provider {
  private readonly grammars = new Map<string, Promise<LoadedGrammar>>();

  constructor(
    private readonly spec: string,
    private readonly modelPath: string,
    private readonly pool: LlamaModelPool,
    private readonly sampling: LlamaSampling,
    /** The router this provider belongs to: its roles' contexts are its own in a shared pool. */
    private readonly owner = '',
  ) {}

  /**
   * The role's own tokenizer and chat template, and the window its context really has: loads the model
   * and creates the role's context as the call would, so planning costs no extra load.
   */
  async counter(role: ModelRole, config: RoleModelConfig): Promise<PromptCounter> {
    const loaded = await this.pool.acquire(this.spec, this.modelPath, config.contextSize);
    try {
      const session = await this.pool.session(
        loaded,
        role,
        config.contextSize,
        this.owner,
        config.promptLookup === true,
      );
      return {
        exact: true,
        contextSize: session.contextSize,
        countPrompt: (messages) => session.promptTokens(messages).length,
        countText: (text) => loaded.model.tokenize(text).length,
      };
    } finally {
      this.pool.release(loaded);
    }
  }

  async generate<T>(call: ProviderCall<T>): Promise<GenerateResult<T>> {
    const acquiring = this.pool.acquire(this.spec, this.modelPath, call.config.contextSize, call.emit);
    let loaded: LoadedModel;
    try {
      loaded = await untilAborted(acquiring, call.callSignal.signal);
    } catch (error) {
      acquiring.then(
        (late) => this.pool.release(late),
        () => undefined,
      );
      if (call.callSignal.signal.aborted) return stoppedResult(call, null);
      return failure<T>(errorCode(error, 'MODEL_LOAD_FAILED'), errorMessage(error));
    }
    try {
      const session = await this.pool.session(
        loaded,
        call.role,
        call.config.contextSize,
        this.owner,
        call.config.promptLookup === true,
      );
      call.callSignal.startTimer();
      // Not raced with the signal: generation stops within a token, and then the partial text is kept.
      return await session.exclusive(() => this.run(call, loaded, session));
    } catch (error) {
      if (call.callSignal.signal.aborted) return stoppedResult(call, null);
      return failure<T>(errorCode(error, 'PROVIDER_ERROR'), errorMessage(error));
    } finally {
      this.pool.release(loaded);
    }
  }

  private async run<T>(call: ProviderCall<T>, loaded: LoadedModel, session: RoleSession): Promise<GenerateResult<T>> {
    if (call.callSignal.signal.aborted) return stoppedResult(call, null);
    const started = Date.now();
    const maxTokens = call.config.maxTokens ?? DEFAULT_MAX_TOKENS;
    const fit = fitContext({
      messages: call.request.messages,
      context: call.request.context,
      budgetTokens: session.contextSize - maxTokens,
      countPrompt: (messages) => session.promptTokens(messages).length,
      countText: (text) => loaded.model.tokenize(text).length,
    });
    if (!fit.ok) return overflow(fit.mandatoryTokens, session.contextSize, maxTokens);
    reportDropped(call, fit.dropped, session.contextSize, maxTokens);

    const promptTokens = session.promptTokens(fit.messages);
    const grammar = await this.grammar(loaded, call.request.schema);
    const seed = (this.sampling.seed ?? 0) + session.calls++;
    const lookupBefore = session.lookupCounts();
    let firstTokenAt: number | null = null;
    let text = '';
    let answer: DecodedAnswer;
    try {
      const lastUser = fit.messages.findLast((message) => message.role === 'user');
      answer = await decodeAnswer({
        sequence: session.sequence,
        model: loaded.model,
        promptTokens,
        lookupInput: session.promptLookup && lastUser ? loaded.model.tokenize(lastUser.content) : undefined,
        grammar: grammar.grammar,
        matcher: grammar.parsed ? new GbnfMatcher(grammar.parsed) : null,
        steer: true,
        maxTokens,
        temperature: call.config.temperature ?? DEFAULT_TEMPERATURE,
        seed,
        tokenBias: this.sampling.banIncompleteUtf8Tokens ? this.replacementCharBias(loaded) : undefined,
        signal: call.callSignal.signal,
        onToken: () => {
          firstTokenAt ??= Date.now();
        },
        onTextChunk: (chunk) => {
          text += chunk;
          call.emitToken(chunk);
        },
      });
    } catch (error) {
      if (call.callSignal.signal.aborted) return stoppedResult(call, text === '' ? null : text);
      throw error;
    }
    text = answer.text;
    // What the sequence kept of its previous tokens and did not evaluate again.
    const reusedPrefixTokens = answer.reusedPromptTokens;
    const stopReason = answer.stopReason;
    const completionTokens = answer.tokens;
    const totalMs = Date.now() - started;
    const timeToFirstTokenMs = (firstTokenAt ?? Date.now()) - started;
    const usage: GenerationUsage = {
      model: this.spec,
      promptTokens: promptTokens.length,
      completionTokens,
      reusedPrefixTokens,
      timeToFirstTokenMs,
      totalMs,
      tokensPerSecond: tokensPerSecond(completionTokens, totalMs, timeToFirstTokenMs),
      steeredTokens: answer.steeredTokens,
    };
    if (session.promptLookup) {
      const lookupAfter = session.lookupCounts();
      usage.lookup = {
        validated: lookupAfter.validated - lookupBefore.validated,
        refuted: lookupAfter.refuted - lookupBefore.refuted,
      };
    }
    if (stopReason === 'abort' || call.callSignal.signal.aborted) return stoppedResult(call, text, usage);
    const parsed = parseModelOutput(text, call.request.schema);
    if (!parsed.ok) {
      if (stopReason === 'maxTokens') return withUsage(cutOffFailure<T>(parsed.message, maxTokens, text), usage);
      return failure<T>('INVALID_OUTPUT', parsed.message, { raw: text, usage });
    }
    return { ok: true, value: parsed.value, raw: text, usage, droppedContext: fit.dropped };
  }

  /** The grammar llama.cpp enforces, and the same text parsed for the matcher that follows it. */
  private grammar(loaded: LoadedModel, schema: ProviderCall<unknown>['request']['schema']): Promise<LoadedGrammar> {
    const { gbnf } = grammarForSchema(schema);
    let grammar = this.grammars.get(gbnf);
    if (!grammar) {
      const create = async (text: string): Promise<LoadedGrammar> => {
        const parsed = parseGbnf(text);
        return {
          grammar: await loaded.llama.createGrammar({ grammar: text, trimWhitespaceSuffix: true }),
          parsed: parsed.ok ? parsed.grammar : null,
        };
      };
      // A runtime that refuses a long repetition bound still gets the grammar's structure.
      grammar = create(gbnf).catch(() => create(relaxRepetitions(gbnf)));
      grammar.catch(() => this.grammars.delete(gbnf));
      this.grammars.set(gbnf, grammar);
    }
    return grammar;
  }

  private replacementCharBias(loaded: LoadedModel): TokenBias {
    const cached = loaded.cache.get('replacement-char-bias');
    if (cached instanceof TokenBias) return cached;
    const bias = replacementCharTokenBias(loaded.model);
    loaded.cache.set('replacement-char-bias', bias);
    return bias;
  }

  /** Models belong to the router's pool, which unloads them. */
  async dispose(): Promise<void> {
    this.grammars.clear();
  }
}

/** Bans every token that decodes to U+FFFD on its own: lone bytes of a multi-byte character. */
export function replacementCharTokenBias(model: LlamaModel): TokenBias {
  const bias = new TokenBias(model.tokenizer);
  for (const token of model.iterateAllTokens()) {
    if (model.detokenize([token]).includes('\uFFFD')) bias.set(token, 'never');
  }
  return bias;
}

function errorCode(error: unknown, fallback: GenerationErrorCode): GenerationErrorCode {
  if (isLatheError(error) && isPassedOn(error.code)) return error.code;
  return fallback;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
