import { describe, expect, it } from 'vitest';
import {
  agentOutput,
  countOf,
  eventTypes,
  simulate,
  testResult,
  usage,
  verdict,
  workspace,
  type Script,
} from '../../test-support/engineSim';
import type { EngineAction } from './actions';
import { WORKFLOWS } from './workflows';

const plan2 = {
  plan_id: 'plan_0001',
  tasks: [
    { id: 'T1', title: 'Add mean', rationale: 'r', acceptance: 'a', artifacts: ['src/stats.py'] },
    { id: 'T2', title: 'Add median', rationale: 'r', acceptance: 'a', artifacts: ['src/stats.py'] },
  ],
};
let commitCounter = 0;
let answerCounter = 0;
/** A model that answers something new each time (the same answer twice is refused; attemptGuard.test.ts). */
const wholeFile = () => ({ edits: [{ path: 'src/stats.py', content: `x = ${++answerCounter}\n` }] });

/** A script where every effect succeeds, with overrides per action. */
function happy(overrides: Partial<Record<string, (action: EngineAction) => ReturnType<Script>>> = {}): Script {
  return (action) => {
    const key =
      action.kind === 'agent'
        ? `${action.role}:${action.purpose}`
        : action.kind === 'verify'
          ? `verify:${action.purpose}`
          : action.kind;
    const override = overrides[key];
    if (override) return override(action);
    switch (action.kind) {
      case 'prepare':
        return { kind: 'prepared', workspace, head: 'base', test_command: ['pytest', '-q'] };
      case 'verify':
        return { kind: 'verified', purpose: action.purpose, test: testResult(true) };
      case 'apply':
        commitCounter++;
        return { kind: 'applied', commit: `c${commitCounter}`, head: `c${commitCounter}`, files: ['src/stats.py'] };
      case 'agent':
        if (action.purpose === 'plan' || action.purpose === 'subplan') return agentOutput(action, plan2);
        if (action.purpose === 'code') return agentOutput(action, wholeFile());
        if (action.purpose === 'test_report')
          return agentOutput(action, { task_id: 'T1', passed: false, report: 'model report' });
        if (action.purpose === 'fix_plan')
          return agentOutput(action, { task_id: 'T1', summary: 'fine', findings: [], fix_plan: [] });
        return agentOutput(action, verdict(true, 90));
      default:
        return { kind: 'fatal', code: 'INTERNAL', message: action.kind };
    }
  };
}

