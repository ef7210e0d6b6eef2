import fs from 'node:fs';
import path from 'node:path';
import type { AgentPurpose } from '../../shared/engine/agentPurpose';
import { configFromWorkflow } from '../../shared/engine/configFromWorkflow';
import { initialState } from '../../shared/engine/initialState';
import type { RunState } from '../../shared/engine/runState';
import { WORKFLOWS } from '../../shared/engine/workflows';
import { type WorkflowName } from '../../shared/schemas/workflowName';
import { prepareMessages, type BuiltMessages } from '../../electron/core/agents/buildMessages';
import type { PromptLibrary } from '../../electron/core/agents/promptLibrary';
import { agentSpecFor } from '../../electron/core/agents/registry';
import { type AgentContext } from '../../electron/core/agents/agentContext';
import { getEditFormat } from '../../electron/core/edits/formats';
import { materializeCorpusTask, type CorpusTask } from '../../electron/core/eval/corpus/index';
import { fitContext } from '../../electron/core/llm/contextFit';
import { DEFAULT_MAX_TOKENS } from '../../electron/core/llm/providers/provider';
import type { PromptCounter } from '../../electron/core/llm/types';
import type { ModelRole } from '../../shared/schemas/roles';
import { MODEL_ROLES } from '../../shared/schemas/roles';
import { createReadOnlyTools } from '../../electron/core/tools/readOnlyTools';

export interface RoleCall {
  purpose: AgentPurpose;
  modelRole: ModelRole;
  /** Whether the call carries the failing test output as its feedback. */
  feedback: boolean;
}

/** Each workflow's agent calls, in the order a run makes them (docs/prompts/<workflow>.md). */
export const ROLE_CALLS: Record<WorkflowName, RoleCall[]> = {
  minimal: [
    { purpose: 'plan', modelRole: 'planner', feedback: false },
    { purpose: 'code', modelRole: 'coder', feedback: false },
    { purpose: 'test_report', modelRole: 'tester', feedback: true },
  ],
  'dev-agent': [
    { purpose: 'code', modelRole: 'coder', feedback: true },
    { purpose: 'review_step', modelRole: 'supervisor', feedback: false },
  ],
  'retry-loop': [
    { purpose: 'code', modelRole: 'coder', feedback: false },
    { purpose: 'code', modelRole: 'coder', feedback: true },
  ],
  supervised: [
    { purpose: 'plan', modelRole: 'planner', feedback: false },
    { purpose: 'review_plan', modelRole: 'supervisor', feedback: false },
    { purpose: 'code', modelRole: 'coder', feedback: false },
    { purpose: 'fix_plan', modelRole: 'tester', feedback: true },
    { purpose: 'code', modelRole: 'coder', feedback: true },
    { purpose: 'review_code', modelRole: 'supervisor', feedback: false },
    { purpose: 'review_goal', modelRole: 'supervisor', feedback: false },
  ],
  'editor-scouts': [
    { purpose: 'scout_brief', modelRole: 'editor', feedback: false },
    { purpose: 'scout', modelRole: 'scout', feedback: false },
    { purpose: 'code', modelRole: 'editor', feedback: false },
  ],
};

export async function taskRepo(corpusDir: string, task: CorpusTask, cacheDir: string): Promise<string> {
  const dir = path.join(cacheDir, 'context-repos', `${task.id}-${task.fix_commit.slice(0, 8)}`);
  if (!fs.existsSync(path.join(dir, '.git'))) {
    fs.rmSync(dir, { recursive: true, force: true });
    await materializeCorpusTask(corpusDir, task, dir);
  }
  return dir;
}

export interface FirstPromptCell {
  overflow: boolean;
  form?: 'full' | 'short';
  mandatory_tokens?: number;
  prompt_tokens?: number;
  context_tokens?: number;
  kept?: number;
  dropped?: number;
  message?: string;
  /** Why the prompt could not be built here (then it is not counted). */
  error?: string;
}

interface FirstPromptInput {
  dir: string;
  task: CorpusTask;
  workflowName: WorkflowName;
  call: RoleCall;
  feedback: string;
  counter: PromptCounter;
  window: number;
  prompts: PromptLibrary;
  /** Another edit format than the workflow's own. */
  editFormat?: 'search-replace';
}

/** A fresh run's state on the task's repository, every role's window set, as the workflow would start it. */
function benchState(input: FirstPromptInput): RunState {
  const { dir, task, workflowName, call, window } = input;
  const models = Object.fromEntries(
    MODEL_ROLES.map((role) => [role, { model: 'llama:bench.gguf', context_size: window }]),
  );
  const config = {
    ...configFromWorkflow(WORKFLOWS[workflowName]),
    models,
    ...(input.editFormat ? { edit_format: input.editFormat } : {}),
  };
  return {
    ...initialState({
      runId: '20260101T000000Z',
      goal: task.goal,
      goalHash: 'bench',
      config,
      now: new Date(0).toISOString(),
      nowMs: 0,
    }),
    workspace: {
      runId: 'bench',
      repoRoot: dir,
      workDir: dir,
      mode: 'in-place',
      branch: 'main',
      baseCommit: '',
      originalBranch: null,
      protectedPaths: [],
    },
    feedback: call.feedback ? { kind: 'first_failure', text: input.feedback } : null,
    test_command: task.test_command.split(' '),
    proposal_files: task.gold_files,
  };
}

/** The built prompt fitted as the llama provider fits it, counted with the model's tokenizer. */
function fittedCell(built: BuiltMessages, counter: PromptCounter, window: number): FirstPromptCell {
  if (built.overflow) return { overflow: true, form: built.form, message: built.overflow };
  const maxTokens = built.maxTokens ?? DEFAULT_MAX_TOKENS;
  const fit = fitContext({
    messages: built.messages,
    context: built.context,
    budgetTokens: window - maxTokens,
    countPrompt: (messages) => counter.countPrompt(messages),
    countText: (text) => counter.countText(text),
  });
  if (!fit.ok)
    return {
      overflow: true,
      form: built.form,
      mandatory_tokens: fit.mandatoryTokens,
      message: `mandatory ${fit.mandatoryTokens} > ${window - maxTokens}`,
    };
  const mandatory = counter.countPrompt(
    built.messages.map((message) => ({ ...message, content: message.content.replace('{{context}}', '') })),
  );
  return {
    overflow: false,
    form: built.form,
    mandatory_tokens: mandatory,
    prompt_tokens: fit.promptTokens,
    context_tokens: fit.promptTokens - mandatory,
    kept: fit.kept.length,
    dropped: fit.dropped.length,
  };
}

/** A role's first prompt on a corpus task as a run builds it, planned and fitted with the model's tokenizer. */
export async function firstPrompt(input: FirstPromptInput): Promise<FirstPromptCell> {
  const { dir, task, workflowName, call, counter, window } = input;
  const workflow = WORKFLOWS[workflowName];
  const state = benchState(input);
  const ctx: AgentContext = {
    state,
    workflow,
    tools: createReadOnlyTools(dir),
    prompts: input.prompts,
    editFormat: getEditFormat(state.config.edit_format),
    knowledge: [],
    scoutReport: null,
    promptCounter: counter,
    changeDiff: async () => task.gold_patch,
  };
  const spec = agentSpecFor(call.purpose, workflow);
  if (!spec) return { overflow: false, error: `no agent for ${call.purpose}` };
  try {
    return fittedCell(await (await prepareMessages(spec, ctx))(), counter, window);
  } catch (error) {
    return {
      overflow: false,
      error: error instanceof Error ? (error.message.split('\n')[0] ?? 'error') : String(error),
    };
  }
}
