import { z } from 'zod';
import { roleBudget } from '../context/roleBudget';
import type { BuiltContext } from '../context/index';
import { estimateCounter } from '../llm/promptCounter';
import type { ChatMessage, ContextItem, PromptCounter } from '../llm/types';
import { answerTokensLeft, CUT_OFF_MARGIN } from './answerRoom';
import { invitesRewrite, rewriteBasis, type WholeFiles } from './contextFiles';
import type { AgentSpec } from './registry';
import type { AgentContext, ContextReport } from './agentContext';
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

/** A role's system message: its prompts and the answer's JSON Schema; `short`: each prompt's short form. */
export function systemPrompt(spec: AgentSpec, ctx: AgentContext, schema: z.ZodType, form: PromptForm = 'full'): string {
  const names = [...workflowRulePrompts(ctx.state.config), ...spec.prompts(ctx)];
  const prompts = form === 'short' ? ctx.prompts.shortSystem(...names) : ctx.prompts.system(...names);
  return `${prompts}\n\n${ctx.prompts.get('answer-schema')}\n${describeSchema(schema)}`;
}

/**
 * `full`: every prompt as written, the input indented. `short`: the prompts' short forms and the input
 * on one line, when the full form would leave the context less than half of what the window holds.
 */
export type PromptForm = 'full' | 'short';

/** The full form is kept while it leaves the context at least this share of the window less the answer. */
const FULL_FORM_MAX_SHARE = 0.5;
/** The least room a writer's context must keep: one region of the file to change. */
export const MIN_CONTEXT_TOKENS = 256;
/** A budget planned by estimate is rescaled to the tokenizer's count at most this often. */
const MAX_RESCALES = 2;

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
  /** Which form of the prompts was sent. */
  form: PromptForm;
}

/** Builds a call's messages for an answer budget; the input is read once, the context refitted each time. `form` forces a form. */
export type MessageFit = (answerTokens?: number, form?: PromptForm) => Promise<BuiltMessages>;

/** A whole-file answer repeats the files it rewrites, in JSON strings (escapes), plus its own fields. */
export const wholeFileAnswerTokens = (fileTokens: number) => Math.ceil(fileTokens * 1.15) + 256;

/** Rebuilds a context whose files shown whole need more answer than reserved, at most this often. */
const MAX_REFITS = 2;

const listed = (files: { path: string; tokens: number }[]) =>
  files.map((file) => `${file.path} (~${file.tokens})`).join(', ');

export async function buildMessages(spec: AgentSpec, ctx: AgentContext, answerTokens?: number): Promise<BuiltMessages> {
  return (await prepareMessages(spec, ctx))(answerTokens);
}

/**
 * The user message: the context first, then the input, whose fields run from what stays (goal, task) to
 * what changes from call to call (attempt, feedback). With the system prompt ahead of both, a role's
 * consecutive calls share the longest prefix a KV cache can reuse (docs/context.md, "Prefix reuse").
 */
export const CONTEXT_HEADER = 'Relevant files and notes:\n{{context}}\n\n';
export const INPUT_HEADER = 'Input:\n';

/** What every fit of one call shares: the role's window and reserve, the prompt's two forms and their counts. */
interface PromptSetup {
  spec: AgentSpec;
  schema: z.ZodType;
  counter: PromptCounter;
  contextSize: number;
  roleReserve: number;
  forms: Record<PromptForm, ChatMessage[]>;
  mandatoryOf: Record<PromptForm, number>;
  chosen: PromptForm;
  /** The context in the order the role's session keeps (prefix reuse). */
  session: (items: ContextItem[]) => ContextItem[];
  /** The context is built to a budget (a writer's), so the prompt must leave room for one region of a file. */
  budgeted: boolean;
}

