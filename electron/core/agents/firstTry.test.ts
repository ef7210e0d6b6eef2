import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunState } from '../../../shared/engine/runState';
import { WORKFLOWS, type Workflow } from '../../../shared/engine/workflows';
import { APP_ROOT } from '../../../test-support/exampleRepo';
import { agentOutput, simulate, testResult, workspace } from '../../../test-support/engineSim';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { getEditFormat } from '../edits/formats';
import { FIRST_TRY_WINDOW, firstTryBudget } from '../context/roleBudget';
import { createReadOnlyTools } from '../tools/readOnlyTools';
import { prepareMessages } from './buildMessages';
import { PromptLibrary } from './promptLibrary';
import { agentSpecFor } from './registry';
import { type AgentContext } from './agentContext';

const prompts = new PromptLibrary(path.join(APP_ROOT, 'prompts'));
const lines = (count: number, line: (index: number) => string) =>
  Array.from({ length: count }, (_, index) => line(index)).join('\n');
// ~5,000 tokens: whole in a 32k window's share for the files to edit, not in an 8k one's.
const PRICE = `${lines(260, (index) => `export function priceRule${index}(value) {\n  return value * ${index} + ${index}; // rounding rule number ${index}\n}`)}\nexport function formatPrice(cents) {\n  return String(Math.floor(cents / 100));\n}\n`;
const FAILURE =
  "FAIL test/price.test.js > cents\nAssertionError: expected '19' to equal '19.99'\n    at formatPrice (src/price.js:782:10)\n";

let repo: TempRepo;
beforeAll(() => {
  repo = makeTempRepo({
    files: {
      'package.json': '{"type":"module"}',
      'src/price.js': PRICE,
      'test/price.test.js': "import { formatPrice } from '../src/price.js';\n",
    },
  });
});
afterAll(() => repo.remove());

/** The state at each of the writer's calls in a run whose tests fail once, then pass. */
function writerStates(workflow: Workflow): RunState[] {
  const states: RunState[] = [];
  let verified = 0;
  simulate(
    workflow,
    (action, state) => {
      switch (action.kind) {
        case 'prepare':
          return { kind: 'prepared', workspace, head: 'base', test_command: ['node', '--test'] };
        case 'apply':
          return { kind: 'applied', commit: `c${verified}`, head: `c${verified}`, files: ['src/price.js'] };
        case 'verify':
          verified += 1;
          return {
            kind: 'verified',
            purpose: action.purpose,
            test: testResult(action.purpose !== 'baseline' && verified > 2),
          };
        case 'agent':
          if (action.purpose === 'code') {
            states.push(state);
            return agentOutput(action, { diff: '--- a/src/price.js\n+++ b/src/price.js\n@@ -1 +1 @@\n-a\n+b\n' });
          }
          return agentOutput(action, { approved: true, score: 95, issues: [], feedback: 'ok' });
        default:
          return { kind: 'fatal', code: 'INTERNAL', message: action.kind };
      }
    },
    { config: (config) => ({ ...config, models: { coder: { model: 'oracle:fix.patch', max_tokens: 1024 } } }) },
  );
  return states;
}

async function contextOf(state: RunState, workflow: Workflow, format: 'unified-diff' | 'whole-file' = 'unified-diff') {
  const ctx: AgentContext = {
    state: {
      ...state,
      workspace: { ...workspace, repoRoot: repo.dir, workDir: repo.dir },
      feedback: { kind: 'first_failure', text: FAILURE },
    },
    workflow,
    tools: createReadOnlyTools(repo.dir),
    prompts,
    editFormat: getEditFormat(format),
    knowledge: [],
    scoutReport: null,
  };
  const spec = agentSpecFor('code', workflow);
  if (!spec) throw new Error('no writer');
  const built = await (await prepareMessages(spec, ctx))();
  return { ids: built.context.map((item) => item.id), report: built.report };
}

describe("a writer's first try reads what an 8k window holds (issue 28, decision 99)", () => {
  it('plans the first try as in an 8k window and the retry in the whole window', async () => {
    const [first, retry] = writerStates(WORKFLOWS['dev-agent']);
    if (!first || !retry) throw new Error('the run made fewer than two writer calls');
    expect(retry.plans.flatMap((plan) => plan.steps).find((step) => step.id === retry.current_step_id)?.attempts).toBe(
      2,
    );

    const firstTry = await contextOf(first, WORKFLOWS['dev-agent']);
    expect(firstTry.report?.context_size).toBe(32_768);
    expect(firstTry.ids).toContain('excerpt:src/price.js');
    expect(firstTry.report?.used_tokens).toBeLessThan(FIRST_TRY_WINDOW);

    const second = await contextOf(retry, WORKFLOWS['dev-agent']);
    expect(second.ids).toContain('file:src/price.js');
    expect(second.report?.budget_tokens).toBe((firstTry.report?.budget_tokens ?? 0) + 32_768 - FIRST_TRY_WINDOW);
  });

  it('gives a whole-file writer its whole window on the first try (it rewrites what it is shown)', async () => {
    const [first] = writerStates(WORKFLOWS['dev-agent']);
    if (!first) throw new Error('no writer call');
    const whole = await contextOf(first, WORKFLOWS['dev-agent'], 'whole-file');
    expect(whole.ids).toContain('file:src/price.js');
    expect(whole.report?.budget_tokens).toBeGreaterThan(FIRST_TRY_WINDOW);
  });

  it('gives the whole window to the first try of a workflow that never retries (one attempt, no fix cycles)', async () => {
    const [first] = writerStates(WORKFLOWS['dev-agent']);
    if (!first) throw new Error('no writer call');
    // Seed 000's limits (minimal): one attempt per task, no fix cycles.
    const oneAttempt = {
      ...first,
      config: { ...first.config, limits: { ...first.config.limits, max_attempts_per_task: 1, max_fix_cycles: 0 } },
    };
    expect(WORKFLOWS.minimal.defaults.limits.max_attempts_per_task).toBe(1);
    const single = await contextOf(oneAttempt, WORKFLOWS['dev-agent']);
    expect(single.ids).toContain('file:src/price.js');
    expect(single.report?.budget_tokens).toBeGreaterThan(FIRST_TRY_WINDOW);
    // One attempt but a fix cycle after it (seed 002's Tester → Coder): the first try is planned as in 8k.
    const withFixCycle = {
      ...oneAttempt,
      config: { ...oneAttempt.config, limits: { ...oneAttempt.config.limits, max_fix_cycles: 1 } },
    };
    expect((await contextOf(withFixCycle, WORKFLOWS['dev-agent'])).report?.used_tokens).toBeLessThan(FIRST_TRY_WINDOW);
  });

  it('leaves a budget planned in a window of 8k or less as it is', () => {
    expect(firstTryBudget(3000, 4096)).toBe(3000);
    expect(firstTryBudget(3000, 8192)).toBe(3000);
    expect(firstTryBudget(29_000, 32_768)).toBe(29_000 - 24_576);
    expect(firstTryBudget(100, 32_768)).toBe(0);
  });
});
