import { z } from 'zod';
import type { AgentPurpose } from '../../../shared/engine/agentPurpose';
import { currentPlan, currentStep, findStepInStack } from '../../../shared/engine/planOps';
import type { Workflow } from '../../../shared/engine/workflows';
import type { RunState } from '../../../shared/engine/runState';
import { testRunText } from '../../../shared/engine/testFeedback';
import { failingRunAtHead, longestAnswerChars } from '../../../shared/engine/attemptGuard';
import { AgentErrorSchema } from '../../../shared/schemas/agents/agentError';
import { PlanSchema } from '../../../shared/schemas/agents/planner';
import { SteppedPlanSchema } from '../../../shared/schemas/agents/steppedPlan';
import { EditorBriefSchema, ScoutActionSchema } from '../../../shared/schemas/agents/scout';
import { SupervisorVerdictSchema } from '../../../shared/schemas/agents/supervisor';
import { FixPlanSchema, TesterReportSchema } from '../../../shared/schemas/agents/tester';
import type { ContextItem } from '../llm/types';
import type { ModelRole } from '../../../shared/schemas/roles';
import type { BuiltContext, ContextQuery } from '../context/index';
import { firstTryBudget, roleBudget } from '../context/roleBudget';
import { isTestFile } from '../edits/policy';
import { estimateTokens } from '../llm/results';
import {
  budgetedContext,
  budgetedOverview,
  contextFiles,
  filesToRewrite,
  scoutTargetFiles,
  wholeFilesTokens,
  type WholeFiles,
} from './contextFiles';
import { earlierRunItem, withEarlierRun } from './earlierRunContext';
import { filesNamedIn } from './feedbackFiles';
import { changeView, fixPlanReviewInput, reviewInput } from './reviewInput';
import type { AgentContext, AgentInput, TaskView } from './agentContext';

/** A role as data: which model serves it, its prompt files, its output schema and its input. */
export interface AgentSpec {
  modelRole: ModelRole;
  prompts(ctx: AgentContext): string[];
  schema(ctx: AgentContext): z.ZodType;
  input(ctx: AgentContext): Promise<AgentInput>;
}

const orError = (schema: z.ZodType) => z.union([schema, AgentErrorSchema]);

/** Share of the role's window (less the answer) that test output may take in a writer's input. */
const FEEDBACK_SHARE = 0.25;

/**
 * Test output can be longer than a small model's whole window: past its share, the middle is cut
 * (the first failure leads the text, the runner's summary ends it).
 */
export function fitFeedback(text: string, ctx: AgentContext, role: ModelRole): string {
  const { contextSize: configured, answerReserve } = roleBudget(ctx.state.config, role);
  const counter = ctx.promptCounter;
  const maxTokens = Math.floor(((counter?.contextSize ?? configured) - answerReserve) * FEEDBACK_SHARE);
  // Characters a token of this very text: the model's tokenizer when planning has it, else 4.
  const tokens = counter?.exact ? counter.countText(text) : estimateTokens(text);
  const charsPerToken = counter?.exact && tokens > 0 ? text.length / tokens : 4;
  const maxChars = Math.max(400, Math.floor(maxTokens * charsPerToken));
  if (text.length <= maxChars) return text;
  const head = text.slice(0, Math.floor(maxChars * 0.7));
  const tail = text.slice(text.length - Math.floor(maxChars * 0.3));
  return `${head}\n… (${text.length - head.length - tail.length} characters of test output cut to fit the model's window) …\n${tail}`;
}

/** A planning role's repository map: ranked for the goal and the feedback, sized to what its prompt leaves. */
function overviewFor(ctx: AgentContext, budget: number, notes: ContextItem[]): Promise<BuiltContext> {
  const query = { goal: ctx.state.goal, feedback: ctx.state.feedback?.text ?? null };
  return budgetedOverview(ctx.tools, ctx.state.workspace?.workDir ?? null, query, budget, {
    map: ctx.repoMap ?? {},
    notes,
  });
}

function taskOf(state: RunState): TaskView {
  const step = currentStep(state);
  if (!step) return { id: 'T1', title: state.goal, rationale: '', acceptance: '', artifacts: [] };
  return {
    id: step.id,
    title: step.title,
    rationale: step.rationale,
    acceptance: step.acceptance,
    artifacts: step.artifacts,
  };
}