function overflowText(setup: PromptSetup, form: PromptForm, reserve: number, needed: number): string {
  const { spec, counter, contextSize, budgeted } = setup;
  return `even the ${form === 'short' ? 'shortest prompt (the rules in their short form, the task and its input' : 'prompt (system prompt, rules, the task and its input'}${budgeted ? `, and ${MIN_CONTEXT_TOKENS} tokens for one region of the file to change` : ''}) needs ${needed} tokens ${counter.exact ? "by the model's tokenizer" : '(estimated)'}, but the ${spec.modelRole}'s ${contextSize}-token window leaves ${Math.max(0, contextSize - reserve)} after reserving ${reserve} for the answer; set the ${spec.modelRole}'s context_size to at least ${nextWindow(needed + reserve)} or lower its max_tokens`;
}

/** A retry's budget is always stated: the model layer's own maxTokens may differ from the run config's. */
function answerBudget(setup: PromptSetup, reserve: number, asked?: number): { maxTokens?: number } {
  return asked !== undefined || reserve > setup.roleReserve ? { maxTokens: reserve } : {};
}

/** A call the window cannot hold: nothing is asked of the model. */
function refused(setup: PromptSetup, form: PromptForm, overflow: string, answerRoom: number): BuiltMessages {
  return { messages: [], context: [], schema: setup.schema, report: null, overflow, answerRoom, form };
}

/** A role whose context is given as is: the provider fits it by priority. */
function unbudgetedFit(setup: PromptSetup, context: ContextItem[]): MessageFit {
  return async (answerTokens, force) => {
    const form = force ?? setup.chosen;
    const mandatory = setup.mandatoryOf[form];
    const reserve = Math.max(setup.roleReserve, answerTokens ?? 0);
    const answerRoom = answerTokensLeft(setup.contextSize, mandatory);
    // The provider fits this context by priority: only the messages must stay beside the answer.
    if (setup.counter.exact && mandatory + setup.roleReserve > setup.contextSize)
      return refused(setup, form, overflowText(setup, form, setup.roleReserve, mandatory), answerRoom);
    return {
      messages: setup.forms[form],
      context: setup.session(context),
      schema: setup.schema,
      report: null,
      answerRoom,
      form,
      ...answerBudget(setup, reserve, answerTokens),
    };
  };
}

function contextReport(
  setup: PromptSetup,
  form: PromptForm,
  mandatory: number,
  built: BuiltContext,
  reserve: Reserve,
): ContextReport {
  return {
    role: setup.spec.modelRole,
    context_size: setup.contextSize,
    answer_reserve: reserve.tokens,
    answer_sized_on: reserve.sizedOn,
    mandatory_tokens: mandatory,
    counted_by: setup.counter.exact ? 'model' : 'estimate',
    prompt_form: form,
    budget_tokens: built.budgetTokens,
    used_tokens: built.usedTokens,
    included: built.included,
    dropped: built.dropped,
  };
}

/** A writer's context, built to fill what the prompt and the answer's reserve leave of the window. */
function budgetedFit(
  setup: PromptSetup,
  plan: (budgetTokens: number) => Promise<BuiltContext>,
  wholeFiles: WholeFiles | undefined,
): MessageFit {
  const { spec, contextSize, roleReserve } = setup;
  return async (answerTokens, force) => {
    const form = force ?? setup.chosen;
    const mandatory = setup.mandatoryOf[form];
    const answerRoom = answerTokensLeft(contextSize, mandatory + (wholeFiles?.tokens ?? 0));
    // The context fills what the mandatory prompt leaves of the role's window after the answer's reserve.
    const reserve = initialReserve(spec, roleReserve, wholeFiles, answerTokens, answerRoom);
    // By estimate the provider's own fit decides, as it always did; the model's count is final.
    if (setup.counter.exact && mandatory + MIN_CONTEXT_TOKENS + roleReserve > contextSize)
      return refused(setup, form, overflowText(setup, form, roleReserve, mandatory + MIN_CONTEXT_TOKENS), answerRoom);
    if (wholeFiles && mandatory + wholeFiles.tokens + reserve.tokens > contextSize) {
      const overflow = `whole-file needs ~${mandatory + wholeFiles.tokens + reserve.tokens} tokens to show and rewrite ${listed(wholeFiles.perFile)} (prompt ~${mandatory}, files ~${wholeFiles.tokens}, answer ~${reserve.tokens}) in the ${spec.modelRole}'s ${contextSize}-token window; use the search-replace or unified-diff edit format, or a model with a larger context_size`;
      return refused(setup, form, overflow, answerRoom);
    }
    const fitted = wholeFiles
      ? await coverRewrites(plan, wholeFiles, reserve, contextSize - mandatory, answerRoom)
      : { built: await plan(Math.max(0, contextSize - reserve.tokens - mandatory)), reserve };
    return {
      messages: setup.forms[form],
      context: setup.session(fitted.built.items),
      schema: setup.schema,
      report: contextReport(setup, form, mandatory, fitted.built, fitted.reserve),
      answerRoom,
      form,
      ...answerBudget(setup, fitted.reserve.tokens, answerTokens),
    };
  };
}

