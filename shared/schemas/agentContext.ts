import { z } from 'zod';

/**
 * One piece of a call's context: a whole file, an excerpt of one (its line ranges), the ranked repo
 * map, or the earlier run a follow-up continues (`run`: its goal, how its plan ended, its diff).
 */
export const ContextEntrySchema = z.object({
  id: z.string(),
  path: z.string(),
  kind: z.enum(['file', 'excerpt', 'map', 'run']),
  tokens: z.number(),
  lines: z.array(z.tuple([z.number(), z.number()])).optional(),
  reason: z.string(),
});
export type ContextEntry = z.infer<typeof ContextEntrySchema>;

/** The `agent_context` run-log event: what one agent call's budgeted context included and dropped. */
export const AgentContextDataSchema = z.object({
  purpose: z.string(),
  step_id: z.string().nullable().optional(),
  role: z.string(),
  /** The role's window and the answer's reserve, in tokens. */
  context_size: z.number(),
  answer_reserve: z.number(),
  /** What the reserve was sized on: the role's max_tokens, the files a whole-file writer may rewrite, a retry after a cut-off. */
  answer_sized_on: z.string().optional(),
  /** System prompt and input (goal, task, feedback): counted by the model's tokenizer when `counted_by` says so, else estimated. */
  mandatory_tokens: z.number(),
  /** `model`: the role's own tokenizer and chat template planned the budget; `estimate`: 4 characters a token (with a margin for servers). */
  counted_by: z.enum(['model', 'estimate']).optional(),
  /** `short`: the window was too small for the full rules, so their short forms and a compact input were sent (decision 92). */
  prompt_form: z.enum(['full', 'short']).optional(),
  budget_tokens: z.number(),
  used_tokens: z.number(),
  included: z.array(ContextEntrySchema),
  dropped: z.array(ContextEntrySchema),
});
export type AgentContextData = z.infer<typeof AgentContextDataSchema>;
