import { describe, expect, it } from 'vitest';
import {
  agentOutput,
  simulate,
  testResult,
  usage,
  verdict,
  workspace,
  type Script,
} from '../../test-support/engineSim';
import type { ActionOutcome, EngineAction } from './actions';
import { budgetFor, checkBudget } from './budget';
import { applyOutcome } from './machine';
import { WORKFLOWS } from './workflows';
import type { RunConfig } from './runConfig';
import type { RunState } from './runState';

const step = (id: string, depends: string[] = []) => ({
  id,
  title: `step ${id}`,
  description: 'd',
  acceptance: 'a',
  complexity: 'simple',
  depends_on: depends,
  artifacts: ['src/stats.js'],
});
const plan = (count: number) => ({
  plan_id: 'plan_0001',
  analysis: 'a plan',
  steps: Array.from({ length: count }, (_, index) => step(`T${index + 1}`)),
});
const code = { edits: [{ path: 'src/stats.js', search: '', replace: 'x' }] };
const supervised = WORKFLOWS.supervised;

function script(
  handlers: {
    plan?: (state: RunState) => unknown;
    code?: (action: EngineAction, state: RunState) => ActionOutcome;
    verify?: (state: RunState) => boolean;
  } = {},
): Script {
  let commit = 0;
  return (action, state) => {
    switch (action.kind) {
      case 'prepare':
        return { kind: 'prepared', workspace, head: 'base', test_command: ['node', '--test'] };
      case 'apply':
        commit++;
        return { kind: 'applied', commit: `c${commit}`, head: `c${commit}`, files: ['src/stats.js'] };
      case 'verify':
        return { kind: 'verified', purpose: action.purpose, test: testResult(handlers.verify?.(state) ?? true) };
      case 'agent':
        if (action.purpose === 'plan' || action.purpose === 'subplan')
          return agentOutput(action, handlers.plan?.(state) ?? plan(2));
        if (action.purpose === 'code') return handlers.code?.(action, state) ?? agentOutput(action, code);
        if (action.purpose === 'fix_plan')
          return agentOutput(action, { task_id: 'T1', summary: 'fine', findings: [], fix_plan: [] });
        return agentOutput(action, verdict(true, 90));
      default:
        return { kind: 'fatal', code: 'INTERNAL', message: action.kind };
    }
  };
}

const declined = (action: EngineAction, reason: string): ActionOutcome =>
  action.kind === 'agent'
    ? { kind: 'agent_declined', role: action.role, purpose: action.purpose, reason, calls: 1, usage }
    : { kind: 'internal' };

describe('seed 002 (2.10): the Coder asks for a sub-plan inline', () => {
  it("turns the Coder's error answer into a sub-plan for the step, at once, with the reason for the Planner", () => {
    const plannerSaw: unknown[] = [];
    const run = simulate(
      supervised,
      script({
        code: (action, state) =>
          state.current_step_id === 'T1' ? declined(action, 'needs a parser first') : agentOutput(action, code),
        plan: (state) => (
          plannerSaw.push(state.plans.length === 0 ? null : state.plans[0]?.steps[0]?.fail_reason),
          plan(2)
        ),
      }),
    );
    expect(run.events.find((event) => event.type === 'subplan_requested')?.data).toMatchObject({
      step_id: 'T1',
      reason: 'needs a parser first',
    });
    const t1 = run.state.plans[0]?.steps[0];
    // No attempt was spent on the refusal: the step went straight to its sub-plan.
    expect(t1).toMatchObject({ id: 'T1', attempts: 1, sub_plan_id: 'plan_0002', status: 'completed' });
    expect(plannerSaw[1]).toBe('the Coder asked for a sub-plan: needs a parser first');
    expect(run.state.result?.status).toBe('complete');
  });

  it('keeps seed 000: where there are no sub-plans an error answer is a failed attempt', () => {
    const run = simulate(WORKFLOWS['retry-loop'], script({ code: (action) => declined(action, 'too hard') }));
    expect(run.events.some((event) => event.type === 'subplan_requested')).toBe(false);
    expect(run.state.plans[0]?.steps[0]?.attempts).toBe(4);
    expect(run.state.result?.status).toBe('failed');
  });
});

describe('seed 002 (2.9): plans have 2 to 15 steps', () => {
  it.each([
    [1, false],
    [2, true],
    [15, true],
    [16, false],
  ])('a plan of %i step(s) is accepted: %s', (count, accepted) => {
    let plans = 0;
    const run = simulate(supervised, script({ plan: () => (++plans === 1 ? plan(count) : plan(2)) }));
    // The answer is refused where it arrives (INVALID_OUTPUT), never handed to the transitions untyped.
    const refused = run.events.flatMap((event) =>
      event.type === 'agent_failed' && event.data.purpose === 'plan' ? [event.data.reason] : [],
    )[0];
    if (accepted) {
      expect(refused).toBeUndefined();
      expect(run.state.plans[0]?.steps).toHaveLength(count);
    } else {
      expect(refused).toContain(`a plan has 2 to 15 steps; this one has ${count}`);
      expect(run.state.feedback).toBeNull();
      expect(run.state.plans[0]?.steps).toHaveLength(2);
    }
  });
});

