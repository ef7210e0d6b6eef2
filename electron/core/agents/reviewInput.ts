import type { GateKind } from '../../../shared/schemas/gates';
import type { RunConfig } from '../../../shared/engine/runConfig';
import { isTestFile } from '../edits/policy';
import type { PlanRecord } from '../../../shared/engine/runState';
import { testRunText } from '../../../shared/engine/testFeedback';
import { roleBudget } from '../context/roleBudget';
import { estimateTokens } from '../llm/results';
import type { ModelRole } from '../../../shared/schemas/roles';
import { contextFiles } from './contextFiles';
import type { PromptLibrary } from './promptLibrary';
import type { AgentContext, AgentInput, TaskView } from './agentContext';

/**
 * Seed 002's quality gates, as the Supervisor is told them (`prompts/criteria/`). "Tests must be
 * included" holds where the writer writes tests; where tests are read-only (seed 000) the same gate
 * asks for the opposite.
 */
export function gateCriteria(
  kind: GateKind,
  config: Pick<RunConfig, 'tests_read_only'>,
  prompts: PromptLibrary,
): string[] {
  return prompts.list(kind === 'code' && config.tests_read_only ? 'criteria/code-tests-read-only' : `criteria/${kind}`);
}

/** What the code gate is told about the change's tests, in plain words, so "tests must be included" is checked against a fact. */
export function testChangeNote(
  changedFiles: readonly string[],
  config: Pick<RunConfig, 'tests_read_only'>,
): { test_files_changed: string[]; test_change_note: string | null } {
  const tests = changedFiles.filter(isTestFile);
  if (config.tests_read_only || tests.length > 0) return { test_files_changed: tests, test_change_note: null };
  return { test_files_changed: [], test_change_note: 'This change modifies no test file.' };
}

function planView(plan: PlanRecord | null): unknown {
  if (!plan) return null;
  return {
    plan_id: plan.plan_id,
    analysis: plan.analysis,
    steps: plan.steps.map(({ id, title, acceptance, complexity, depends_on, artifacts, status }) => ({
      id,
      title,
      acceptance,
      complexity,
      depends_on,
      artifacts,
      status,
    })),
  };
}

/**
 * What a reviewer reads of a change: its diff (the step's start to the head), not the changed files
 * whole — they were the writer's context already, and the diff is what was decided. Without a diff
 * (no commit yet, or a caller with no git) the changed files stand in for it.
 */
export async function changeView(
  ctx: AgentContext,
  files: readonly string[],
  role: ModelRole,
): Promise<{ diff: string | null; context: AgentInput['context']; note?: string }> {
  const diff = (await ctx.changeDiff?.()) ?? '';
  if (diff !== '') return { diff: fittedDiff(ctx, role, diff), context: [] };
  // A step whose edits changed nothing made no commit: its files are as the last review saw them, so the fact is said, not the files re-sent.
  if (ctx.changeDiff && stepMadeNoCommit(ctx.state)) return { diff: null, context: [], note: NO_CHANGE_NOTE };
  return {
    diff: null,
    context: await contextFiles(ctx.tools, { artifacts: [...files], feedback: null, includeAll: false }),
  };
}

export const NO_CHANGE_NOTE =
  'This step changed no file: its edits left every file as it was, so the branch is as the step found it.';

/** The step's head is where it started (the engine commits every change it applies). */
function stepMadeNoCommit(state: AgentContext['state']): boolean {
  const start = state.step_base?.commit ?? state.workspace?.baseCommit;
  return state.head !== null && state.head === start;
}

/** The share of a reviewer's window (less its answer) a diff may take: the input is never dropped, so it is cut. */
const DIFF_WINDOW_SHARE = 0.4;

/**
 * The diff as a reviewer's window holds it: whole when it fits its share, else its first lines and a note
 * saying how much was cut — an input too long for the window would end the call (issue 28, item 4).
 */
export function fittedDiff(ctx: AgentContext, role: ModelRole, diff: string): string {
  const counter = ctx.promptCounter;
  const budget = roleBudget(ctx.state.config, role);
  const window = counter?.contextSize ?? budget.contextSize;
  const limit = Math.floor((window - budget.answerReserve) * DIFF_WINDOW_SHARE);
  const count = (text: string) => (counter ? counter.countText(text) : estimateTokens(text));
  if (count(diff) <= limit) return diff;
  const lines = diff.split('\n');
  let low = 0;
  let high = lines.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (count(lines.slice(0, middle).join('\n')) <= limit) low = middle;
    else high = middle - 1;
  }
  return `${lines.slice(0, low).join('\n')}\n… (the diff is cut here to fit the ${role}'s ${window}-token window: ${low} of ${lines.length} lines shown)\n`;
}

