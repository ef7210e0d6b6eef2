import { describe, expect, it } from 'vitest';
import { budgetFor, checkBudget, effectTimeoutMs } from './budget';
import { configFromWorkflow } from './configFromWorkflow';
import { countVerdict, escalationFor } from './counters';
import { DEFAULT_GATE_THRESHOLDS } from '../schemas/gates';
import { initialState } from './initialState';
import { checkDependencies, selectNextStep, newStep } from './planOps';
import { WORKFLOWS } from './workflows';
import type { Counters, PlanRecord } from './runState';

const MINUTE = 60_000;
const zero: Counters = {
  consecutive_verify_failures: 0,
  total_verify_loops: 0,
  replans: 0,
  plan_attempts: 0,
  fix_cycles: 0,
  consecutive_low_scores: 0,
  gates_opened: 0,
};

// docs/seeds.md 2.5
describe('seed 002 escalation levels', () => {
  it.each([
    [100, 'NONE'],
    [70, 'NONE'],
    [69, 'REMIND'],
    [50, 'REMIND'],
    [49, 'CORRECT'],
    [30, 'CORRECT'],
    [29, 'REFOCUS'],
    [0, 'REFOCUS'],
  ])('a first low score of %i is %s ("Score 70+ NONE, 50-69 REMIND, 30-49 CORRECT, <30 REFOCUS")', (score, level) => {
    expect(escalationFor(score, score < 70 ? 1 : 0)).toBe(level);
  });

  it('"2+ issues" CORRECT, "3+ issues" REFOCUS, "4+ consecutive issues" CRITICAL, "5+ consecutive issues" ABORT', () => {
    let counters = zero;
    const levels: string[] = [];
    for (let index = 0; index < 5; index++) {
      const result = countVerdict(counters, 65);
      counters = result.counters;
      levels.push(result.level);
    }
    expect(levels).toEqual(['REMIND', 'CORRECT', 'REFOCUS', 'CRITICAL', 'ABORT']);
  });

  it('a low score escalates at least to its own level even when the count is low', () => {
    expect(escalationFor(10, 2)).toBe('REFOCUS');
    expect(escalationFor(60, 4)).toBe('CRITICAL');
  });

  it('a score of 70+ ends the streak', () => {
    const streak = countVerdict(countVerdict(zero, 40).counters, 40).counters;
    expect(streak.consecutive_low_scores).toBe(2);
    expect(countVerdict(streak, 75)).toEqual({ counters: { ...streak, consecutive_low_scores: 0 }, level: 'NONE' });
  });
});

// docs/seeds.md 2.3: the thresholds
describe('seed 002 quality gates', () => {
  it('plan ≥ 70, code ≥ 60, step ≥ 70, goal ≥ 80', () => {
    expect(DEFAULT_GATE_THRESHOLDS).toEqual({ plan: 70, code: 60, step: 70, goal: 80 });
    expect(configFromWorkflow(WORKFLOWS.supervised).gates).toEqual({
      plan: 'auto',
      code: 'auto',
      step: 'auto',
      goal: 'auto',
    });
  });
});

