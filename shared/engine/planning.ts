import { firstLine, shortenAtWord, SUBJECT_MAX } from '../headline';
import type { Plan } from '../schemas/agents/planner';
import type { SteppedPlan } from '../schemas/agents/steppedPlan';
import type { Transition } from './actions';
import type { PendingEvent } from './runEvents';
import { replanOrFail } from './gateFlow';
import { openGate } from './openGate';
import { checkDependencies, currentStep, newStep, nextPlanId, updateStep, type StepDraft } from './planOps';
import type { Workflow } from './workflows';
import type { PlanRecord, RunState } from './runState';
import { selectNext } from './stepFlow';

export type PlanInput = { kind: 'single_task' } | { kind: 'tasks'; plan: Plan } | { kind: 'steps'; plan: SteppedPlan };

/**
 * A title made from the goal: the first sentence of its first line, cut at a word to a commit
 * subject's 72 characters (the agents and the commit body get the whole goal).
 */
export function goalTitle(goal: string): string {
  const firstSentence = firstLine(goal).line.split(/(?<=[.!?])\s/)[0] ?? '';
  return shortenAtWord(firstSentence, SUBJECT_MAX) || 'goal';
}

/** The one task of a single-task workflow is the goal itself (seeds 001, 003, 004). */
function singleTask(goal: string): StepDraft[] {
  return [{ id: 'T1', title: goalTitle(goal), rationale: 'the goal', acceptance: 'the tests pass', artifacts: [] }];
}

/** A Planner's blank title (the schema only asks for one character) reads as the goal's. */
const titled = (title: string, goal: string) => (title.trim() === '' ? goalTitle(goal) : title);

function draftsOf(input: PlanInput, goal: string): { drafts: StepDraft[]; analysis: string } {
  switch (input.kind) {
    case 'single_task':
      return { drafts: singleTask(goal), analysis: '' };
    case 'tasks':
      return { drafts: input.plan.tasks.map((task) => ({ ...task, title: titled(task.title, goal) })), analysis: '' };
    case 'steps':
      return {
        analysis: input.plan.analysis,
        drafts: input.plan.steps.map((step) => ({
          id: step.id,
          title: titled(step.title, goal),
          rationale: step.description,
          acceptance: step.acceptance,
          artifacts: step.artifacts,
          complexity: step.complexity,
          depends_on: step.depends_on,
        })),
      };
    default:
      return input satisfies never;
  }
}

/** Seed 000: task ids are T1..Tn in execution order. */
function checkIds(drafts: StepDraft[]): string | null {
  const wrong = drafts.findIndex((draft, index) => draft.id !== `T${index + 1}`);
  return wrong === -1
    ? null
    : `task ids must be T1..T${drafts.length} in order; found ${drafts[wrong]?.id} at position ${wrong + 1}`;
}

/**
 * Records a new plan (or a sub-plan of the blocked current step), after checking ids and dependencies.
 * An invalid plan counts as a plan attempt and goes back to the Planner with the reason.
 */
export function acceptPlan(state: RunState, workflow: Workflow, input: PlanInput, now: string): Transition {
  const { drafts, analysis } = draftsOf(input, state.goal);
  const counted: RunState = {
    ...state,
    counters: { ...state.counters, plan_attempts: state.counters.plan_attempts + 1 },
  };
  const problem = checkIds(drafts) ?? describe(checkDependencies(drafts));
  if (problem) {
    const rejected = replanOrFail(
      counted,
      `The plan was invalid: ${problem}. Produce a corrected plan.`,
      'invalid plan',
    );
    return {
      state: rejected.state,
      events: [{ role: 'planner', type: 'plan_invalid', data: { reason: problem } }, ...rejected.events],
    };
  }
  const blocked = currentStep(counted);
  const isSubplan = blocked?.status === 'blocked';
  const planId = nextPlanId(counted);
  const depth = isSubplan && blocked ? blocked.depth + 1 : 0;
  // A sub-plan's T1..Tn become <parent>.1..<parent>.n, so ids stay unique down the plan stack.
  const rename = (id: string) => (isSubplan && blocked ? `${blocked.id}.${id.replace(/^T/, '')}` : id);
  const record: PlanRecord = {
    plan_id: planId,
    analysis,
    depth,
    parent_plan_id: isSubplan ? (counted.plan_stack.at(-1) ?? null) : null,
    parent_step_id: isSubplan && blocked ? blocked.id : null,
    steps: drafts.map((draft) =>
      newStep(
        { ...draft, id: rename(draft.id), depends_on: (draft.depends_on ?? []).map(rename) },
        depth,
        isSubplan && blocked ? blocked.id : null,
      ),
    ),
    status: 'pending',
  };
  const linked =
    isSubplan && blocked ? updateStep(counted, blocked.id, (step) => ({ ...step, sub_plan_id: planId })) : counted;
  const next: RunState = {
    ...linked,
    plans: [...linked.plans, record],
    plan_stack: isSubplan ? [...linked.plan_stack, planId] : [planId],
    current_step_id: isSubplan ? linked.current_step_id : null,
    metrics: { ...linked.metrics, total_steps: linked.metrics.total_steps + record.steps.length },
  };
  const event: PendingEvent = {
    role: input.kind === 'single_task' ? 'engine' : 'planner',
    type: 'plan',
    data: {
      plan_id: planId,
      depth,
      parent_step_id: record.parent_step_id,
      analysis,
      tasks: record.steps.map(({ id, title, rationale, acceptance, artifacts, complexity, depends_on }) => ({
        id,
        title,
        rationale,
        acceptance,
        artifacts,
        complexity,
        depends_on,
      })),
    },
  };
  const continued =
    state.config.gates.plan !== 'off' && input.kind !== 'single_task'
      ? openGate(next, 'plan', now)
      : selectNext(next, workflow, now);
  return { state: continued.state, events: [event, ...continued.events] };
}

function describe(problem: ReturnType<typeof checkDependencies>): string | null {
  return problem ? `${problem.code.replace('_', ' ')} (${problem.detail})` : null;
}