/**
 * A gate's input, what its calls share first (goal, task, the test run, the change) and what the gate
 * asks last (gate, threshold, criteria): the Supervisor's session reuses the shared part from its
 * previous review (the code gate's for the step gate).
 */
export async function reviewInput(
  kind: GateKind,
  ctx: AgentContext,
  task: TaskView,
  plan: PlanRecord | null,
): Promise<AgentInput> {
  const { state } = ctx;
  const gate = state.gate;
  const asked: Record<string, unknown> = {
    gate: kind,
    threshold: gate?.threshold ?? state.config.thresholds[kind],
    criteria: gateCriteria(kind, state.config, ctx.prompts),
  };
  if (gate?.escalation && gate.escalation !== 'NONE') asked.escalation = gate.escalation;
  const test = state.last_test && {
    status: state.last_test.status,
    counts: state.last_test.counts,
    first_failure: state.last_test.first_failure,
    output: testRunText(state.last_test, 'excerpt'),
    coverage_percent: state.last_test.coverage_percent,
    // The registered tools beyond the test command itself (its result is `status` already).
    ...(state.last_test.tools.some((tool) => tool.name !== 'tests') ? { tools: state.last_test.tools } : {}),
  };
  switch (kind) {
    case 'plan':
      return { input: { goal: state.goal, plan: planView(plan), ...asked }, context: [] };
    case 'code':
    case 'step': {
      // Both gates judge the committed change with its test result in hand (seed 002: after the tests).
      const change = await changeView(ctx, state.proposal_files, 'supervisor');
      const findings =
        kind === 'code' && state.tester_findings.length > 0 ? { tester_findings: state.tester_findings } : {};
      const tests = kind === 'code' ? testChangeNote(state.proposal_files, state.config) : {};
      const scope = gate && gate.unrelated.length > 0 ? { unrelated_changes: gate.unrelated } : {};
      const shared = {
        goal: state.goal,
        task,
        test,
        changed_files: state.proposal_files,
        ...(change.diff ? { diff: change.diff } : {}),
        ...(change.note ? { change_note: change.note } : {}),
      };
      return {
        input: { ...shared, ...protectedTestsNote(gate?.test_files ?? []), ...scope, ...tests, ...findings, ...asked },
        context: change.context,
      };
    }
    case 'goal':
      // The last test result here is the final full test run made for this gate.
      return {
        input: {
          goal: state.goal,
          plans: state.plans.filter((record) => record.depth === 0).map(planView),
          final_test: test,
          commits: state.commits.length,
          ...asked,
        },
        context: [],
      };
    default:
      return kind satisfies never;
  }
}

export async function fixPlanReviewInput(ctx: AgentContext, task: TaskView): Promise<AgentInput> {
  const { state } = ctx;
  const test = state.last_test && {
    status: state.last_test.status,
    counts: state.last_test.counts,
    first_failure: state.last_test.first_failure,
    output: state.last_test.report,
  };
  const change = await changeView(ctx, state.proposal_files, 'supervisor');
  const input = {
    goal: state.goal,
    task,
    test,
    changed_files: state.proposal_files,
    ...(change.diff ? { diff: change.diff } : {}),
    ...(change.note ? { change_note: change.note } : {}),
    tester_findings: state.tester_findings,
    fix_plan: state.fix_review?.plan ?? '',
    gate: 'fix_plan',
    threshold: state.config.thresholds.code,
    // Seed 002: the Supervisor judges a Tester's fix plan at the code gate's threshold.
    criteria: ctx.prompts.list('criteria/fix-plan'),
  };
  return { input, context: change.context };
}

/** Existing tests a change modifies (`tests: protect`): the gate's approval is theirs too, so the reviewer is told so plainly. */
function protectedTestsNote(testFiles: readonly string[]): Record<string, unknown> {
  if (testFiles.length === 0) return {};
  return {
    existing_tests_changed: testFiles,
    existing_tests_note:
      'This change modifies test files that existed before the run. Approving this gate also approves those test changes: approve only if the task itself requires changing these tests, never to make failing tests pass.',
  };
}