/**
 * Reads the role's input, and returns how to build its messages for an answer budget (at least the
 * role's `max_tokens`; more for a whole-file writer's files, or for a retry after a cut-off). Budgets
 * are counted with `ctx.promptCounter` (the model's own tokenizer when it has one), else estimated.
 */
export async function prepareMessages(spec: AgentSpec, ctx: AgentContext): Promise<MessageFit> {
  const counter = ctx.promptCounter ?? estimateCounter();
  const schema = spec.schema(ctx);
  const { input, context, budgeted, wholeFiles } = await spec.input(ctx);
  ctx.onInputBuilt?.(input);
  const { answerReserve: roleReserve } = roleBudget(ctx.state.config, spec.modelRole);
  const contextSize = roleWindow(ctx, spec.modelRole);
  const marker = budgeted || context.length > 0 ? CONTEXT_HEADER : '';
  const forms = {
    full: messagesOf(
      systemPrompt(spec, ctx, schema, 'full'),
      `${marker}${INPUT_HEADER}${JSON.stringify(input, null, 2)}`,
    ),
    short: messagesOf(systemPrompt(spec, ctx, schema, 'short'), `${marker}${INPUT_HEADER}${JSON.stringify(input)}`),
  };
  const mandatoryOf = { full: counter.countPrompt(forms.full), short: counter.countPrompt(forms.short) };
  const room = contextSize - roleReserve;
  const chosen: PromptForm =
    mandatoryOf.full > room * FULL_FORM_MAX_SHARE && mandatoryOf.short < mandatoryOf.full ? 'short' : 'full';
  const session = (items: ContextItem[]) => ctx.sessions?.order(spec.modelRole, items) ?? items;
  const setup: PromptSetup = {
    spec,
    schema,
    counter,
    contextSize,
    roleReserve,
    forms,
    mandatoryOf,
    chosen,
    session,
    budgeted: Boolean(budgeted),
  };
  if (!budgeted) return unbudgetedFit(setup, context);
  return budgetedFit(setup, calibrated(budgeted, counter), wholeFiles);
}

