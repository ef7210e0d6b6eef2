import type { z } from 'zod';
import type { AgentPurpose } from '../../../shared/engine/agentPurpose';
import type { GenerationErrorCode } from '../../../shared/errors';
import type { GateKind } from '../../../shared/schemas/gates';
import type { ModelRole } from '../../../shared/schemas/roles';

/** Which gate (and step) a human rejected, for the call that answers the rejection. */
export interface RejectionRef {
  gate: GateKind;
  step_id: string | null;
}

/**
 * The inference layer's contract with the engine. Every agent call goes through `ModelRouter.generate`,
 * which returns a schema-validated object or a typed error; it never throws for model misbehaviour.
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Context the layer may drop to fit the model's context window: lowest priority first, never silently. */
export interface ContextItem {
  /** Named in the `context_dropped` event when dropped (e.g. `file:src/a.py`, `kb:notes.md`). */
  id: string;
  text: string;
  /** Higher is kept longer. */
  priority: number;
}

export interface GenerateRequest<T> {
  role: ModelRole;
  /**
   * What the call is for, when an agent makes it (one role serves several purposes: the Editor briefs
   * and writes, the Supervisor reviews four gates). Models never see it; the `oracle:` model needs it.
   */
  purpose?: AgentPurpose;
  /**
   * Set when the call's feedback holds a human's words from rejecting a gate: the `replay:` model answers
   * it with the revision recorded for that gate (docs/replay-format.md). Models never see it.
   */
  answersRejection?: RejectionRef;
  /** The mandatory part: system prompt and messages. If it alone does not fit: CONTEXT_OVERFLOW. */
  messages: ChatMessage[];
  /**
   * Optional context, fitted by priority and inserted, in the given order, where the last user message
   * contains the marker `{{context}}` (appended to that message when there is no marker).
   */
  context?: ContextItem[];
  /** The role's bounded output schema; for `llama:` models it becomes a JSON-schema grammar. */
  schema: z.ZodType<T>;
  signal?: AbortSignal;
  /** Whole-call limit, model load excluded. */
  timeoutMs?: number;
  /** Streaming: called with each decoded text piece as it is generated. */
  onToken?: (text: string) => void;
  /**
   * This call's answer budget, when it needs more than the role's `maxTokens` (a whole-file answer is as
   * long as the files it rewrites); never less than the role's.
   */
  maxTokens?: number;
}

export interface GenerationUsage {
  /** The spec string of the model that answered (`llama:/m/x.gguf`, `replay:/r.json`, …). */
  model: string;
  promptTokens: number;
  completionTokens: number;
  /**
   * Of the prompt tokens, those served from a reused prefix (the KV cache) and not evaluated again; the
   * rest (promptTokens - reusedPrefixTokens) is the call's new prefill.
   */
  reusedPrefixTokens: number;
  /**
   * The counts are estimates, not a tokenizer's (oracle and replay models: ~4 characters a token, the
   * reuse as a llama.cpp session per role would have it, estimatedKvCache.ts); absent: counted.
   */
  estimated?: boolean;
  timeToFirstTokenMs: number;
  totalMs: number;
  tokensPerSecond: number;
  /** With prompt-lookup decoding: the looked-up tokens the model confirmed and refuted in this call. */
  lookup?: { validated: number; refuted: number };
  /** Tokens the grammar forced and Lathe picked instead of sampling (decision 75). */
  steeredTokens?: number;
}

export interface GenerationError {
  code: GenerationErrorCode;
  message: string;
  /** Whether retrying the same call may succeed (transient provider failures, invalid output). */
  retryable: boolean;
  /**
   * Set when the answer was cut off at this answer budget (maxTokens) before it was whole: the same
   * request would be cut again, so a retry asks for more room (runAgent's generateWithRetries).
   */
  cutOffAt?: number;
}

export type GenerateResult<T> =
  | { ok: true; value: T; raw: string; usage: GenerationUsage; droppedContext: string[] }
  | { ok: false; error: GenerationError; raw: string | null; usage: GenerationUsage | null };

/** What the layer reports while it works; the engine turns these into run-log and UI events. */
export type LlmEvent =
  | { type: 'model_load_progress'; model: string; progress: number }
  | { type: 'model_loaded'; model: string; loadMs: number }
  | { type: 'model_unloaded'; model: string; reason: 'idle' | 'switch' | 'dispose' }
  | { type: 'token'; role: ModelRole; text: string }
  | { type: 'context_dropped'; role: ModelRole; ids: string[]; reason: string };

export interface RoleModelConfig {
  /** `llama:PATH.gguf` | `ollama:NAME` | `openai:URL#MODEL` | `replay:FILE.json` | `oracle:PATCH.diff` */
  model: string;
  contextSize?: number;
  temperature?: number;
  maxTokens?: number;
  /** `llama:` only: prompt-lookup decoding (answers that copy their input: search blocks, whole files). */
  promptLookup?: boolean;
}

/**
 * How a role's model counts a prompt, for planning its budget before the call. `exact`: the model's own
 * tokenizer and chat template (llama); otherwise the 4-characters estimate, with a margin when the
 * model counts with a tokenizer Lathe cannot see (servers).
 */
export interface PromptCounter {
  exact: boolean;
  /** The whole prompt as the model will read it (chat template included, when exact). */
  countPrompt(messages: readonly ChatMessage[]): number;
  countText(text: string): number;
  /** The window the provider really has for the role, when it knows it (llama: the context it created). */
  contextSize?: number;
}

export interface ModelRouter {
  generate<T>(request: GenerateRequest<T>): Promise<GenerateResult<T>>;
  /** The spec a role is routed to, or null when the role has no model. */
  specFor(role: ModelRole): string | null;
  /** How the role's model counts tokens; absent or null: the 4-characters estimate, no margin. */
  promptCounter?(role: ModelRole): Promise<PromptCounter | null>;
  dispose(): Promise<void>;
}
