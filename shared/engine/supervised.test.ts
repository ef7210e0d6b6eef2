import { describe, expect, it } from 'vitest';
import {
  agentOutput,
  countOf,
  eventTypes,
  simulate,
  testResult,
  verdict,
  workspace,
  type Script,
} from '../../test-support/engineSim';
import type { ActionOutcome, EngineAction } from './actions';
import { ofType } from './runEvents';
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
const twoSteps = { plan_id: 'plan_0001', analysis: 'two steps', steps: [step('T1'), step('T2', ['T1'])] };
let answers = 0;
/** A new answer each time (the same answer twice is refused: attemptGuard.test.ts). */
const code = () => ({ edits: [{ path: 'src/stats.js', search: '', replace: `x${++answers}` }] });
const cleanFixPlan = (id: string) => ({ task_id: id, summary: 'fine', findings: [], fix_plan: [] });

/** A supervised script: green tests and approving verdicts unless a handler says otherwise. */
function script(
  handlers: {
    verify?: (state: RunState) => boolean;
    review?: (kind: string, state: RunState) => ReturnType<typeof verdict>;
    plan?: (state: RunState) => unknown;
  } = {},
): Script {
  let commit = 0;
  return (action: EngineAction, state: RunState): ActionOutcome => {
    switch (action.kind) {
      case 'prepare':
        return { kind: 'prepared', workspace, head: 'base', test_command: ['node', '--test'] };
      case 'apply':
        commit++;
        return { kind: 'applied', commit: `c${commit}`, head: `c${commit}`, files: ['src/stats.js'] };
      case 'verify':
        // The run starts from a failing suite (a bug to fix); `verify` decides every later run.
        if (action.purpose === 'baseline')
          return { kind: 'verified', purpose: action.purpose, test: testResult(false) };
        return { kind: 'verified', purpose: action.purpose, test: testResult(handlers.verify?.(state) ?? true) };
      case 'agent':
        if (action.purpose === 'plan' || action.purpose === 'subplan')
          return agentOutput(action, handlers.plan?.(state) ?? twoSteps);
        if (action.purpose === 'code') return agentOutput(action, code());
        if (action.purpose === 'fix_plan') return agentOutput(action, cleanFixPlan(state.current_step_id ?? 'T1'));
        return agentOutput(action, handlers.review?.(action.purpose, state) ?? verdict(true, 90));
      default:
        return { kind: 'fatal', code: 'INTERNAL', message: action.kind };
    }
  };
}

const supervised = WORKFLOWS.supervised;

