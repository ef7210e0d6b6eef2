import { z } from 'zod';

/**
 * Where a part of a recorded agent call came from. `prompt`: the role's system prompt; `input`: the
 * engine's input (goal, task, …); `human` / `human_edit` / `supervisor` / `engine` / `tests` /
 * `tester`: the parts of the input's feedback by who wrote them (`mixed`: a critique of several writers
 * cut to fit the model's window, no longer separable); `context`: a file, excerpt, map or
 * note placed in the message; `answer` / `tool`: a Scout's earlier actions and their tools' results.
 */
export const CallPartSourceSchema = z.enum([
  'prompt',
  'input',
  'human',
  'human_edit',
  'supervisor',
  'engine',
  'tests',
  'tester',
  'mixed',
  'context',
  'answer',
  'tool',
]);
export type CallPartSource = z.infer<typeof CallPartSourceSchema>;

export const CallPartSchema = z.object({
  source: CallPartSourceSchema,
  /** The input field a feedback part was lifted out of (`feedback`, `supervisor_note`), else null. */
  field: z.string().nullable().default(null),
  /** The gate a human's or the Supervisor's words were given at, else null. */
  gate: z.string().nullable().default(null),
  /** A context item's path and kind (`file`, `excerpt`, `map`, `note`), else null. */
  path: z.string().nullable().default(null),
  kind: z.string().nullable().default(null),
  text: z.string(),
  /** Characters left out at the end to keep the record bounded (0: the whole text). */
  cut: z.number().int().nonnegative().default(0),
});
export type CallPart = z.infer<typeof CallPartSchema>;

export const CallMessageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  parts: z.array(CallPartSchema),
});
export type CallMessage = z.infer<typeof CallMessageSchema>;

/** One model call's tokens: `cached_tokens` of the prompt came from a reused prefix, the rest was evaluated. */
export const CallTokensSchema = z.object({
  prompt_tokens: z.number(),
  cached_tokens: z.number(),
  completion_tokens: z.number(),
  estimated: z.boolean().default(false),
});

/**
 * `.lathe/runs/<id>/calls/<n>.json`: what agent call n (its `agent_call` event's `call`) sent and got
 * back — the last request made (a retry's, when there was one) and its answer. Secrets are redacted.
 */
export const AgentCallRecordSchema = z.object({
  version: z.literal(1),
  call: z.number().int().positive(),
  role: z.string(),
  purpose: z.string(),
  step_id: z.string().nullable(),
  model: z.string().nullable(),
  /** The messages in order; a lifted field's value reads `(shown below, by origin)` in the input part, and its parts follow. */
  messages: z.array(CallMessageSchema),
  /** The context items the engine placed where the user message says `{{context}}` (the model layer may drop some to fit). */
  context: z.array(CallPartSchema),
  /** Context items the model layer left out to fit the window. */
  context_dropped: z.array(z.string()).default([]),
  answer: z.object({
    outcome: z.enum(['output', 'declined', 'failed']),
    /** The model's text as it answered (null: no answer came). */
    raw: z.string().nullable(),
    cut: z.number().int().nonnegative().default(0),
    code: z.string().nullable().default(null),
    message: z.string().nullable().default(null),
  }),
  /** Every model call this agent call made, retries included, with its tokens (null: no count came, or a record written before). */
  attempts: z.array(
    z.object({
      ok: z.boolean(),
      code: z.string().nullable(),
      message: z.string().nullable(),
      usage: CallTokensSchema.nullable().default(null),
    }),
  ),
  /**
   * Summed over the attempts. `cached_tokens`: prompt tokens served from a reused KV-cache prefix (the rest,
   * prompt − cached, was new prefill); `estimated`: oracle/replay counts. Both absent in older records.
   */
  usage: z.object({
    prompt_tokens: z.number(),
    completion_tokens: z.number(),
    cached_tokens: z.number().default(0),
    estimated: z.boolean().default(false),
  }),
});
export type AgentCallRecord = z.infer<typeof AgentCallRecordSchema>;

const GATE_WORDS: Record<string, string> = {
  plan: 'plan gate',
  code: 'code gate',
  step: 'step gate',
  goal: 'goal gate',
};

/** The line shown before a part whose origin matters to a reader ("the human's words reached the Coder here"), or null. */
export function partOrigin(part: Pick<CallPart, 'source' | 'gate' | 'field'>): string | null {
  const at = part.gate ? ` at the ${GATE_WORDS[part.gate] ?? `${part.gate} gate`}` : '';
  switch (part.source) {
    case 'human':
      return `from the human's rejection${at}`;
    case 'human_edit':
      return `from the human's rewrite of the Supervisor's verdict${at}`;
    case 'supervisor':
      return part.field === 'supervisor_note'
        ? "from the Supervisor's escalation note"
        : `from the Supervisor's verdict${at}`;
    case 'engine':
      return 'from the engine';
    case 'tests':
      return 'from the test run';
    case 'tester':
      return "from the Tester's fix plan";
    case 'mixed':
      return `from several writers${at} (the critique was cut to fit the model's window)`;
    default:
      return null;
  }
}