describe('minimal (seed 000)', () => {
  // docs/seeds.md 0.4 (strict roles: the exact action sequence), 0.25, 3.9 (phases in order to finished)
  it('plans, then codes, verifies and reports each task in order, and completes', () => {
    const run = simulate(WORKFLOWS.minimal, happy());
    expect(run.state.result).toEqual({ status: 'complete', exit_code: 0, reason: expect.any(String) });
    expect(run.state.plans[0]?.steps.map((step) => [step.id, step.status])).toEqual([
      ['T1', 'completed'],
      ['T2', 'completed'],
    ]);
    const sequence = run.actions
      .filter((action) => action.kind !== 'internal')
      .map((action) => (action.kind === 'agent' ? `${action.role}:${action.purpose}` : action.kind));
    expect(sequence).toEqual([
      'prepare',
      'verify',
      'planner:plan',
      'coder:code',
      'apply',
      'verify',
      'tester:test_report',
      'coder:code',
      'apply',
      'verify',
      'tester:test_report',
      'finish',
    ]);
    expect(run.state.commits).toHaveLength(2);
  });

  // docs/seeds.md 0.17
  it("decides the Tester's `passed` by the exit code, not the model", () => {
    const run = simulate(WORKFLOWS.minimal, happy());
    const reports = run.events.filter((event) => event.type === 'tester_report');
    expect(reports[0]?.data).toMatchObject({ passed: true, model_passed: false, report: 'model report' });
  });

  // docs/seeds.md 0.31
  it('halts on the first failing test (exit 1)', () => {
    const run = simulate(
      WORKFLOWS.minimal,
      happy({ 'verify:step': () => ({ kind: 'verified', purpose: 'step', test: testResult(false) }) }),
    );
    expect(run.state.result).toMatchObject({ status: 'failed', exit_code: 1 });
    expect(countOf(run.actions, (action) => action.kind === 'agent' && action.purpose === 'code')).toBe(1);
    expect(run.state.plans[0]?.steps[1]?.status).toBe('pending');
  });

  it("halts with the guardrail's error when the Coder edits outside the artifacts", () => {
    const rejected = () =>
      ({
        kind: 'apply_rejected',
        code: 'EDIT_REJECTED',
        message: 'src/other.py is not one of the task artifacts',
        rule: 'not-an-artifact',
        path: 'src/other.py',
      }) as const;
    const run = simulate(WORKFLOWS.minimal, happy({ apply: rejected }));
    expect(run.state.result?.status).toBe('failed');
    expect(run.state.result?.reason).toContain('not-an-artifact');
    expect(run.events.find((event) => event.type === 'edit_rejected')?.data).toMatchObject({
      rule: 'not-an-artifact',
      path: 'src/other.py',
    });
    expect(run.state.commits).toEqual([]);
  });

  // docs/seeds.md 0.7 (the error surface), 0.24 (a declined task halts), 0.31
  it('halts when an agent answers {"status":"error"} (seed 000 error surface)', () => {
    const declined = (action: EngineAction) =>
      action.kind === 'agent'
        ? ({
            kind: 'agent_declined',
            role: action.role,
            purpose: action.purpose,
            reason: 'needs src/io.py',
            calls: 1,
            usage,
          } as const)
        : ({ kind: 'internal' } as const);
    const run = simulate(WORKFLOWS.minimal, happy({ 'coder:code': declined }));
    expect(run.state.result).toMatchObject({ status: 'failed', exit_code: 1 });
    expect(run.events.find((event) => event.type === 'agent_declined')?.data).toMatchObject({
      reason: 'needs src/io.py',
    });
  });

  // docs/seeds.md 0.5
  it('refuses task ids that are not T1..Tn in order', () => {
    const bad = { plan_id: 'plan_0001', tasks: [{ ...plan2.tasks[0], id: 'T2' }] };
    const run = simulate(WORKFLOWS.minimal, happy({ 'planner:plan': (action) => agentOutput(action, bad) }));
    expect(eventTypes(run.events)).toContain('plan_invalid');
    expect(run.state.result).toMatchObject({ status: 'failed', exit_code: 1 });
  });
});

describe('retry-loop (seed 003)', () => {
  const failingUntil = (greenAtAttempt: number): Script => {
    let verifies = 0;
    // A bug to fix: the suite fails at the start, and each attempt fails the same test until the green one.
    return happy({
      'verify:baseline': () => ({ kind: 'verified', purpose: 'baseline', test: testResult(false) }),
      'verify:step': () => ({ kind: 'verified', purpose: 'step', test: testResult(++verifies >= greenAtAttempt) }),
    });
  };

  // docs/seeds.md 3.5
  it('attempt 0 generates and attempts 1..N patch with the failing output fed back', () => {
    const run = simulate(WORKFLOWS['retry-loop'], failingUntil(3));
    expect(run.state.result?.status).toBe('complete');
    expect(countOf(run.actions, (action) => action.kind === 'agent' && action.purpose === 'code')).toBe(3);
    expect(countOf(run.actions, (action) => action.kind === 'agent' && action.role === 'planner')).toBe(0);
  });

  // docs/seeds.md 3.6
  it('stops at max_retries with status failed: 1 generation + 3 patches = 4 calls at most', () => {
    const run = simulate(WORKFLOWS['retry-loop'], failingUntil(99));
    expect(run.state.result).toMatchObject({ status: 'failed', exit_code: 1 });
    expect(countOf(run.actions, (action) => action.kind === 'agent' && action.purpose === 'code')).toBe(4);
  });

  // docs/seeds.md 3.5
  it('feeds the failing test output to the next attempt', () => {
    const seen: (string | null)[] = [];
    const script = failingUntil(2);
    simulate(WORKFLOWS['retry-loop'], (action, state) => {
      if (action.kind === 'agent' && action.purpose === 'code') seen.push(state.feedback?.text ?? null);
      return script(action, state);
    });
    // Seed 003 feeds the failing output back: the failure-focused excerpt, not seed 000's truncated report.
    expect(seen).toEqual([null, testResult(false).excerpt]);
  });
});

