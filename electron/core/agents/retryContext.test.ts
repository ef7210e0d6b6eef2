import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromWorkflow } from '../../../shared/engine/configFromWorkflow';
import { initialState } from '../../../shared/engine/initialState';
import { WORKFLOWS } from '../../../shared/engine/workflows';
import type { RunState, TestSummary } from '../../../shared/engine/runState';
import { APP_ROOT } from '../../../test-support/exampleRepo';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { getEditFormat } from '../edits/formats';
import { createReadOnlyTools } from '../tools/readOnlyTools';
import { PromptLibrary } from './promptLibrary';
import { agentSpecFor } from './registry';
import { type AgentContext } from './agentContext';
import { buildMessages } from './buildMessages';

const GOAL = 'formatPrice prints the cents of a price wrong; fix formatPrice';
const prompts = new PromptLibrary(path.join(APP_ROOT, 'prompts'));

/** The goal's words point at src/price.js; src/rounding.js, where the fix goes, is named nowhere. */
function repoFiles(): Record<string, string> {
  const filler = Array.from(
    { length: 120 },
    (_, index) => `function helper${index}(value) {\n  return value + ${index};\n}\n`,
  ).join('\n');
  return {
    'src/price.js':
      "const { roundCents } = require('./rounding');\n\n// formatPrice: a price as text\nfunction formatPrice(price) {\n  return `${Math.floor(price)}.${roundCents(price)}`;\n}\n\nmodule.exports = { formatPrice };\n",
    'src/rounding.js': `${filler}\nfunction roundCents(value) {\n  return Math.round(value * 100) % 100;\n}\n\nmodule.exports = { roundCents };\n`,
    'test/price.test.js':
      "const { formatPrice } = require('../src/price');\nrequire('node:assert').equal(formatPrice(1.05), '1.05');\n",
  };
}

function writerContext(
  dir: string,
  attempts: number,
  proposalFiles: string[],
  lastTest: TestSummary | null = null,
  feedbackText = 'your answer was not applied: edit 1 is a placeholder, not code: write out every line you keep',
): AgentContext {
  const workflow = WORKFLOWS['dev-agent'];
  const config = {
    ...configFromWorkflow(workflow),
    edit_format: 'search-replace' as const,
    models: { coder: { model: 'replay:none.json', context_size: 8192 } },
  };
  const base = initialState({
    runId: '20260101T000000Z',
    goal: GOAL,
    goalHash: 'test',
    config,
    now: new Date(0).toISOString(),
    nowMs: 0,
  });
  const step = {
    id: 'T1',
    title: GOAL,
    rationale: '',
    acceptance: '',
    artifacts: [],
    complexity: null,
    depends_on: [],
    status: 'in_progress' as const,
    attempts,
    depth: 0,
    parent_step_id: null,
    sub_plan_id: null,
    fail_reason: null,
    commits: [],
  };
  const plan = {
    plan_id: 'plan_0001',
    analysis: '',
    depth: 0,
    parent_plan_id: null,
    parent_step_id: null,
    steps: [step],
    status: 'in_progress' as const,
  };
  const state: RunState = {
    ...base,
    plans: [plan],
    plan_stack: ['plan_0001'],
    current_step_id: 'T1',
    proposal_files: proposalFiles,
    last_test: lastTest,
    feedback: attempts > 1 ? { kind: 'edit_rejected' as const, text: feedbackText } : null,
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
    editFormat: getEditFormat('search-replace'),
    knowledge: [],
    scoutReport: null,
  };
}

let repo: TempRepo;
beforeAll(() => {
  repo = makeTempRepo({ files: repoFiles() });
});
afterAll(() => repo.remove());