const MINUTE = 60_000;

/** Drives the machine one action at a time until the state matches. */
function until(
  predicate: (state: RunState) => boolean,
  drive: Script,
  config: (config: RunConfig) => RunConfig,
): RunState {
  let state = simulate(supervised, drive, { config, maxSteps: 0 }).state;
  for (let index = 0; index < 300 && !predicate(state); index++)
    state = simulate(supervised, drive, { from: state, maxSteps: 1 }).state;
  return state;
}
const timed = (config: RunConfig): RunConfig => ({ ...config, time_limit_ms: 100 * MINUTE });

describe('seed 002 (2.15): sub-plans draw on their parent step budget; execution is capped at 80%', () => {
  it('carries the spent time into the sub-plan, and a step out of time fails without a sub-plan of its own', () => {
    const perStep = budgetFor(100 * MINUTE, 2).per_step_ms;
    const base = until(
      (state) => state.phase === 'planning' && state.current_step_id === 'T1',
      script({ verify: (state) => state.current_step_id !== 'T1' }),
      (config) => ({
        ...timed(config),
        gates: { ...config.gates, plan: 'off' },
        limits: { ...config.limits, max_fix_cycles: 0, max_attempts_per_task: 1 },
      }),
    );
    // T1 has failed its one attempt and is blocked; it had spent 30 minutes.
    const blocked: RunState = { ...base, step_time: { step_id: 'T1', spent_ms: 30 * MINUTE, fix_cycle_spent_ms: 0 } };
    expect(blocked.plans[0]?.steps[0]?.status).toBe('blocked');
    const accepted = applyOutcome(
      blocked,
      supervised,
      agentOutput({ kind: 'agent', role: 'planner', purpose: 'subplan' }, plan(2)),
      'now',
    );
    expect(accepted.state.current_step_id).toBe('T1.1');
    expect(accepted.state.step_time).toEqual({ step_id: 'T1.1', spent_ms: 30 * MINUTE, fix_cycle_spent_ms: 0 });
    // Past the parent's budget the sub-step is out of time, and fails rather than nesting a deeper sub-plan.
    const spent: RunState = {
      ...accepted.state,
      step_time: { step_id: 'T1.1', spent_ms: perStep, fix_cycle_spent_ms: 0 },
    };
    const verdictOfBudget = checkBudget(spent, 40 * MINUTE);
    expect(verdictOfBudget.kind).toBe('step');
    const out = applyOutcome(spent, supervised, { kind: 'step_budget_exhausted', reason: 'out of time' }, 'later');
    expect(out.events.some((event) => event.type === 'step_blocked')).toBe(false);
    expect(out.events.find((event) => event.type === 'step_failed')?.data).toMatchObject({ step_id: 'T1.1' });
  });

  it('starts no step once execution used 80% of T: the rest fail and the goal gate judges what was done', () => {
    const coding = until((state) => state.phase === 'coding', script(), timed);
    const spent: RunState = { ...coding, time_spent: { ...coding.time_spent, execution: 80 * MINUTE } };
    const verdictOfBudget = checkBudget(spent, 85 * MINUTE);
    expect(verdictOfBudget).toMatchObject({ kind: 'execution' });
    const ended = applyOutcome(
      spent,
      supervised,
      {
        kind: 'execution_budget_exhausted',
        reason: verdictOfBudget.kind === 'execution' ? verdictOfBudget.reason : '',
      },
      'later',
    );
    expect(ended.events.find((event) => event.type === 'budget_exhausted')?.data).toMatchObject({
      scope: 'execution',
      failed_steps: ['T1', 'T2'],
    });
    expect(ended.state.plans[0]?.steps.map((s) => s.status)).toEqual(['failed', 'failed']);
    expect(ended.state).toMatchObject({ phase: 'goal_review', gate: { kind: 'goal', needs_final_test: true } });
    // A rejected goal cannot start a new plan: there is no execution time left for it.
    const final = simulate(
      supervised,
      (action, state) =>
        action.kind === 'agent' && action.purpose === 'review_goal'
          ? agentOutput(action, verdict(false, 20))
          : script()(action, state),
      { from: ended.state },
    );
    expect(final.state.result).toMatchObject({
      status: 'failed',
      reason: 'goal not confirmed, and no execution time is left for a new plan',
    });
    expect(final.actions.some((action) => action.kind === 'agent' && action.purpose === 'plan')).toBe(false);
  });

  it('below the cap, execution goes on', () => {
    const coding = until((state) => state.phase === 'coding', script(), timed);
    expect(
      checkBudget({ ...coding, time_spent: { ...coding.time_spent, execution: 79 * MINUTE } }, 85 * MINUTE).kind,
    ).toBe('ok');
  });
});