function messagesOf(system: string, user: string): ChatMessage[] {
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

/** The window a role's budget is planned in: the one its provider created, else what the config says. */
export function roleWindow(ctx: AgentContext, role: AgentSpec['modelRole']): number {
  return ctx.promptCounter?.contextSize ?? roleBudget(ctx.state.config, role).contextSize;
}

/** The next power-of-two window from 2048 that holds `tokens`: what to ask for instead. */
function nextWindow(tokens: number): number {
  let size = 2048;
  while (size < tokens) size *= 2;
  return size;
}

/**
 * The context engine sizes items at 4 characters a token. With the model's own tokenizer the built
 * context is counted again, and built anew on a budget scaled by what the estimate missed, so the plan
 * the provider checks already fits (instead of its exact fit dropping the lower-ranked items).
 */
function calibrated(
  budgeted: (budgetTokens: number) => Promise<BuiltContext>,
  counter: PromptCounter,
): (budgetTokens: number) => Promise<BuiltContext> {
  if (!counter.exact) return budgeted;
  const counted = (built: BuiltContext) => counter.countText(built.items.map((item) => item.text).join('\n\n'));
  return async (budgetTokens) => {
    let built = await budgeted(budgetTokens);
    let real = counted(built);
    for (let rescale = 0; rescale < MAX_RESCALES && real > budgetTokens && built.usedTokens > 0; rescale++) {
      const scale = built.usedTokens / real;
      built = await budgeted(Math.floor(budgetTokens * scale * 0.97));
      real = counted(built);
    }
    return { ...built, budgetTokens, usedTokens: real };
  };
}

interface Reserve {
  tokens: number;
  /** What the reserve was sized on, for the context report. */
  sizedOn: string;
}

function initialReserve(
  spec: AgentSpec,
  roleReserve: number,
  wholeFiles: WholeFiles | undefined,
  answerTokens: number | undefined,
  answerRoom: number,
): Reserve {
  let reserve: Reserve = { tokens: roleReserve, sizedOn: `the ${spec.modelRole}'s max_tokens` };
  if (wholeFiles && wholeFiles.answerBasis > 0 && wholeFileAnswerTokens(wholeFiles.answerBasis) > reserve.tokens) {
    const largest = [...wholeFiles.perFile].sort((a, b) => b.tokens - a.tokens).slice(0, 1);
    const sizedOn =
      wholeFiles.rules.named.length > 0
        ? `its files to rewrite: ${listed(wholeFiles.perFile)}`
        : `the largest file it is likely to rewrite: ${listed(largest)}`;
    reserve = { tokens: wholeFileAnswerTokens(wholeFiles.answerBasis), sizedOn };
  }
  // A writer that gave an answer this long in the step may give it again (a file it was not shown, even): sized
  // below it, the answer is cut and generated once more. Within the window's room, as a guess should be.
  const longest = Math.min((wholeFiles?.longestAnswer ?? 0) + CUT_OFF_MARGIN, answerRoom);
  if (wholeFiles?.longestAnswer && longest > reserve.tokens)
    reserve = { tokens: longest, sizedOn: `the longest answer it gave in this step (~${wholeFiles.longestAnswer})` };
  if (answerTokens !== undefined && answerTokens > reserve.tokens)
    reserve = { tokens: answerTokens, sizedOn: 'a retry after an answer cut off at a smaller budget' };
  return reserve;
}

/**
 * A whole-file writer may rewrite any file it is shown whole, not only the ones guessed before the
 * context was built: while the files shown need a longer answer than reserved, the context is built
 * again with the larger reserve (so with less room, lower-ranked files dropped first). A file the
 * window cannot cover even then is withheld rather than shown as an invitation to a cut-off answer.
 */
async function coverRewrites(
  budgeted: (budgetTokens: number) => Promise<BuiltContext>,
  wholeFiles: WholeFiles,
  start: Reserve,
  room: number,
  answerRoom: number,
): Promise<{ built: BuiltContext; reserve: Reserve }> {
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
  const named = built.included
    .filter((entry) => entry.kind === 'file' && rules.named.includes(entry.path))
    .reduce((sum, entry) => sum + entry.tokens, 0);
  const uncovered = new Set(
    built.included
      .filter(
        (entry) =>
          entry.kind === 'file' &&
          invitesRewrite(entry.path, rules) &&
          wholeFileAnswerTokens(named + entry.tokens) > reserve,
      )
      .map((entry) => entry.id),
  );
  if (uncovered.size === 0) return built;
  const withheld = built.included.filter((entry) => uncovered.has(entry.id));
  return {
    ...built,
    items: built.items.filter((item) => !uncovered.has(item.id)),
    included: built.included.filter((entry) => !uncovered.has(entry.id)),
    dropped: [
      ...withheld.map((entry) => ({
        ...entry,
        reason: `${entry.reason}; its whole-file rewrite would not fit the ${reserve}-token answer budget`,
      })),
      ...built.dropped,
    ],
    usedTokens: built.usedTokens - withheld.reduce((sum, entry) => sum + entry.tokens, 0),
  };
}
