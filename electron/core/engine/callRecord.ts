import fs from 'node:fs';
import path from 'node:path';
import type { CallUsage } from '../../../shared/engine/callUsage';
import type { Feedback } from '../../../shared/engine/runState';
import {
  AgentCallRecordSchema,
  type AgentCallRecord,
  type CallMessage,
  type CallPart,
  type CallPartSource,
} from '../../../shared/schemas/agentCall';
import type { ContextReport } from '../agents/agentContext';
import type { Redact } from '../llm/redact';
import type { ChatMessage, ContextItem, GenerateRequest, GenerateResult, ModelRouter } from '../llm/types';
import { writeFileAtomic } from '../basics/atomicWrite';

/** One part's text is kept up to this many characters; a context file past it is rarely read whole by a person. */
const PART_CHARS = 200_000;
/** The whole record stays under this many characters of text: later parts are cut to fit. */
const RECORD_CHARS = 1_000_000;
/** A lifted field's value in the recorded input: its parts follow the input, each with its origin. */
export const LIFTED_PLACEHOLDER = '(shown below, by origin)';
/** Input fields carrying words someone other than the engine wrote, shown as their own parts. */
const LIFTED_FIELDS = ['feedback', 'supervisor_note'] as const;

/** What the model layer was asked and answered during one agent call, as seen through its router. */
export interface CallCapture {
  /** The router the agent is given: the session's own, watched. */
  router: ModelRouter;
  /** Told the role's input object (before it becomes JSON text), to find the feedback in the message. */
  onInput: (input: Record<string, unknown>) => void;
  input: Record<string, unknown> | null;
  request: { messages: ChatMessage[]; context: ContextItem[] } | null;
  last: GenerateResult<unknown> | null;
  attempts: AgentCallRecord['attempts'];
}

/** Watches `router.generate` for one agent call: the last request is the one its answer belongs to. */
export function captureCall(router: ModelRouter): CallCapture {
  const capture: CallCapture = {
    router: {
      specFor: (role) => router.specFor(role),
      promptCounter: async (role) => (await router.promptCounter?.(role)) ?? null,
      dispose: () => router.dispose(),
      generate: async <T>(request: GenerateRequest<T>): Promise<GenerateResult<T>> => {
        capture.request = { messages: request.messages, context: request.context ?? [] };
        const result = await router.generate(request);
        capture.last = result;
        const usage = result.usage
          ? {
              prompt_tokens: result.usage.promptTokens,
              cached_tokens: result.usage.reusedPrefixTokens,
              completion_tokens: result.usage.completionTokens,
              estimated: result.usage.estimated === true,
            }
          : null;
        capture.attempts.push(
          result.ok
            ? { ok: true, code: null, message: null, usage }
            : { ok: false, code: result.error.code, message: result.error.message, usage },
        );
        return result;
      },
    },
    onInput: (input) => {
      capture.input = input;
    },
    input: null,
    request: null,
    last: null,
    attempts: [],
  };
  return capture;
}

export interface CallFacts {
  call: number;
  role: string;
  purpose: string;
  step_id: string | null;
  model: string | null;
  /** The run's feedback when the call was made: a critique's parts say who wrote what. */
  feedback: Feedback | null;
  report: ContextReport | null;
  outcome: AgentCallRecord['answer']['outcome'];
  error: { code: string; message: string } | null;
  usage: CallUsage;
}

/** The record of one call, redacted and bounded. */
export function buildCallRecord(capture: CallCapture, facts: CallFacts, redact: Redact): AgentCallRecord {
  const budget = { left: RECORD_CHARS };
  const bounded = (part: Omit<CallPart, 'cut' | 'field' | 'gate' | 'path' | 'kind'> & Partial<CallPart>): CallPart => {
    const text = redact(part.text);
    const keep = Math.max(0, Math.min(PART_CHARS, budget.left, text.length));
    budget.left -= keep;
    return {
      field: null,
      gate: null,
      path: null,
      kind: null,
      ...part,
      text: text.slice(0, keep),
      cut: text.length - keep,
    };
  };
  const request = capture.request;
  const firstUser = request?.messages.findIndex((message) => message.role === 'user') ?? -1;
  const messages: CallMessage[] = (request?.messages ?? []).map((message, index) => ({
    role: message.role,
    parts:
      index === firstUser
        ? inputParts(message.content, capture.input, facts.feedback).map(bounded)
        : [bounded({ source: otherSource(message), text: message.content })],
  }));
  const context = (request?.context ?? []).map((item) =>
    bounded({ source: 'context', ...whereFrom(item.id, facts.report), text: item.text }),
  );
  const raw = capture.last?.raw ?? null;
  const answerText = raw === null ? null : redact(raw);
  const answerKeep = answerText === null ? 0 : Math.min(PART_CHARS, answerText.length);
  return AgentCallRecordSchema.parse({
    version: 1,
    call: facts.call,
    role: facts.role,
    purpose: facts.purpose,
    step_id: facts.step_id,
    model: facts.model,
    messages,
    context,
    context_dropped: capture.last?.ok ? capture.last.droppedContext : [],
    answer: {
      outcome: facts.outcome,
      raw: answerText === null ? null : answerText.slice(0, answerKeep),
      cut: answerText === null ? 0 : answerText.length - answerKeep,
      code: facts.error?.code ?? null,
      message: facts.error ? redact(facts.error.message) : null,
    },
    attempts: capture.attempts.map((attempt) => ({
      ...attempt,
      message: attempt.message === null ? null : redact(attempt.message),
    })),
    usage: {
      prompt_tokens: facts.usage.prompt_tokens,
      completion_tokens: facts.usage.completion_tokens,
      cached_tokens: facts.usage.cached_tokens ?? 0,
      estimated: facts.usage.estimated === true,
    },
  });
}

