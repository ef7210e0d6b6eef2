import { abortableDelay } from '../callSignal';
import { EstimatedKvCache } from '../estimatedKvCache';
import { parseModelOutput, validateValue } from '../output';
import { failure } from '../results';
import type { GenerateResult } from '../types';
import type { ModelRole } from '../../../../shared/schemas/roles';
import { estimatedUsageCounter } from './estimatedUsage';
import { fitByEstimate, stoppedResult, type Provider, type ProviderCall } from './provider';
import { loadReplayFile, type ReplayEntry, type ReplayRevision, type ReplayScript } from './replayFile';

const STREAM_PIECE = 16;

/**
 * Scripted answers from a JSON file, for deterministic tests, demos and fault injection. Each role reads
 * its own entries in file order; every call consumes one entry, whatever its outcome.
 *
 * A recording cannot know which gate a user will reject, so a file may keep revisions aside: the first
 * call that answers a human's rejection takes the matching unused revision, whose entries every role
 * then answers from before going on with its own (the extra round a rejection causes). Without one,
 * the call reads on as before — the next main entry, which may belong to a later step.
 */
export class ReplayProvider implements Provider {
  private script: Promise<ReplayScript> | null = null;
  private readonly cursors = new Map<ModelRole, number>();
  /** Entries of the revisions taken so far, per role, not yet answered. */
  private readonly pending = new Map<ModelRole, ReplayEntry[]>();
  private readonly usedRevisions = new Set<ReplayRevision>();
  /** The prompt reuse a local model would get, per role, over this provider's life (one run). */
  private readonly kv = new EstimatedKvCache();

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
    let script: ReplayScript;
    try {
      this.script ??= loadReplayFile(this.filePath);
      script = await this.script;
    } catch (error) {
      this.script = null;
      return failure<T>('BAD_MODEL_SPEC', error instanceof Error ? error.message : String(error));
    }
    this.takeRevision(script, call);
    const entry = this.pending.get(call.role)?.shift() ?? this.nextMainEntry(script, call.role);
    if (typeof entry === 'string') return failure<T>('REPLAY_EXHAUSTED', entry);

    const fitted = fitByEstimate(call);
    if (!fitted.ok) return fitted.result;
    const started = Date.now();
    call.callSignal.startTimer();
    const promptTokens = fitted.fit.promptTokens;
    const reusedPrefixTokens = this.kv.evaluate(call.role, fitted.fit.messages, promptTokens);
    const usageFor = estimatedUsageCounter(this.kv, {
      role: call.role,
      spec: call.spec,
      promptTokens,
      reusedPrefixTokens,
      started,
      firstTokenDelayMs: entry.delayMs,
    });
    if (entry.delayMs > 0) {
      try {
        await abortableDelay(entry.delayMs, call.callSignal.signal);
      } catch (error) {
        // Only a stop cuts the delay short.
        if (!call.callSignal.signal.aborted) throw error;
        return stoppedResult(call, null, usageFor(''));
      }
    }
    if (call.callSignal.signal.aborted) return stoppedResult(call, null, usageFor(''));
    if (entry.kind === 'error') {
      return failure<T>('PROVIDER_ERROR', `replayed provider error: ${entry.error}`, {
        retryable: true,
        usage: usageFor(''),
      });
    }
    const raw = entry.kind === 'raw' ? entry.raw : JSON.stringify(entry.json);
    for (let i = 0; i < raw.length; i += STREAM_PIECE) call.emitToken(raw.slice(i, i + STREAM_PIECE));
    const usage = usageFor(raw);
    const parsed =
      entry.kind === 'raw'
        ? parseModelOutput(raw, call.request.schema)
        : validateValue(entry.json, call.request.schema);
    if (!parsed.ok) return failure<T>('INVALID_OUTPUT', parsed.message, { raw, usage });
    return { ok: true, value: parsed.value, raw, usage, droppedContext: fitted.fit.dropped };
  }

  /** The role's next main entry, or why there is none. */
  private nextMainEntry(script: ReplayScript, role: ModelRole): ReplayEntry | string {
    const mine = script.entries.filter((entry) => entry.role === role);
    const cursor = this.cursors.get(role) ?? 0;
    const entry = mine[cursor];
    if (!entry)
      return `replay file ${this.filePath} has no more '${role}' entries (${mine.length} in the file, ${cursor} used)`;
    this.cursors.set(role, cursor + 1);
    return entry;
  }

  /** A call answering a human's rejection queues the first unused revision recorded for that gate and step. */
  private takeRevision<T>(script: ReplayScript, call: ProviderCall<T>): void {
    const rejection = call.request.answersRejection;
    if (!rejection) return;
    const revision = script.revisions.find(
      (candidate) =>
        !this.usedRevisions.has(candidate) &&
        (candidate.gate === null || candidate.gate === rejection.gate) &&
        (candidate.step === null || candidate.step === rejection.step_id),
    );
    if (!revision) return;
    this.usedRevisions.add(revision);
    for (const entry of revision.entries)
      this.pending.set(entry.role, [...(this.pending.get(entry.role) ?? []), entry]);
  }

  async dispose(): Promise<void> {}
}