// docs/seeds.md 1.3 (approval ends it), 1.5 (the loop), 1.8 (all four stop conditions)
describe('dev-agent (seed 001)', () => {
  it('exits 0 without calling a model when the tests are already green', () => {
    const run = simulate(WORKFLOWS['dev-agent'], happy());
    expect(run.state.result).toMatchObject({
      status: 'complete',
      exit_code: 0,
      reason: expect.stringContaining('nothing to do'),
    });
    expect(countOf(run.actions, (action) => action.kind === 'agent')).toBe(0);
  });

  it('fixes the first failure, re-tests and finishes when the Supervisor approves', () => {
    let verifies = 0;
    const run = simulate(
      WORKFLOWS['dev-agent'],
      happy({
        'verify:preflight': () => ({ kind: 'verified', purpose: 'preflight', test: testResult(false) }),
        'verify:step': () => ({ kind: 'verified', purpose: 'step', test: testResult(++verifies >= 2) }),
      }),
    );
    expect(run.state.result).toMatchObject({ status: 'complete', exit_code: 0 });
    const sequence = run.actions
      .filter((action) => action.kind !== 'internal')
      .map((action) => (action.kind === 'agent' ? `${action.role}:${action.purpose}` : action.kind));
    expect(sequence).toEqual([
      'prepare',
      'verify',
      'coder:code',
      'apply',
      'verify',
      'coder:code',
      'apply',
      'verify',
      'supervisor:review_step',
      'finish',
    ]);
  });

  it('feeds the first failing test to the Coder', () => {
    let feedback: string | undefined;
    simulate(WORKFLOWS['dev-agent'], (action, state) => {
      if (action.kind === 'agent' && action.purpose === 'code') feedback = state.feedback?.text;
      return happy({ 'verify:preflight': () => ({ kind: 'verified', purpose: 'preflight', test: testResult(false) }) })(
        action,
        state,
      );
    });
    expect(feedback).toContain('First failing test: test_stats.py::test_mean');
  });

  it('loops on a critique and ends with exit 1 at max_iterations', () => {
    const run = simulate(
      WORKFLOWS['dev-agent'],
      happy({
        'verify:preflight': () => ({ kind: 'verified', purpose: 'preflight', test: testResult(false) }),
        'supervisor:review_step': (action) => agentOutput(action, verdict(false, 40, 'needs a regression test')),
      }),
    );
    expect(run.state.result).toMatchObject({ status: 'failed', exit_code: 1 });
    expect(countOf(run.actions, (action) => action.kind === 'agent' && action.purpose === 'code')).toBe(5);
  });

  it('ends with exit 2 on an unrecoverable git error', () => {
    const run = simulate(
      WORKFLOWS['dev-agent'],
      happy({ prepare: () => ({ kind: 'fatal', code: 'GIT_FAILED', message: 'cannot create branch' }) }),
    );
    expect(run.state.result).toMatchObject({ status: 'failed', exit_code: 2 });
  });
});

describe('session stops', () => {
  it('keeps the phase on time expiry so the run can resume', () => {
    const run = simulate(WORKFLOWS.minimal, (action, state) =>
      state.phase === 'verifying' ? { kind: 'stopped', reason: 'time_expired' } : happy()(action, state),
    );
    expect(run.state).toMatchObject({ status: 'time_expired', phase: 'verifying', result: { status: 'time_expired' } });
  });
});
