import path from 'node:path';
import { initialState } from '../../shared/engine/initialState';
import { configFromPreset } from '../../shared/engine/configFromPreset';
import { PRESETS } from '../../shared/engine/presets';
import type { RunState } from '../../shared/engine/runState';
import { contextFiles } from '../../electron/core/agents/contextFiles';
import { PromptLibrary } from '../../electron/core/agents/promptLibrary';
import { agentSpecFor, type AgentContext } from '../../electron/core/agents/registry';
import { buildMessages, systemPrompt } from '../../electron/core/agents/runAgent';
import type { ContextReport } from '../../electron/core/agents/registry';
import { getEditFormat } from '../../electron/core/edits/formats';
import { fitContext } from '../../electron/core/llm/contextFit';
import { DEFAULT_MAX_TOKENS } from '../../electron/core/llm/providers/provider';
import { estimateTokens } from '../../electron/core/llm/results';
import type { ChatMessage, ContextItem } from '../../electron/core/llm/types';
import { createReadOnlyTools } from '../../electron/core/tools/readOnlyTools';

export type Mode = 'with_failure' | 'goal_only';
export type Method = 'baseline' | 'new';

export interface WriterPrompt {
  overflow: boolean;
  promptTokens: number;
  /** Ids of the context items the prompt kept. */
  kept: string[];
  /** The context text the model would read. */
  contextText: string;
  report: ContextReport | null;
}

const prompts = new PromptLibrary(path.resolve(import.meta.dirname, '../../prompts'));
const countPrompt = (messages: ChatMessage[]) => messages.reduce((sum, message) => sum + estimateTokens(message.content) + 4, 0);

/**
 * The writer's prompt as a run would build it, fitted as the server and replay providers fit it
 * (~4 characters a token): with the failing output, dev-agent's Coder; from the goal alone, the
 * editor-scouts Editor before any Scout report.
 */
export async function writerPrompt(workDir: string, goal: string, feedback: string | null, contextSize: number, method: Method): Promise<WriterPrompt> {
  const preset = PRESETS[feedback === null ? 'editor-scouts' : 'dev-agent'];
  const role = preset.writer;
  const config = { ...configFromPreset(preset), edit_format: 'search-replace' as const, models: { [role]: { model: 'replay:bench.json', context_size: contextSize } } };
  const state: RunState = {
    ...initialState({ runId: '20260101T000000Z', goal, goalHash: 'bench', config, now: new Date(0).toISOString(), nowMs: 0 }),
    workspace: { runId: 'bench', repoRoot: workDir, workDir, mode: 'in-place', branch: 'main', baseCommit: '', originalBranch: null, protectedPaths: [] },
    feedback: feedback === null ? null : { kind: 'first_failure', text: feedback },
  };
  const tools = createReadOnlyTools(workDir);
  const ctx: AgentContext = { state, preset, tools, prompts, editFormat: getEditFormat(config.edit_format), knowledge: [], scoutReport: null };
  const spec = agentSpecFor('code', preset);
  if (!spec) throw new Error('no writer');
  let messages: ChatMessage[];
  let context: ContextItem[];
  let report: ContextReport | null = null;
  if (method === 'new') {
    ({ messages, context, report } = await buildMessages(spec, ctx));
  } else {
    // Today's writer: the whole feedback in the input, then every listed file in listing order.
    const input = { task: { id: 'T1', title: goal, rationale: '', acceptance: '', artifacts: [] }, goal, attempt: 1, ...(feedback === null ? {} : { feedback }) };
    context = await contextFiles(tools, { artifacts: [], feedback, includeAll: true });
    messages = [
      { role: 'system', content: systemPrompt(spec, ctx, spec.schema(ctx)) },
      { role: 'user', content: `Input:\n${JSON.stringify(input, null, 2)}${context.length > 0 ? '\n\nRelevant files and notes:\n{{context}}' : ''}` },
    ];
  }
  const fit = fitContext({ messages, context, budgetTokens: contextSize - DEFAULT_MAX_TOKENS, countPrompt, countText: estimateTokens });
  if (!fit.ok) return { overflow: true, promptTokens: fit.mandatoryTokens, kept: [], contextText: '', report };
  const keptSet = new Set(fit.kept);
  return { overflow: false, promptTokens: fit.promptTokens, kept: fit.kept, contextText: context.filter((item) => keptSet.has(item.id)).map((item) => item.text).join('\n\n'), report };
}
