import path from 'node:path';
import { initialState } from '../../shared/engine/initialState';
import { configFromWorkflow } from '../../shared/engine/configFromWorkflow';
import type { AgentPurpose } from '../../shared/engine/agentPurpose';
import { WORKFLOWS } from '../../shared/engine/workflows';
import { type WorkflowName } from '../../shared/schemas/workflowName';
import type { RunState } from '../../shared/engine/runState';
import { contextFiles } from '../../electron/core/agents/contextFiles';
import { PromptLibrary } from '../../electron/core/agents/promptLibrary';
import { agentSpecFor, type AgentSpec } from '../../electron/core/agents/registry';
import { type AgentContext } from '../../electron/core/agents/agentContext';
import { buildMessages, systemPrompt } from '../../electron/core/agents/buildMessages';
import type { ContextReport } from '../../electron/core/agents/agentContext';
import { getEditFormat } from '../../electron/core/edits/formats';
import { fitContext } from '../../electron/core/llm/contextFit';
import { DEFAULT_MAX_TOKENS } from '../../electron/core/llm/providers/provider';
import { estimateTokens } from '../../electron/core/llm/results';
import type { ChatMessage, ContextItem } from '../../electron/core/llm/types';
import type { ModelRole } from '../../shared/schemas/roles';
import { createReadOnlyTools } from '../../electron/core/tools/readOnlyTools';
import type { ReadOnlyTools } from '../../electron/core/tools/types';

export type Mode = 'with_failure' | 'goal_only';
export type Method = 'baseline' | 'new';
/**
 * The roles measured: the dev-agent Coder with the failing output, the editor-scouts Editor from the goal
 * alone, the supervised Planner's first plan and the editor-scouts Editor's brief (both from the goal).
 */
export type BenchRole = 'coder' | 'editor' | 'planner' | 'briefer';
export const BENCH_ROLES: BenchRole[] = ['coder', 'editor', 'planner', 'briefer'];

const SETUP: Record<BenchRole, { workflow: WorkflowName; purpose: AgentPurpose; modelRole: ModelRole }> = {
  coder: { workflow: 'dev-agent', purpose: 'code', modelRole: 'coder' },
  editor: { workflow: 'editor-scouts', purpose: 'code', modelRole: 'editor' },
  planner: { workflow: 'supervised', purpose: 'plan', modelRole: 'planner' },
  briefer: { workflow: 'editor-scouts', purpose: 'scout_brief', modelRole: 'editor' },
};

export interface RolePrompt {
  overflow: boolean;
  promptTokens: number;
  /** Ids of the context items the prompt kept. */
  kept: string[];
  /** The context text the model would read. */
  contextText: string;
  /** The user message as fitted (input and context). */
  userText: string;
  report: ContextReport | null;
}

const prompts = new PromptLibrary(path.resolve(import.meta.dirname, '../../prompts'));
const countPrompt = (messages: ChatMessage[]) =>
  messages.reduce((sum, message) => sum + estimateTokens(message.content) + 4, 0);

/** A fresh run's state on the task's repository, in place, with the failing output as its feedback. */
function benchState(workDir: string, goal: string, feedback: string | null, config: RunState['config']): RunState {
  return {
    ...initialState({
      runId: '20260101T000000Z',
      goal,
      goalHash: 'bench',
      config,
      now: new Date(0).toISOString(),
      nowMs: 0,
    }),
    workspace: {
      runId: 'bench',
      repoRoot: workDir,
      workDir,
      mode: 'in-place',
      branch: 'main',
      baseCommit: '',
      originalBranch: null,
      protectedPaths: [],
    },
    feedback: feedback === null ? null : { kind: 'first_failure', text: feedback },
  };
}