describe('supervised (seed 002) transitions', () => {
  // docs/seeds.md 2.1
  it('runs plan gate → per step: code → verify → Tester → code gate → step gate → goal gate', () => {
    const run = simulate(supervised, script());
    expect(run.state.result).toMatchObject({ status: 'complete', exit_code: 0 });
    const reviews = run.actions
      .filter((action) => action.kind === 'agent' && action.role === 'supervisor')
      .map((action) => (action.kind === 'agent' ? action.purpose : ''));
    expect(reviews).toEqual(['review_plan', 'review_code', 'review_step', 'review_code', 'review_step', 'review_goal']);
    // The goal gate's final full test run comes right before its review.
    const goalReview = run.actions.findIndex((action) => action.kind === 'agent' && action.purpose === 'review_goal');
    expect(run.actions[goalReview - 1]).toEqual({ kind: 'verify', purpose: 'final' });
    expect(run.state.metrics).toMatchObject({
      total_steps: 2,
      completed_steps: 2,
      failed_steps: 0,
      verifications_passed: 3,
    });
  });

  it('re-plans when the Supervisor rejects the plan, with the critique fed back', () => {
    let plans = 0;
    const feedback: (string | null)[] = [];
    const run = simulate(
      supervised,
      script({
        plan: (state) => (feedback.push(state.feedback?.text ?? null), plans++, twoSteps),
        review: (kind) =>
          kind === 'review_plan' && plans === 1 ? verdict(false, 40, 'steps are not actionable') : verdict(true, 90),
      }),
    );
    expect(run.state.result?.status).toBe('complete');
    expect(plans).toBe(2);
    expect(feedback[1]).toContain('steps are not actionable');
    expect(run.state.plans.map((plan) => [plan.plan_id, plan.status])).toEqual([
      ['plan_0001', 'failed'],
      ['plan_0002', 'completed'],
    ]);
  });

  // docs/seeds.md 2.10
  it('gives a blocked step a sub-plan, and a blocked sub-step a depth-2 sub-plan', () => {
    const run = simulate(
      supervised,
      script({
        // T1 and T1.1 fail every attempt; everything deeper passes.
        verify: (state) => !['T1', 'T1.1'].includes(state.current_step_id ?? ''),
        plan: (state) =>
          state.plans.length === 0
            ? twoSteps
            : { plan_id: 'x', analysis: 'split', steps: [step('T1'), step('T2', ['T1'])] },
      }),
      { config: (config) => ({ ...config, limits: { ...config.limits, max_fix_cycles: 0, max_failed_steps: 0 } }) },
    );
    const depths = run.state.plans.map((plan) => [plan.plan_id, plan.depth, plan.parent_step_id]);
    expect(depths).toEqual([
      ['plan_0001', 0, null],
      ['plan_0002', 1, 'T1'],
      ['plan_0003', 2, 'T1.1'],
    ]);
    const status = Object.fromEntries(run.state.plans.flatMap((plan) => plan.steps.map((s) => [s.id, s.status])));
    expect(status).toMatchObject({
      'T1.1.1': 'completed',
      'T1.1.2': 'completed',
      'T1.1': 'completed',
      'T1.2': 'completed',
      T1: 'completed',
    });
    expect(run.state.result?.status).toBe('complete');
  });

  // docs/seeds.md 2.11
  it('marks the step failed when its sub-plan fails, and carries on', () => {
    const run = simulate(
      supervised,
      script({
        verify: (state) => !(state.current_step_id ?? '').startsWith('T1'),
        plan: (state) =>
          state.plans.length === 0 ? twoSteps : { plan_id: 'x', analysis: 'split', steps: [step('T1'), step('T2')] },
      }),
      // Without the goal gate the failed steps decide; with it, the Supervisor would judge them acceptable or not.
      {
        config: (config) => ({
          ...config,
          gates: { ...config.gates, goal: 'off' },
          limits: { ...config.limits, max_fix_cycles: 0, max_subplan_depth: 1, max_failed_steps: 0 },
        }),
      },
    );
    const status = Object.fromEntries(run.state.plans.flatMap((plan) => plan.steps.map((s) => [s.id, s.status])));
    expect(status).toMatchObject({ T1: 'failed', 'T1.1': 'failed', T2: 'failed' });
    expect(eventTypes(run.events)).toContain('subplan_finished');
    expect(run.state.result?.status).toBe('failed');
  });

  // docs/seeds.md 2.6: the escalation note reaches the Coder's next prompt
  it('escalates REMIND → CORRECT → REFOCUS → CRITICAL → ABORT on consecutive low scores, feeding each message forward', () => {
    const notes: (string | null)[] = [];
    const run = simulate(
      supervised,
      (action, state) => {
        if (action.kind === 'agent' && action.purpose === 'code') notes.push(state.escalation_note?.level ?? null);
        return script({
          review: (kind) => (kind === 'review_plan' ? verdict(true, 90) : verdict(kind === 'review_code', 65, 'weak')),
        })(action, state);
      },
      {
        config: (config) => ({ ...config, limits: { ...config.limits, max_attempts_per_task: 5, max_fix_cycles: 0 } }),
      },
    );
    const levels = run.events
      .filter(ofType('verdict'))
      .filter((event) => event.data.gate !== 'plan')
      .map((event) => event.data.escalation);
    expect(levels).toEqual(['REMIND', 'CORRECT', 'REFOCUS', 'CRITICAL', 'ABORT']);
    expect(run.state.result).toMatchObject({ status: 'aborted', exit_code: 1 });
    expect(notes).toEqual([null, 'CORRECT', 'CRITICAL']);
  });

  it('rolls a rejected implementation back to the step start before the Coder tries again', () => {
    let codeReviews = 0;
    const run = simulate(
      supervised,
      script({
        review: (kind) =>
          kind === 'review_code' && ++codeReviews === 1 ? verdict(false, 30, 'no tests') : verdict(true, 90),
      }),
    );
    const rollback = run.events.find((event) => event.type === 'rollback');
    expect(rollback?.data).toMatchObject({ step_id: 'T1', to: 'base', dropped: ['c1'] });
    expect(run.state.commits).toEqual(['c2', 'c3']);
    expect(run.state.result?.status).toBe('complete');
  });

  // docs/seeds.md 2.12
  it("turns the Tester's fix plan into fix cycles, up to max_fix_cycles, before an attempt fails", () => {
    let verifies = 0;
    const run = simulate(supervised, script({ verify: () => ++verifies >= 4 }), {
      config: (config) => ({ ...config, limits: { ...config.limits, max_fix_cycles: 2 } }),
    });
    expect(run.events.filter((event) => event.type === 'fix_cycle').map((event) => event.data.cycle)).toEqual([1, 2]);
    expect(run.events.filter((event) => event.type === 'retry')).toHaveLength(1);
    expect(run.state.result?.status).toBe('complete');
    expect(countOf(run.actions, (action) => action.kind === 'agent' && action.purpose === 'code')).toBe(5);
  });

  // docs/seeds.md 2.11
  it('ends the run when too many steps fail (escalation)', () => {
    const plan = { plan_id: 'plan_0001', analysis: 'four', steps: [step('T1'), step('T2'), step('T3'), step('T4')] };
    const run = simulate(supervised, script({ verify: () => false, plan: () => plan }), {
      config: (config) => ({ ...config, limits: { ...config.limits, max_fix_cycles: 0, max_subplan_depth: 0 } }),
    });
    expect(run.state.metrics.failed_steps).toBe(3);
    expect(run.state.result?.reason).toContain('too many failures');
  });
});