const planner: AgentSpec = {
  modelRole: 'planner',
  prompts: () => ['planner'],
  schema: (ctx) =>
    orError(
      ctx.workflow.plan_schema === 'steps' || currentStep(ctx.state)?.status === 'blocked'
        ? SteppedPlanSchema
        : PlanSchema,
    ),
  async input(ctx) {
    const blocked = currentStep(ctx.state);
    // The goal first, what changes from plan to plan last (prefix reuse: buildMessages).
    const input: Record<string, unknown> = { goal: ctx.state.goal };
    if (ctx.scoutReport) input.scout_report = ctx.scoutReport;
    if (blocked?.status === 'blocked')
      input.blocked_step = {
        id: blocked.id,
        title: blocked.title,
        acceptance: blocked.acceptance,
        reason: blocked.fail_reason,
      };
    input.plan_id = `plan_${String(ctx.state.plans.length + 1).padStart(4, '0')}`;
    if (ctx.state.escalation_note?.role === 'planner') input.supervisor_note = ctx.state.escalation_note.message;
    if (ctx.state.feedback) input.feedback = fitFeedback(ctx.state.feedback.text, ctx, 'planner');
    return {
      input,
      context: [],
      budgeted: withEarlierRun(ctx.earlierRun ?? null, (budget) => overviewFor(ctx, budget, ctx.knowledge)),
    };
  },
};

function writer(modelRole: 'coder' | 'editor'): AgentSpec {
  return {
    modelRole,
    prompts: (ctx) => [modelRole === 'editor' ? 'editor' : 'coder', `edit-formats/${ctx.editFormat.name}`],
    schema: (ctx) => orError(ctx.editFormat.schema),
    async input(ctx) {
      const task = taskOf(ctx.state);
      const artifacts = task.artifacts;
      const step = currentStep(ctx.state);
      // What stays across the step's attempts first, what changes last (prefix reuse: buildMessages).
      const input: Record<string, unknown> = { goal: ctx.state.goal, task };
      // Seed 004 step 1: the Editor's own definition of success comes back to it when it writes.
      const brief = ctx.state.scouting?.brief;
      if (brief)
        Object.assign(input, {
          behavior_change: brief.behavior_change,
          success_criteria: brief.success_criteria,
          non_goals: brief.non_goals,
        });
      // Seed 002's Coder may ask for a sub-plan inline, where the run makes sub-plans for blocked steps.
      if (step && step.depth < ctx.state.config.limits.max_subplan_depth) input.can_request_subplan = true;
      if (ctx.scoutReport) input.scout_report = ctx.scoutReport;
      input.attempt = step?.attempts ?? 1;
      if (ctx.state.escalation_note?.role === 'writer') input.supervisor_note = ctx.state.escalation_note.message;
      const feedback = ctx.state.feedback?.text ?? null;
      if (feedback !== null) input.feedback = fitFeedback(feedback, ctx, modelRole);
      const workDir = ctx.state.workspace?.workDir;
      if (!workDir)
        return {
          input,
          context: [
            ...(await contextFiles(ctx.tools, { artifacts, feedback, includeAll: !ctx.state.config.artifacts_only })),
            ...earlierRunItem(ctx.earlierRun ?? null),
          ],
        };
      // A retry sees whole the source files the step's last answer wrote: the feedback names what to mend
      // there, and a ranking moved by the feedback's words must not cut the file being fixed to an excerpt.
      const retry = (step?.attempts ?? 1) > 1;
      const rewritten = retry ? ctx.state.proposal_files.filter((file) => !isTestFile(file)) : [];
      // A step a blocked one was split into starts where its parents stopped: the Coder's requests for the
      // sub-plans (or their last failures) name the code it could not see, which the sub-plan's text may not.
      const blocker = whyAncestorsBlocked(ctx.state);
      const refusal = retry && !TEST_FEEDBACK.has(ctx.state.feedback?.kind ?? 'test_output') ? feedback : null;
      // And the source files a refusal, decline or critique names by path: the file it says is missing or wrong.
      const pointedAt = [refusal, blocker].flatMap((text) =>
        text !== null ? filesNamedIn(text, workDir).filter((file) => !isTestFile(file)) : [],
      );
      // Ranked on the failing run too when the feedback is not it: a refusal's words alone (a placeholder,
      // a path) would move the context away from the failing code the attempt before was shown. After a
      // rejected attempt was undone, its passing run is the last test; the failure to fix is the base's.
      const lastTest = ctx.state.last_test;
      const failingRun = TEST_FEEDBACK.has(ctx.state.feedback?.kind ?? 'test_output')
        ? null
        : lastTest && !lastTest.passed
          ? testRunText(lastTest, 'excerpt')
          : failingRunAtHead(ctx.state);
      const rankedOn = [feedback, blocker, failingRun].filter((text): text is string => !!text).join('\n\n') || null;
      const query = {
        goal: ctx.state.goal,
        feedback: rankedOn,
        artifacts,
        targetFiles: [...new Set([...scoutTargetFiles(ctx.scoutReport), ...rewritten, ...pointedAt])],
      };
      const wholeFormat = ctx.editFormat.name === 'whole-file';
      const wholeFiles = wholeFormat ? await wholeFilesOf(ctx, workDir, query, retry) : undefined;
      const options = {
        wholeFiles: wholeFiles?.perFile.map((file) => file.path),
        artifactsOnly: ctx.state.config.artifacts_only,
        noExcerpts: wholeFormat,
      };
      // A first try reads what an 8k window holds; a retry, or a step a blocked one was split into, the whole window
      // (decision 99). A workflow that never retries a step (seed 000: one attempt) has no second look to give.
      const { max_attempts_per_task: attemptsAllowed, max_fix_cycles: fixCycles } = ctx.state.config.limits;
      const canRetry = attemptsAllowed > 1 || fixCycles > 0;
      const firstTry = !wholeFormat && canRetry && (step?.attempts ?? 1) <= 1 && (step?.depth ?? 0) === 0;
      const window = ctx.promptCounter?.contextSize ?? roleBudget(ctx.state.config, modelRole).contextSize;
      const sized = (budget: number) => (firstTry ? firstTryBudget(budget, window) : budget);
      return {
        input,
        context: [],
        wholeFiles,
        budgeted: withEarlierRun(ctx.earlierRun ?? null, (budget) =>
          budgetedContext(ctx.tools, workDir, query, sized(budget), ctx.repoMap ?? {}, options),
        ),
      };
    },
  };
}

