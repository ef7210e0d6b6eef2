import { z } from 'zod';
import { roleBudget } from '../context/roleBudget';
import type { BuiltContext } from '../context/index';
import { estimateTokens } from '../llm/results';
import type { ChatMessage, ContextItem } from '../llm/types';
import { answerTokensLeft } from './answerRoom';
import { invitesRewrite, rewriteBasis, type WholeFiles } from './contextFiles';
import type { AgentContext, AgentSpec, ContextReport } from './registry';
import { workflowRulePrompts } from './workflowRules';

const schemaText = new WeakMap<z.ZodType, string>();

function describeSchema(schema: z.ZodType): string {
  let text = schemaText.get(schema);
  if (text === undefined) {
    text = JSON.stringify(z.toJSONSchema(schema, { unrepresentable: 'any' }));
    schemaText.set(schema, text);
  }
  return text;
}

/** A role's system message: its prompts and the answer's JSON Schema. */
export function systemPrompt(spec: AgentSpec, ctx: AgentContext, schema: z.ZodType): string {
  return `${ctx.prompts.system(...workflowRulePrompts(ctx.state.config), ...spec.prompts(ctx))}\n\n${ctx.prompts.get('answer-schema')}\n${describeSchema(schema)}`;
}

/**
 * The user message: the context first, then the input, whose fields run from what stays (goal, task) to
 * what changes from call to call (attempt, feedback). With the system prompt ahead of both, a role's
 * consecutive calls share the longest prefix a KV cache can reuse (docs/context.md, "Prefix reuse").
 */
export const CONTEXT_HEADER = 'Relevant files and notes:\n{{context}}\n\n';
export const INPUT_HEADER = 'Input:\n';

/** The messages of one call: a per-role system prompt that stays the same across calls (prefix reuse), then the context and the input. */
export interface BuiltMessages {
  messages: ChatMessage[];
  context: ContextItem[];
  schema: z.ZodType;
  report: ContextReport | null;
  /** This call's answer budget when the role's own is too small (a whole-file answer, a retry after a cut-off). */
  maxTokens?: number;
  /** Why the call cannot be made in this window at all (then nothing is asked of the model). */
  overflow?: string;
  /** The most answer tokens the window holds beside this call's prompt and the files it must show whole. */
  answerRoom: number;
}

/** Builds a call's messages for an answer budget; the input is read once, the context refitted each time. */
export type MessageFit = (answerTokens?: number) => Promise<BuiltMessages>;

/** A whole-file answer repeats the files it rewrites, in JSON strings (escapes), plus its own fields. */
export const wholeFileAnswerTokens = (fileTokens: number) => Math.ceil(fileTokens * 1.15) + 256;

/** Rebuilds a context whose files shown whole need more answer than reserved, at most this often. */
const MAX_REFITS = 2;

const listed = (files: { path: string; tokens: number }[]) => files.map((file) => `${file.path} (~${file.tokens})`).join(', ');

export async function buildMessages(spec: AgentSpec, ctx: AgentContext, answerTokens?: number): Promise<BuiltMessages> {
  return (await prepareMessages(spec, ctx))(answerTokens);
}

/**
 * Reads the role's input, and returns how to build its messages for an answer budget (at least the
 * role's `max_tokens`; more for a whole-file writer's files, or for a retry after a cut-off).
 */
export async function prepareMessages(spec: AgentSpec, ctx: AgentContext): Promise<MessageFit> {
  const schema = spec.schema(ctx);
  const system = systemPrompt(spec, ctx, schema);
  const { input, context, budgeted, wholeFiles } = await spec.input(ctx);
  ctx.onInputBuilt?.(input);
  const head = `${INPUT_HEADER}${JSON.stringify(input, null, 2)}`;
  const marker = CONTEXT_HEADER;
  const session = (items: ContextItem[]) => ctx.sessions?.order(spec.modelRole, items) ?? items;
  const { contextSize, answerReserve: roleReserve } = roleBudget(ctx.state.config, spec.modelRole);
  // A retry's budget is always stated: the model layer's own maxTokens may differ from the run config's.
  const answerBudget = (reserve: number, asked?: number) => (asked !== undefined || reserve > roleReserve ? { maxTokens: reserve } : {});
  if (!budgeted) {
    const messages: ChatMessage[] = [{ role: 'system', content: system }, { role: 'user', content: `${context.length > 0 ? marker : ''}${head}` }];
    const ordered = session(context);
    // The provider fits this context by priority: only the messages must stay beside the answer.
    const answerRoom = answerTokensLeft(contextSize, estimateTokens(system) + estimateTokens(messages[1]?.content ?? '') + 8);
    return async (answerTokens) => ({ messages, context: ordered, schema, report: null, answerRoom, ...answerBudget(Math.max(roleReserve, answerTokens ?? 0), answerTokens) });
  }
  const mandatory = estimateTokens(system) + estimateTokens(head + marker) + 8;
  const answerRoom = answerTokensLeft(contextSize, mandatory + (wholeFiles?.tokens ?? 0));
  const messages: ChatMessage[] = [{ role: 'system', content: system }, { role: 'user', content: `${marker}${head}` }];
  return async (answerTokens) => {
    // The context fills what the mandatory prompt leaves of the role's window after the answer's reserve.
    const reserve = initialReserve(spec, roleReserve, wholeFiles, answerTokens);
    if (wholeFiles && mandatory + wholeFiles.tokens + reserve.tokens > contextSize) {
      const overflow = `whole-file needs ~${mandatory + wholeFiles.tokens + reserve.tokens} tokens to show and rewrite ${listed(wholeFiles.perFile)} (prompt ~${mandatory}, files ~${wholeFiles.tokens}, answer ~${reserve.tokens}) in the ${spec.modelRole}'s ${contextSize}-token window; use the search-replace or unified-diff edit format, or a model with a larger context_size`;
      return { messages: [], context: [], schema, report: null, overflow, answerRoom };
    }
    const fitted = wholeFiles ? await coverRewrites(budgeted, wholeFiles, reserve, contextSize - mandatory, answerRoom) : { built: await budgeted(Math.max(0, contextSize - reserve.tokens - mandatory)), reserve };
    const { built } = fitted;
    const report: ContextReport = {
      role: spec.modelRole,
      context_size: contextSize,
      answer_reserve: fitted.reserve.tokens,
      answer_sized_on: fitted.reserve.sizedOn,
      mandatory_tokens: mandatory,
      budget_tokens: built.budgetTokens,
      used_tokens: built.usedTokens,
      included: built.included,
      dropped: built.dropped,
    };
    return { messages, context: session(built.items), schema, report, answerRoom, ...answerBudget(fitted.reserve.tokens, answerTokens) };
  };
}