/** The baseline's input and context for a role: fixed-size path summaries for the planning roles. */
async function baselineInput(
  role: BenchRole,
  tools: ReadOnlyTools,
  goal: string,
  feedback: string | null,
): Promise<{ input: Record<string, unknown>; context: ContextItem[] }> {
  const withFeedback = feedback === null ? {} : { feedback };
  if (role === 'planner') {
    const repo_summary = await tools.repoSummary({ maxBytes: 12_000 });
    return { input: { goal, repo_summary, plan_id: 'plan_0001', ...withFeedback }, context: [] };
  }
  if (role === 'briefer') {
    const repo_summary = await tools.repoSummary({ maxBytes: 8_000 });
    return { input: { goal, repo_summary, test_command: null, ...withFeedback }, context: [] };
  }
  // Today's writer: the whole feedback in the input, then every listed file in listing order.
  const input = {
    task: { id: 'T1', title: goal, rationale: '', acceptance: '', artifacts: [] },
    goal,
    attempt: 1,
    ...withFeedback,
  };
  return { input, context: await contextFiles(tools, { artifacts: [], feedback, includeAll: true }) };
}

/** The baseline's messages: the role's system prompt, then its input and context as today's runs sent them. */
async function baselineMessages(
  role: BenchRole,
  spec: AgentSpec,
  ctx: AgentContext,
  goal: string,
  feedback: string | null,
): Promise<{ messages: ChatMessage[]; context: ContextItem[] }> {
  const { input, context } = await baselineInput(role, ctx.tools, goal, feedback);
  const messages: ChatMessage[] = [
    { role: 'system', content: systemPrompt(spec, ctx, spec.schema(ctx)) },
    {
      role: 'user',
      content: `Input:\n${JSON.stringify(input, null, 2)}${context.length > 0 ? '\n\nRelevant files and notes:\n{{context}}' : ''}`,
    },
  ];
  return { messages, context };
}

/** The prompt fitted to the window as the server and replay providers fit it. */
function fittedPrompt(
  messages: ChatMessage[],
  context: ContextItem[],
  contextSize: number,
  report: ContextReport | null,
): RolePrompt {
  const fit = fitContext({
    messages,
    context,
    budgetTokens: contextSize - DEFAULT_MAX_TOKENS,
    countPrompt,
    countText: estimateTokens,
  });
  if (!fit.ok)
    return { overflow: true, promptTokens: fit.mandatoryTokens, kept: [], contextText: '', userText: '', report };
  const keptSet = new Set(fit.kept);
  return {
    overflow: false,
    promptTokens: fit.promptTokens,
    kept: fit.kept,
    contextText: context
      .filter((item) => keptSet.has(item.id))
      .map((item) => item.text)
      .join('\n\n'),
    userText: fit.messages
      .filter((message) => message.role === 'user')
      .map((message) => message.content)
      .join('\n'),
    report,
  };
}

/**
 * A role's prompt as a run would build it, fitted as the server and replay providers fit it (~4
 * characters a token). Baseline: the writer's listing-order context, the Planner's fixed 12 KB and the
 * brief's 8 KB path summary; new: the ranked, budgeted context and map.
 */
export async function rolePrompt(
  workDir: string,
  role: BenchRole,
  goal: string,
  feedback: string | null,
  contextSize: number,
  method: Method,
): Promise<RolePrompt> {
  const { workflow: workflowName, purpose, modelRole } = SETUP[role];
  const workflow = WORKFLOWS[workflowName];
  const config = {
    ...configFromWorkflow(workflow),
    edit_format: 'search-replace' as const,
    models: { [modelRole]: { model: 'replay:bench.json', context_size: contextSize } },
  };
  const ctx: AgentContext = {
    state: benchState(workDir, goal, feedback, config),
    workflow,
    tools: createReadOnlyTools(workDir),
    prompts,
    editFormat: getEditFormat(config.edit_format),
    knowledge: [],
    scoutReport: null,
  };
  const spec = agentSpecFor(purpose, workflow);
  if (!spec) throw new Error(`no agent for ${purpose}`);
  if (method === 'new') {
    const { messages, context, report } = await buildMessages(spec, ctx);
    return fittedPrompt(messages, context, contextSize, report);
  }
  const { messages, context } = await baselineMessages(role, spec, ctx, goal, feedback);
  return fittedPrompt(messages, context, contextSize, null);
}