/** What a whole-file writer is shown whole and may rewrite, and, on a retry, the longest answer its step gave. */
async function wholeFilesOf(
  ctx: AgentContext,
  workDir: string,
  query: ContextQuery,
  retry: boolean,
): Promise<WholeFiles> {
  const rules = { artifactsOnly: ctx.state.config.artifacts_only, testsReadOnly: ctx.state.config.tests_read_only };
  const files = await wholeFilesTokens(ctx.tools, await filesToRewrite(workDir, query, ctx.repoMap ?? {}), rules);
  // Estimated as the budgets here are: 4 characters a token.
  return { ...files, longestAnswer: retry ? Math.ceil(longestAnswerChars(ctx.state) / 4) : 0 };
}

/** Feedback that is itself the failing run (its output, or the fix plan made from it). */
const TEST_FEEDBACK = new Set(['test_output', 'first_failure', 'fix_plan']);

const testReporter: AgentSpec = {
  modelRole: 'tester',
  prompts: () => ['tester'],
  schema: () => orError(TesterReportSchema),
  async input(ctx) {
    const test = ctx.state.last_test;
    // Seed 000: the Tester reads the truncated report (first 2500 + "\n...\n" + last 1000), as the seed says.
    return {
      input: {
        task_id: ctx.state.current_step_id ?? 'T1',
        exit_code: test?.exit_code ?? null,
        output: test?.report ?? '',
      },
      context: [],
    };
  },
};

const fixPlanner: AgentSpec = {
  modelRole: 'tester',
  prompts: () => ['tester-fix-plan'],
  schema: () => orError(FixPlanSchema),
  async input(ctx) {
    const test = ctx.state.last_test;
    // The Tester explores the change as a diff beside the test outcome; the files whole only when there is no diff.
    const change = await changeView(ctx, ctx.state.proposal_files, 'tester');
    const input = {
      task: taskOf(ctx.state),
      changed_files: ctx.state.proposal_files,
      ...(change.diff ? { diff: change.diff } : {}),
      ...(change.note ? { change_note: change.note } : {}),
      test: test && {
        status: test.status,
        exit_code: test.exit_code,
        counts: test.counts,
        first_failure: test.first_failure,
        output: testRunText(test, 'excerpt'),
        coverage_percent: test.coverage_percent,
      },
      ...(ctx.state.escalation_note?.role === 'tester' ? { supervisor_note: ctx.state.escalation_note.message } : {}),
    };
    return { input, context: change.context };
  },
};