interface Reserve {
  tokens: number;
  /** What the reserve was sized on, for the context report. */
  sizedOn: string;
}

function initialReserve(spec: AgentSpec, roleReserve: number, wholeFiles: WholeFiles | undefined, answerTokens: number | undefined): Reserve {
  let reserve: Reserve = { tokens: roleReserve, sizedOn: `the ${spec.modelRole}'s max_tokens` };
  if (wholeFiles && wholeFiles.answerBasis > 0 && wholeFileAnswerTokens(wholeFiles.answerBasis) > reserve.tokens) {
    const largest = [...wholeFiles.perFile].sort((a, b) => b.tokens - a.tokens).slice(0, 1);
    const sizedOn = wholeFiles.rules.named.length > 0 ? `its files to rewrite: ${listed(wholeFiles.perFile)}` : `the largest file it is likely to rewrite: ${listed(largest)}`;
    reserve = { tokens: wholeFileAnswerTokens(wholeFiles.answerBasis), sizedOn };
  }
  if (answerTokens !== undefined && answerTokens > reserve.tokens) reserve = { tokens: answerTokens, sizedOn: 'a retry after an answer cut off at a smaller budget' };
  return reserve;
}

/**
 * A whole-file writer may rewrite any file it is shown whole, not only the ones guessed before the
 * context was built: while the files shown need a longer answer than reserved, the context is built
 * again with the larger reserve (so with less room, lower-ranked files dropped first). A file the
 * window cannot cover even then is withheld rather than shown as an invitation to a cut-off answer.
 */
async function coverRewrites(budgeted: (budgetTokens: number) => Promise<BuiltContext>, wholeFiles: WholeFiles, start: Reserve, room: number, answerRoom: number): Promise<{ built: BuiltContext; reserve: Reserve }> {
  let reserve = start;
  let built = await budgeted(Math.max(0, room - reserve.tokens));
  for (let refit = 0; refit < MAX_REFITS; refit++) {
    const basis = rewriteBasis(built.included, wholeFiles.rules);
    const needed = Math.min(wholeFileAnswerTokens(basis.tokens), answerRoom);
    if (needed <= reserve.tokens) break;
    reserve = { tokens: needed, sizedOn: `the files it is shown whole and may rewrite: ${listed(basis.files)}` };
    built = await budgeted(Math.max(0, room - reserve.tokens));
  }
  return { built: withholdUncovered(built, wholeFiles, reserve.tokens), reserve };
}

/** Leaves out each file shown whole whose rewrite, beside the named files, the reserve does not cover. */
function withholdUncovered(built: BuiltContext, wholeFiles: WholeFiles, reserve: number): BuiltContext {
  const { rules } = wholeFiles;
  const named = built.included.filter((entry) => entry.kind === 'file' && rules.named.includes(entry.path)).reduce((sum, entry) => sum + entry.tokens, 0);
  const uncovered = new Set(
    built.included
      .filter((entry) => entry.kind === 'file' && invitesRewrite(entry.path, rules) && wholeFileAnswerTokens(named + entry.tokens) > reserve)
      .map((entry) => entry.id),
  );
  if (uncovered.size === 0) return built;
  const withheld = built.included.filter((entry) => uncovered.has(entry.id));
  return {
    ...built,
    items: built.items.filter((item) => !uncovered.has(item.id)),
    included: built.included.filter((entry) => !uncovered.has(entry.id)),
    dropped: [...withheld.map((entry) => ({ ...entry, reason: `${entry.reason}; its whole-file rewrite would not fit the ${reserve}-token answer budget` })), ...built.dropped],
    usedTokens: built.usedTokens - withheld.reduce((sum, entry) => sum + entry.tokens, 0),
  };
}