/** `calls/<n>.json` in the run folder; not flushed to the disk (a record for people, like the test logs). */
export function writeCallRecord(runDir: string, record: AgentCallRecord): void {
  const dir = path.join(runDir, 'calls');
  fs.mkdirSync(dir, { recursive: true });
  writeFileAtomic(path.join(dir, `${record.call}.json`), `${JSON.stringify(record, null, 1)}\n`, { durable: false });
}

type PartDraft = Pick<CallPart, 'source' | 'text'> & Partial<CallPart>;

/** A Scout's conversation after its first message: its own actions, and what its tools answered. */
const otherSource = (message: ChatMessage): CallPartSource =>
  message.role === 'system' ? 'prompt' : message.role === 'assistant' ? 'answer' : 'tool';

/**
 * The role's input message, with the fields other people wrote lifted out into parts that say who
 * wrote them. The input text stays as sent but for those fields' values (the placeholder).
 */
function inputParts(content: string, input: Record<string, unknown> | null, feedback: Feedback | null): PartDraft[] {
  const lifted = input ? LIFTED_FIELDS.filter((field) => typeof input[field] === 'string') : [];
  const sent = input ? JSON.stringify(input, null, 2) : '';
  if (!input || lifted.length === 0 || !content.includes(sent)) return [{ source: 'input', text: content }];
  const shown: Record<string, unknown> = { ...input };
  for (const field of lifted) shown[field] = LIFTED_PLACEHOLDER;
  // A function replacement: the input may hold `$&` and the like, which a string replacement would expand.
  const text = content.replace(sent, () => JSON.stringify(shown, null, 2));
  return [{ source: 'input', text }, ...lifted.flatMap((field) => liftedParts(field, String(input[field]), feedback))];
}

function liftedParts(field: (typeof LIFTED_FIELDS)[number], value: string, feedback: Feedback | null): PartDraft[] {
  if (field === 'supervisor_note') return [{ source: 'supervisor', field, text: value }];
  // The parts are used only when they are what was sent: test output cut to fit the window is not.
  const parts = feedback?.parts;
  if (parts && parts.map((part) => part.text).join('\n') === value)
    return parts.map((part) => ({ source: part.source, gate: part.gate, field, text: part.text }));
  // Cut to fit: one writer's words are still theirs, several writers' can no longer be told apart.
  const sources = new Set(parts?.map((part) => part.source));
  const [only] = sources;
  if (parts && only !== undefined)
    return [{ source: sources.size === 1 ? only : 'mixed', gate: parts[0]?.gate ?? null, field, text: value }];
  return [{ source: feedbackSource(feedback?.kind), field, text: value }];
}

function feedbackSource(kind: Feedback['kind'] | undefined): CallPartSource {
  switch (kind) {
    case 'test_output':
    case 'first_failure':
    case 'tests_weakened':
      return 'tests';
    case 'fix_plan':
      return 'tester';
    case 'critique':
      return 'supervisor';
    default:
      return 'engine';
  }
}

const KIND_OF_PREFIX: Record<string, string> = {
  file: 'file',
  excerpt: 'excerpt',
  map: 'map',
  paths: 'map',
  kb: 'note',
};

/** A context item's path and kind: from its call's context report, else from its id (`file:src/a.py`). */
function whereFrom(id: string, report: ContextReport | null): { path: string; kind: string } {
  const entry = report?.included.find((included) => included.id === id);
  if (entry) return { path: entry.path, kind: entry.kind };
  const colon = id.indexOf(':');
  if (colon < 0) return { path: id, kind: 'note' };
  const prefix = id.slice(0, colon);
  return { path: prefix === 'paths' ? '' : id.slice(colon + 1), kind: KIND_OF_PREFIX[prefix] ?? prefix };
}
