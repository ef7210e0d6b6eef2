import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromWorkflow } from '../../../shared/engine/configFromWorkflow';
import { initialState } from '../../../shared/engine/initialState';
import { WORKFLOWS } from '../../../shared/engine/workflows';
import { type WorkflowName } from '../../../shared/schemas/workflowName';
import type { RunState } from '../../../shared/engine/runState';
import { APP_ROOT } from '../../../test-support/exampleRepo';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { getEditFormat } from '../edits/formats';
import { fitContext } from '../llm/contextFit';
import { estimateTokens } from '../llm/results';
import type { ChatMessage } from '../llm/types';
import { createReadOnlyTools } from '../tools/readOnlyTools';
import { PromptLibrary } from './promptLibrary';
import { agentSpecFor } from './registry';
import { type AgentContext, type ContextReport } from './agentContext';
import { buildMessages } from './buildMessages';

const GOAL = 'parse_invoice_total drops the cents of a total written with a comma; fix it';
const prompts = new PromptLibrary(path.join(APP_ROOT, 'prompts'));
const countPrompt = (messages: ChatMessage[]) =>
  messages.reduce((sum, message) => sum + estimateTokens(message.content) + 4, 0);

/** A project of 600 modules in nested folders: its plain path summary alone is past 12 KB. */
function largeRepo(): TempRepo {
  const files: Record<string, string> = {};
  for (let index = 0; index < 600; index++) {
    const area = `services/area_${index % 12}/handlers_${index % 7}`;
    files[`${area}/module_with_a_long_name_${index}.py`] =
      `"""Handler ${index} of the billing service."""\n\n\ndef handle_request_${index}(payload):\n    return payload\n`;
  }
  files['billing/invoices/parse.py'] =
    '"""Invoice parsing."""\n\n\ndef parse_invoice_total(text):\n    return int(text.split(",")[0])\n';
  return makeTempRepo({ files });
}

function contextFor(
  dir: string,
  workflowName: WorkflowName,
  role: 'planner' | 'editor',
  contextSize: number,
): AgentContext {
  const workflow = WORKFLOWS[workflowName];
  const config = {
    ...configFromWorkflow(workflow),
    models: { [role]: { model: 'replay:none.json', context_size: contextSize } },
  };
  const state: RunState = {
    ...initialState({
      runId: '20260101T000000Z',
      goal: GOAL,
      goalHash: 'test',
      config,
      now: new Date(0).toISOString(),
      nowMs: 0,
    }),
    workspace: {
      runId: 'test',
      repoRoot: dir,
      workDir: dir,
      mode: 'in-place',
      branch: 'main',
      baseCommit: '',
      originalBranch: null,
      protectedPaths: [],
    },
  };
  return {
    state,
    workflow,
    tools: createReadOnlyTools(dir),
    prompts,
    editFormat: getEditFormat(config.edit_format),
    knowledge: [],
    scoutReport: null,
  };
}

let repo: TempRepo;
beforeAll(() => {
  repo = largeRepo();
});
afterAll(() => repo.remove());

// docs/seeds.md 0.13: the repo summary the Planner gets fits its window
describe("the planning roles' repository map", () => {
  it.each([
    ['minimal', 'plan', 'planner'],
    ['supervised', 'plan', 'planner'],
    ['editor-scouts', 'scout_brief', 'editor'],
  ] as const)(
    "%s %s: fits a 4k window, the goal's file first, and says what it left out",
    async (workflowName, purpose, role) => {
      const ctx = contextFor(repo.dir, workflowName, role, 4096);
      const spec = agentSpecFor(purpose, WORKFLOWS[workflowName]);
      if (!spec) throw new Error('no spec');
      const { messages, context, report } = await buildMessages(spec, ctx);
      const fit = fitContext({ messages, context, budgetTokens: 4096 - 1024, countPrompt, countText: estimateTokens });
      expect(fit.ok).toBe(true);
      expect(fit.ok && fit.kept[0]).toBe('map:billing/invoices/parse.py');
      expect(fit.ok && fit.dropped).toEqual([]);
      const full = report as ContextReport;
      expect(full.used_tokens).toBeLessThanOrEqual(full.budget_tokens);
      expect(full.mandatory_tokens + full.budget_tokens + full.answer_reserve).toBeLessThanOrEqual(4096);
      expect(full.dropped.length).toBeGreaterThan(0);
      expect(full.dropped.at(-1)?.reason).toMatch(/more paths; (budget spent|past the first 80 paths)/);
    },
  );

  it('shows what the goal points at and the first paths of the layout, however large the window (issue 28)', async () => {
    const plan = agentSpecFor('plan', WORKFLOWS.minimal) as NonNullable<ReturnType<typeof agentSpecFor>>;
    const small = await buildMessages(plan, contextFor(repo.dir, 'minimal', 'planner', 4096));
    const large = await buildMessages(plan, contextFor(repo.dir, 'minimal', 'planner', 32_768));
    expect(large.report?.included.map((entry) => entry.id)).toEqual(small.report?.included.map((entry) => entry.id));
    expect(large.report?.used_tokens).toBeLessThan((large.report?.budget_tokens ?? 0) / 4);
    expect(large.report?.dropped.at(-1)?.reason).toMatch(/more paths; past the first 80 paths/);
  });
});