describe("a retry's writer context", () => {
  it('shows whole the source files the last answer wrote, though the ranking would cut or drop them; never a test file for it', async () => {
    const coder = agentSpecFor('code', WORKFLOWS['dev-agent']);
    if (!coder) throw new Error('no coder spec');
    const first = await buildMessages(coder, writerContext(repo.dir, 1, []));
    expect(first.report?.included.map((entry) => entry.id)).not.toContain('file:src/rounding.js');
    const retry = await buildMessages(coder, writerContext(repo.dir, 2, ['src/rounding.js', 'test/price.test.js']));
    const ids = retry.report?.included.map((entry) => entry.id) ?? [];
    expect(ids).toContain('file:src/rounding.js');
    expect(ids).not.toContain('file:test/price.test.js');
    // The same files named by a first attempt's state change nothing: only a retry carries the last answer's files.
    const notRetry = await buildMessages(coder, writerContext(repo.dir, 1, ['src/rounding.js']));
    expect(notRetry.report?.included.map((entry) => entry.id)).toEqual(first.report?.included.map((entry) => entry.id));
  });

  it('shows whole a source file the feedback names by path (a decline: the file is not in the context), never a test file', async () => {
    const coder = agentSpecFor('code', WORKFLOWS['dev-agent']);
    if (!coder) throw new Error('no coder spec');
    const declined =
      "src/rounding.js is not in the writer's context, so no search block can be copied from it; see test/price.test.js and ../etc/passwd";
    const retry = await buildMessages(coder, writerContext(repo.dir, 2, [], null, declined));
    const ids = retry.report?.included.map((entry) => entry.id) ?? [];
    expect(ids).toContain('file:src/rounding.js');
    expect(ids).not.toContain('file:test/price.test.js');
    const plain = await buildMessages(coder, writerContext(repo.dir, 2, []));
    expect(plain.report?.included.map((entry) => entry.id)).not.toContain('file:src/rounding.js');
  });

  it("starts a sub-plan's step where its blocked parent stopped: the code the Coder's request pointed at is in view", async () => {
    const coder = agentSpecFor('code', WORKFLOWS['dev-agent']);
    if (!coder) throw new Error('no coder spec');
    const subStep = (reason: string | null): AgentContext => {
      const ctx = writerContext(repo.dir, 1, []);
      const [plan] = ctx.state.plans;
      const parent = plan?.steps[0];
      if (!plan || !parent) throw new Error('no plan');
      const blocked = { ...parent, status: 'blocked' as const, fail_reason: reason };
      const child = { ...parent, id: 'T1.1', depth: 1, parent_step_id: 'T1' };
      const subPlan = { ...plan, plan_id: 'plan_0002', depth: 1, parent_step_id: 'T1', steps: [child] };
      const state = {
        ...ctx.state,
        plans: [{ ...plan, steps: [blocked] }, subPlan],
        plan_stack: ['plan_0001', 'plan_0002'],
        current_step_id: 'T1.1',
      };
      return { ...ctx, state };
    };
    const rounding = repoFiles()['src/rounding.js'] ?? '';
    const line = rounding.split('\n').findIndex((text) => text.includes('function roundCents'));
    const asked = await buildMessages(
      coder,
      subStep(
        `the Coder asked for a sub-plan: the fix is at line ${line + 1} of src/rounding.js, which the context does not show`,
      ),
    );
    expect(asked.report?.included.map((entry) => entry.path)).toContain('src/rounding.js');
    const plain = await buildMessages(coder, subStep(null));
    expect(plain.report?.included.map((entry) => entry.path)).not.toContain('src/rounding.js');
    // Two levels down, the grandparent's request still counts: each level may have named a different place.
    const deeper = subStep(`the Coder asked for a sub-plan: line ${line + 1} of src/rounding.js is not shown`);
    const [top, middle] = deeper.state.plans;
    const middleStep = middle?.steps[0];
    if (!top || !middle || !middleStep) throw new Error('no sub-plan');
    const grandchild = { ...middleStep, id: 'T1.1.1', depth: 2, parent_step_id: 'T1.1' };
    const state = {
      ...deeper.state,
      plans: [
        top,
        {
          ...middle,
          steps: [{ ...middleStep, status: 'blocked' as const, fail_reason: 'the Coder asked for a sub-plan' }],
        },
        { ...middle, plan_id: 'plan_0003', depth: 2, parent_step_id: 'T1.1', steps: [grandchild] },
      ],
      plan_stack: ['plan_0001', 'plan_0002', 'plan_0003'],
      current_step_id: 'T1.1.1',
    };
    const twoDown = await buildMessages(coder, { ...deeper, state });
    expect(twoDown.report?.included.map((entry) => entry.path)).toContain('src/rounding.js');
  });

  it("reserves a whole-file retry's answer at the longest answer the step gave: a file it wrote unshown is not cut", async () => {
    const coder = agentSpecFor('code', WORKFLOWS['dev-agent']);
    if (!coder) throw new Error('no coder spec');
    const wholeFile = (attempts: number): AgentContext => {
      const ctx = writerContext(repo.dir, attempts, ['test/price.test.js']);
      const config = { ...ctx.state.config, edit_format: 'whole-file' as const };
      const tried = { key: 'k', applied_key: null, attempt: 1, times: 1, outcome: 'TESTS_WEAKENED', chars: 16_000 };
      const state = { ...ctx.state, config, tried_answers: [tried] };
      return { ...ctx, state, editFormat: getEditFormat('whole-file') };
    };
    const retry = await buildMessages(coder, wholeFile(2));
    expect(retry.report).toMatchObject({ answer_sized_on: 'the longest answer it gave in this step (~4000)' });
    expect(retry.report?.answer_reserve).toBeGreaterThanOrEqual(4000);
    const first = await buildMessages(coder, wholeFile(1));
    expect(first.report?.answer_reserve).toBeLessThan(4000);
  });

  it('is ranked on the failing run as well as a refusal, so the failing code stays in view', async () => {
    const coder = agentSpecFor('code', WORKFLOWS['dev-agent']);
    if (!coder) throw new Error('no coder spec');
    const output =
      'AssertionError: roundCents(1.05) returned 5, expected 5 cents as 05\n    at roundCents (src/rounding.js:364:10)\n    at roundCents (src/rounding.js:365:3)';
    const failing: TestSummary = {
      status: 'FAIL',
      passed: false,
      exit_code: 1,
      counts: { passed: 0, failed: 1, skipped: 0, total: 1 },
      first_failure: { test_id: 'test/price.test.js', message: 'AssertionError', location: 'src/rounding.js:364:10' },
      results_from: null,
      report: output,
      excerpt: output,
      tail: output,
      reason: null,
      isolation: 'none',
      duration_ms: 1,
      verify_run_id: 'v1',
      artifact_dir: '',
      coverage_percent: null,
      failed_phase: 'test',
      work_dir_writes: null,
      inventory: null,
      tools: [],
    };
    const refusalOnly = await buildMessages(coder, writerContext(repo.dir, 2, []));
    expect(refusalOnly.report?.included.map((entry) => entry.path)).not.toContain('src/rounding.js');
    const withFailure = await buildMessages(coder, writerContext(repo.dir, 2, [], failing));
    expect(withFailure.report?.included.map((entry) => entry.path)).toContain('src/rounding.js');
    // A rejected attempt passed and was undone: the last test is its pass, the failure to fix still the base's.
    const undone = (failingRun: string | undefined): AgentContext => {
      const ctx = writerContext(repo.dir, 2, [], { ...failing, status: 'PASS', passed: true, excerpt: '', report: '' });
      const base = { commit: 'c1', failed: 1, total: 1, passed: failingRun !== undefined, build_failed: false };
      const tested = failingRun !== undefined ? { ...base, passed: false, failing_run: failingRun } : base;
      const critique = 'Unrelated to the task, put it back as it was: src/price.js lines 3-3: not part of the fix';
      const state = {
        ...ctx.state,
        head: 'c1',
        tested_head: tested,
        feedback: { kind: 'critique' as const, text: critique },
      };
      return { ...ctx, state };
    };
    const afterRollback = await buildMessages(coder, undone(output));
    expect(afterRollback.report?.included.map((entry) => entry.path)).toContain('src/rounding.js');
    const critiqueOnly = await buildMessages(coder, undone(undefined));
    expect(critiqueOnly.report?.included.map((entry) => entry.path)).not.toContain('src/rounding.js');
  });
});
