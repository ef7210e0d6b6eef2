import { abortableDelay } from '../callSignal';
import { parseModelOutput, validateValue } from '../output';
import { estimateTokens, failure, tokensPerSecond } from '../results';
import type { GenerateResult, GenerationUsage, ModelRole } from '../types';
import { fitByEstimate, stoppedResult, type Provider, type ProviderCall } from './provider';
import { loadReplayFile, type ReplayEntry } from './replayFile';

const STREAM_PIECE = 16;

/**
 * Scripted answers from a JSON file, for deterministic tests, demos and fault injection. Each role reads
 * its own entries in file order; every call consumes one entry, whatever its outcome.
 */
export class ReplayProvider implements Provider {
  private entries: Promise<ReplayEntry[]> | null = null;
  private readonly cursors = new Map<ModelRole, number>();

  constructor(
    private readonly filePath: string,
    consumed: Partial<Record<ModelRole, number>> = {},
  ) {
    for (const [role, count] of Object.entries(consumed)) {
      if (typeof count === 'number' && count > 0) this.cursors.set(role as ModelRole, Math.floor(count));
    }
  }

  /** Entries used so far per role (resume a run by passing these as `replayConsumed`). */
  consumed(): Partial<Record<ModelRole, number>> {
    return Object.fromEntries(this.cursors);
  }

  async generate<T>(call: ProviderCall<T>): Promise<GenerateResult<T>> {
    let entries: ReplayEntry[];
    try {
      this.entries ??= loadReplayFile(this.filePath);
      entries = await this.entries;
    } catch (error) {
      this.entries = null;
      return failure<T>('BAD_MODEL_SPEC', error instanceof Error ? error.message : String(error));
    }
    const mine = entries.filter((entry) => entry.role === call.role);
    const cursor = this.cursors.get(call.role) ?? 0;
    const entry = mine[cursor];
    if (!entry) {
      return failure<T>('REPLAY_EXHAUSTED', `replay file ${this.filePath} has no more '${call.role}' entries (${mine.length} in the file, ${cursor} used)`);
    }
    this.cursors.set(call.role, cursor + 1);

    const fitted = fitByEstimate(call);
    if (!fitted.ok) return fitted.result;
    const started = Date.now();
    call.callSignal.startTimer();
    const promptTokens = fitted.fit.promptTokens;
    const usageFor = (raw: string): GenerationUsage => {
      const totalMs = Date.now() - started;
      const completionTokens = estimateTokens(raw);
      const timeToFirstTokenMs = Math.min(totalMs, entry.delayMs);
      return { model: call.spec, promptTokens, completionTokens, reusedPrefixTokens: 0, timeToFirstTokenMs, totalMs, tokensPerSecond: tokensPerSecond(completionTokens, totalMs, timeToFirstTokenMs) };
    };
    if (entry.delayMs > 0) {
      try {
        await abortableDelay(entry.delayMs, call.callSignal.signal);
      } catch {
        return stoppedResult(call, null, usageFor(''));
      }
    }
    if (call.callSignal.signal.aborted) return stoppedResult(call, null, usageFor(''));
    if (entry.kind === 'error') {
      return failure<T>('PROVIDER_ERROR', `replayed provider error: ${entry.error}`, { retryable: true, usage: usageFor('') });
    }
    const raw = entry.kind === 'raw' ? entry.raw : JSON.stringify(entry.json);
    for (let i = 0; i < raw.length; i += STREAM_PIECE) call.emitToken(raw.slice(i, i + STREAM_PIECE));
    const usage = usageFor(raw);
    const parsed = entry.kind === 'raw' ? parseModelOutput(raw, call.request.schema) : validateValue(entry.json, call.request.schema);
    if (!parsed.ok) return failure<T>('INVALID_OUTPUT', parsed.message, { raw, usage });
    return { ok: true, value: parsed.value, raw, usage, droppedContext: fitted.fit.dropped };
  }

  async dispose(): Promise<void> {}
}