describe('human gates in the transition table', () => {
  // docs/seeds.md 2.8
  it('waits for the user, then feeds the comment and the edited feedback back as critique', () => {
    const both = (config: RunConfig): RunConfig => ({ ...config, gates: { ...config.gates, step: 'both' } });
    const paused = simulate(
      supervised,
      script({ review: (kind) => (kind === 'review_step' ? verdict(false, 50, 'too broad') : verdict(true, 90)) }),
      { config: both, stopOnAwait: true },
    );
    const last = paused.actions.at(-1);
    expect(last).toMatchObject({ kind: 'await_user', gate: { kind: 'step', verdict: { approved: false, score: 50 } } });
    expect(paused.state.status).toBe('waiting_for_gate');
    const gateId = paused.state.gate?.gate_id ?? '';
    const outcome = {
      kind: 'user_decision',
      gate_id: gateId,
      approved: false,
      comment: 'split the change',
      feedback: 'Keep median() pure.',
    } as const;
    const decided = applyOutcome(paused.state, supervised, outcome, 'later');
    expect(decided.state.status).toBe('running');
    // Seed 001/002 refine a rejected step on top of it (only unrelated hunks or changed tests are undone: attemptGuard.test.ts).
    // Each part keeps who wrote it: the comment is the user's, the rewritten feedback too (not the Supervisor's).
    expect(decided.state.feedback).toEqual({
      kind: 'critique',
      text: 'User: split the change\nKeep median() pure.',
      parts: [
        { source: 'human', gate: 'step', text: 'User: split the change' },
        { source: 'human_edit', gate: 'step', text: 'Keep median() pure.' },
      ],
    });
    expect(decided.state.head).toBe(paused.state.head);
    expect(decided.events.find((event) => event.type === 'gate_decided')?.data).toMatchObject({
      approved: false,
      comment: 'split the change',
      edited_feedback: 'Keep median() pure.',
    });
    const stale = applyOutcome(paused.state, supervised, { ...outcome, gate_id: 'another-gate' }, 'later');
    expect(stale).toEqual({ state: { ...paused.state, updated_at: 'later' }, events: [] });
  });
});