/** Seed 004 step 1-2: the Editor defines success and pulls the Scouts with targeted questions. */
const briefer: AgentSpec = {
  modelRole: 'editor',
  prompts: () => ['editor-brief'],
  schema: () => orError(EditorBriefSchema),
  async input(ctx) {
    const input: Record<string, unknown> = {
      goal: ctx.state.goal,
      test_command: ctx.state.test_command?.join(' ') ?? null,
    };
    if (ctx.state.feedback) input.feedback = fitFeedback(ctx.state.feedback.text, ctx, 'editor');
    // The latest failure's excerpt in full; the ones before it by their first failure only (a small model's context is short).
    const recent = ctx.state.failure_history.slice(-3);
    if (recent.length > 0)
      input.recent_failures = recent.map(({ first_failure, report }, index) =>
        index === recent.length - 1 ? { first_failure, output: report } : { first_failure },
      );
    return { input, context: [], budgeted: (budget) => overviewFor(ctx, budget, ctx.knowledge) };
  },
};

/** A read-only Scout answering one question of the brief through its tool loop. */
const scout: AgentSpec = {
  modelRole: 'scout',
  prompts: () => ['scout'],
  schema: () => ScoutActionSchema,
  async input(ctx) {
    const brief = ctx.state.scouting?.brief;
    const question = brief?.questions[ctx.state.scouting?.next ?? 0];
    return {
      input: {
        goal: ctx.state.goal,
        behavior_change: brief?.behavior_change ?? '',
        scout:
          question?.scout === 'B'
            ? 'B (build/test detective: may run the tests and allowlisted commands, sandboxed)'
            : 'A (codebase mapper: read-only tools only)',
        question: question?.question ?? '',
        test_command: ctx.state.test_command?.join(' ') ?? null,
      },
      context: [],
    };
  },
};

function reviewer(kind: 'plan' | 'code' | 'step' | 'goal'): AgentSpec {
  return {
    modelRole: 'supervisor',
    prompts: () => ['supervisor'],
    schema: () => SupervisorVerdictSchema,
    input: (ctx) => reviewInput(kind, ctx, taskOf(ctx.state), currentPlan(ctx.state)),
  };
}

/** Seed 002: the Supervisor verifies the Tester's fix plan before the Coder follows it. */
const fixPlanReviewer: AgentSpec = {
  modelRole: 'supervisor',
  prompts: () => ['supervisor'],
  schema: () => SupervisorVerdictSchema,
  input: (ctx) => fixPlanReviewInput(ctx, taskOf(ctx.state)),
};

/** Every agent call the engine can make, keyed by purpose. */
export function agentSpecFor(purpose: AgentPurpose, workflow: Workflow): AgentSpec | null {
  switch (purpose) {
    case 'plan':
    case 'subplan':
      return planner;
    case 'code':
      return writer(workflow.writer);
    case 'test_report':
      return testReporter;
    case 'fix_plan':
      return fixPlanner;
    case 'review_plan':
      return reviewer('plan');
    case 'review_code':
      return reviewer('code');
    case 'review_step':
      return reviewer('step');
    case 'review_goal':
      return reviewer('goal');
    case 'review_fix_plan':
      return fixPlanReviewer;
    case 'scout_brief':
      return briefer;
    case 'scout':
      return scout;
    default:
      return purpose satisfies never;
  }
}

/**
 * Why the steps above the current one were blocked, nearest first (null at the top): each request for a
 * sub-plan may name a different part of what its writer could not see (one hunk's place, then another's).
 */
function whyAncestorsBlocked(state: RunState): string | null {
  const reasons: string[] = [];
  let parent = findStepInStack(state, currentStep(state)?.parent_step_id ?? null)?.step;
  for (let depth = 0; parent && depth <= MAX_PLAN_DEPTH; depth++) {
    if (parent.fail_reason) reasons.push(parent.fail_reason);
    parent = findStepInStack(state, parent.parent_step_id)?.step;
  }
  return reasons.length > 0 ? [...new Set(reasons)].join('\n') : null;
}

/** A guard on the walk up: sub-plans nest at most 3 deep (runConfig's max_subplan_depth). */
const MAX_PLAN_DEPTH = 3;