// docs/seeds.md 2.15
describe('seed 002 time allocation', () => {
  it('"Planning min(10%, T) or max 15 minutes; Execution 80%; Verification min(10%, T) or max 10 minutes"', () => {
    expect(budgetFor(60 * MINUTE, 4)).toEqual({
      total_ms: 60 * MINUTE,
      planning_ms: 6 * MINUTE,
      execution_ms: 48 * MINUTE,
      verification_ms: 6 * MINUTE,
      per_step_ms: 12 * MINUTE,
      fix_cycle_ms: 3.6 * MINUTE,
    });
    const long = budgetFor(300 * MINUTE, 10);
    expect(long.planning_ms).toBe(15 * MINUTE);
    expect(long.verification_ms).toBe(10 * MINUTE);
    expect(long.execution_ms).toBe(240 * MINUTE);
  });

  it('"Per-Step Budget: (Execution Time) / (Number of Steps); Fix Cycle Budget: 30% of Per-Step Budget"', () => {
    const budget = budgetFor(100 * MINUTE, 8);
    expect(budget.per_step_ms).toBe(10 * MINUTE);
    expect(budget.fix_cycle_ms).toBe(3 * MINUTE);
  });

  const timed = () => {
    const config = { ...configFromWorkflow(WORKFLOWS.supervised), time_limit_ms: 60 * MINUTE };
    return initialState({ runId: 'r', goal: 'g', goalHash: 'h', config, now: 't', nowMs: 0 });
  };

  it('checks the total before each step: past T the run shuts down gracefully', () => {
    expect(checkBudget(timed(), 59 * MINUTE).kind).toBe('ok');
    expect(checkBudget(timed(), 60 * MINUTE).kind).toBe('total');
  });

  it('stops planning that used its share without producing a plan', () => {
    const state = {
      ...timed(),
      phase: 'planning' as const,
      time_spent: { planning: 6 * MINUTE, execution: 0, verification: 0 },
    };
    expect(checkBudget(state, 7 * MINUTE).kind).toBe('planning');
  });

  it("ends a step's attempts when it used its per-step budget, and cuts effects to the budgets left", () => {
    const plan: PlanRecord = {
      plan_id: 'plan_0001',
      analysis: '',
      depth: 0,
      parent_plan_id: null,
      parent_step_id: null,
      status: 'in_progress',
      steps: [newStep({ id: 'T1', title: 'a' }, 0, null), newStep({ id: 'T2', title: 'b' }, 0, null)],
    };
    const base = {
      ...timed(),
      phase: 'coding' as const,
      plans: [plan],
      plan_stack: ['plan_0001'],
      current_step_id: 'T1',
    };
    const perStep = budgetFor(60 * MINUTE, 2).per_step_ms;
    expect(
      checkBudget({ ...base, step_time: { step_id: 'T1', spent_ms: perStep - 1, fix_cycle_spent_ms: 0 } }, 10 * MINUTE)
        .kind,
    ).toBe('ok');
    expect(
      checkBudget({ ...base, step_time: { step_id: 'T1', spent_ms: perStep, fix_cycle_spent_ms: 0 } }, 10 * MINUTE)
        .kind,
    ).toBe('step');
    const inFixCycle = {
      ...base,
      counters: { ...base.counters, fix_cycles: 1 },
      step_time: { step_id: 'T1', spent_ms: 0, fix_cycle_spent_ms: 2 * MINUTE },
    };
    expect(effectTimeoutMs(inFixCycle, 10 * MINUTE, 60 * MINUTE)).toBe(Math.floor(0.3 * perStep - 2 * MINUTE));
  });
});

// docs/seeds.md 2.9: dependencies and their order
describe('seed 002 planning', () => {
  it('validates dependencies: no unknown ids, no cycles', () => {
    expect(checkDependencies([{ id: 'T1', title: 'a', depends_on: ['T9'] }])).toMatchObject({
      code: 'unknown_dependency',
    });
    expect(
      checkDependencies([
        { id: 'T1', title: 'a', depends_on: ['T2'] },
        { id: 'T2', title: 'b', depends_on: ['T1'] },
      ]),
    ).toMatchObject({ code: 'cycle' });
    expect(checkDependencies([{ id: 'T1', title: 'a', depends_on: ['T1'] }])).toMatchObject({
      code: 'self_dependency',
    });
    expect(
      checkDependencies([
        { id: 'T1', title: 'a' },
        { id: 'T2', title: 'b', depends_on: ['T1'] },
      ]),
    ).toBeNull();
  });

  it('executes in dependency order', () => {
    const steps = [
      newStep({ id: 'T1', title: 'a', depends_on: ['T3'] }, 0, null),
      newStep({ id: 'T2', title: 'b' }, 0, null),
      newStep({ id: 'T3', title: 'c', depends_on: ['T2'] }, 0, null),
    ];
    const plan: PlanRecord = {
      plan_id: 'p',
      analysis: '',
      depth: 0,
      parent_plan_id: null,
      parent_step_id: null,
      status: 'pending',
      steps,
    };
    const order: string[] = [];
    let current = plan;
    for (;;) {
      const next = selectNextStep(current);
      if (next.kind !== 'step') break;
      order.push(next.step.id);
      current = {
        ...current,
        steps: current.steps.map((step) =>
          step.id === next.step.id ? { ...step, status: 'completed' as const } : step,
        ),
      };
    }
    expect(order).toEqual(['T2', 'T3', 'T1']);
  });

  it('supervised defaults: maxAttempts 3, sub-plans to depth 3, fix cycles, too many failures escalate', () => {
    expect(configFromWorkflow(WORKFLOWS.supervised).limits).toMatchObject({
      max_attempts_per_task: 3,
      max_subplan_depth: 3,
      max_fix_cycles: 3,
      max_failed_steps: 3,
      agent_retries: 3,
      max_plan_attempts: 5,
    });
  });
});
