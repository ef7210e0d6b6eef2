import { describe, expect, it } from 'vitest';
import {
  agentOutput,
  eventTypes,
  simulate,
  testResult,
  usage,
  verdict,
  workspace,
  type Script,
} from '../../test-support/engineSim';
import type { ActionOutcome, EngineAction } from './actions';
import { applyOutcome } from './machine';
import { WORKFLOWS, type Workflow } from './workflows';
import type { RunConfig } from './runConfig';
import { ofType } from './runEvents';
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
const fixPlan = {
  task_id: 'T1',
  summary: 'the even case fails',
  findings: [{ severity: 'high', kind: 'bug', description: 'off by one', location: 'src/stats.js' }],
  fix_plan: ['average the middle pair'],
};

interface Handlers {
  verify?: (state: RunState, purpose: string) => boolean;
  review?: (purpose: string, state: RunState) => ActionOutcome | ReturnType<typeof verdict>;
  tester?: (state: RunState) => unknown;
  code?: (action: EngineAction, state: RunState) => ActionOutcome;
}

function script(handlers: Handlers = {}): Script {
  let commit = 0;
  return (action, state) => {
    switch (action.kind) {
      case 'prepare':
        return { kind: 'prepared', workspace, head: 'base', test_command: ['node', '--test'] };
      case 'apply':
        commit++;
        return { kind: 'applied', commit: `c${commit}`, head: `c${commit}`, files: ['src/stats.js'] };
      case 'verify':
        return {
          kind: 'verified',
          purpose: action.purpose,
          test: testResult(handlers.verify?.(state, action.purpose) ?? true),
        };
      case 'agent': {
        if (action.purpose === 'plan' || action.purpose === 'subplan') return agentOutput(action, twoSteps);
        if (action.purpose === 'code') return handlers.code?.(action, state) ?? agentOutput(action, code());
        if (action.purpose === 'fix_plan')
          return agentOutput(
            action,
            handlers.tester?.(state) ?? { task_id: 'T1', summary: 'fine', findings: [], fix_plan: [] },
          );
        const answer = handlers.review?.(action.purpose, state) ?? verdict(true, 90);
        return 'kind' in answer ? answer : agentOutput(action, answer);
      }
      default:
        return { kind: 'fatal', code: 'INTERNAL', message: action.kind };
    }
  };
}

const supervised = WORKFLOWS.supervised;
const failedCall = (action: EngineAction): ActionOutcome =>
  action.kind === 'agent'
    ? {
        kind: 'agent_failed',
        role: action.role,
        purpose: action.purpose,
        code: 'PROVIDER_ERROR',
        message: 'model crashed',
        calls: 4,
        usage,
      }
    : { kind: 'internal' };
const gateEvents = (run: ReturnType<typeof simulate>, gate: string) =>
  run.events
    .filter((event) => event.type === 'verdict' || event.type === 'gate_closed')
    .filter((event) => event.data.gate === gate);

describe('seed 002 (2.17): a gate whose Supervisor fails every retry never passes by itself', () => {
  it('waits for a person, with the reason, and passes only on their decision', () => {
    const base = script();
    const run = simulate(
      supervised,
      (action, state) =>
        action.kind === 'agent' && action.purpose === 'review_code' && state.current_step_id === 'T1'
          ? failedCall(action)
          : base(action, state),
      { stopOnAwait: true },
    );
    expect(run.actions.at(-1)).toMatchObject({
      kind: 'await_user',
      gate: { kind: 'code', unreviewed: 'PROVIDER_ERROR: model crashed' },
    });
    expect(run.events.find((event) => event.type === 'gate_unreviewed')?.data).toMatchObject({
      gate: 'code',
      step_id: 'T1',
      reason: 'PROVIDER_ERROR: model crashed',
    });
    expect(gateEvents(run, 'code')).toEqual([]);
    const decision: ActionOutcome = {
      kind: 'user_decision',
      gate_id: run.state.gate?.gate_id ?? '',
      approved: true,
      comment: null,
    };
    const decided = applyOutcome(run.state, supervised, decision, 'later');
    expect(decided.events.find((event) => event.type === 'gate_closed')?.data).toMatchObject({
      gate: 'code',
      approved: true,
      by: 'user',
    });
    const finished = simulate(supervised, base, { from: decided.state });
    expect(finished.state.result?.status).toBe('complete');
  });

  it('stays unreviewed for a person however the run is resumed: the gate never reverts to a silent pass', () => {
    const run = simulate(
      supervised,
      (action, state) =>
        action.kind === 'agent' && action.purpose === 'review_goal' ? failedCall(action) : script()(action, state),
      { stopOnAwait: true },
    );
    expect(run.state.gate).toMatchObject({ kind: 'goal', unreviewed: expect.stringContaining('model crashed') });
    expect(run.state.result).toBeNull();
    expect(run.state.phase).toBe('goal_review');
  });
});

describe('seed 002 (2.3): a gate passes only when approved AND at or over its threshold', () => {
  it.each([
    ['review_plan', 'plan', 69, 70],
    ['review_code', 'code', 59, 60],
    ['review_step', 'step', 69, 70],
    ['review_goal', 'goal', 79, 80],
  ])(
    '%s gate: approved but under the threshold is a rejection, at the threshold a pass',
    (purpose, gate, below, at) => {
      const once = (score: number) => {
        let first = true;
        const base = script();
        return simulate(supervised, (action, state) => {
          if (action.kind === 'agent' && action.purpose === purpose && first) {
            first = false;
            return agentOutput(action, verdict(true, score, 'approved, but'));
          }
          return base(action, state);
        });
      };
      const low = gateEvents(once(below), gate)[0];
      expect(low).toMatchObject({ type: 'verdict', data: { approved: false, score: below } });
      const pass = gateEvents(once(at), gate)[0];
      expect(pass).toMatchObject({ type: 'verdict', data: { approved: true, score: at } });
    },
  );

  it('dev-agent (seed 001, 1.3): "approved": true with a score under the threshold does not merge', () => {
    let reviews = 0;
    const devAgent: Workflow = WORKFLOWS['dev-agent'];
    const run = simulate(devAgent, (action, state) => {
      if (action.kind === 'verify' && action.purpose === 'preflight')
        return { kind: 'verified', purpose: 'preflight', test: testResult(false) };
      if (action.kind === 'agent' && action.purpose === 'code')
        return agentOutput(action, { diff: `--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b${reviews}\n` });
      if (action.kind === 'agent' && action.purpose === 'review_step')
        return agentOutput(action, verdict(true, ++reviews === 1 ? 40 : 80));
      return script()(action, state);
    });
    expect(run.events.filter((event) => event.type === 'gate_closed').map((event) => event.data.approved)).toEqual([
      false,
      true,
    ]);
    expect(run.state.result).toMatchObject({ status: 'complete', exit_code: 0 });
  });
});

describe('a state a reviewer refused is no fallback (issue 26)', () => {
  it('dev-agent: a green step the Supervisor keeps rejecting ends at the step start, not at the refused change', () => {
    let answers = 0;
    const run = simulate(WORKFLOWS['dev-agent'], (action, state) => {
      if (action.kind === 'verify' && action.purpose === 'preflight')
        return { kind: 'verified', purpose: 'preflight', test: testResult(false) };
      if (action.kind === 'agent' && action.purpose === 'code')
        return agentOutput(action, { diff: `--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b${++answers}\n` });
      if (action.kind === 'agent' && action.purpose === 'review_step') return agentOutput(action, verdict(false, 20));
      return script()(action, state);
    });
    expect(run.state.result?.status).toBe('failed');
    expect(run.state.head).toBe('base');
    expect(run.state.commits).toEqual([]);
  });
});

describe("seed 002 (2.1): the Supervisor verifies the Tester's fix plans too", () => {
  const failingOnce = () => {
    let verifies = 0;
    return (_state: RunState, purpose: string) => purpose !== 'step' || ++verifies > 1;
  };

  it('reviews the fix plan before the Coder gets it; approved, it goes on with the remark', () => {
    const seen: (string | null)[] = [];
    const run = simulate(
      supervised,
      script({
        verify: failingOnce(),
        tester: (state) =>
          state.last_test?.passed ? { task_id: 'T1', summary: 'fine', findings: [], fix_plan: [] } : fixPlan,
        code: (action, state) => (seen.push(state.feedback?.text ?? null), agentOutput(action, code())),
        review: (purpose) =>
          purpose === 'review_fix_plan' ? verdict(true, 75, 'concrete and right') : verdict(true, 90),
      }),
    );
    const order = run.actions
      .filter((action) => action.kind === 'agent')
      .map((action) => (action.kind === 'agent' ? action.purpose : ''));
    expect(order.slice(0, 6)).toEqual(['plan', 'review_plan', 'code', 'fix_plan', 'review_fix_plan', 'code']);
    expect(run.events.find((event) => event.type === 'fix_plan_verdict')?.data).toMatchObject({
      step_id: 'T1',
      approved: true,
      score: 75,
      threshold: 60,
    });
    expect(seen[1]).toContain('average the middle pair');
    expect(seen[1]).toContain('Supervisor (fix plan approved, score 75): concrete and right');
    expect(run.state.result?.status).toBe('complete');
  });

  it('a rejected fix plan does not reach the Coder: the critique and the test output do', () => {
    const seen: (string | null)[] = [];
    const run = simulate(
      supervised,
      script({
        verify: failingOnce(),
        tester: (state) =>
          state.last_test?.passed ? { task_id: 'T1', summary: 'fine', findings: [], fix_plan: [] } : fixPlan,
        code: (action, state) => (seen.push(state.feedback?.text ?? null), agentOutput(action, code())),
        review: (purpose) =>
          purpose === 'review_fix_plan' ? verdict(false, 30, 'the plan invents a bug') : verdict(true, 90),
      }),
    );
    expect(seen[1]).not.toContain('average the middle pair');
    expect(seen[1]).toContain("The Supervisor rejected the Tester's fix plan (score 30/60): the plan invents a bug");
    expect(seen[1]).toContain('AssertionError: 2 != 3');
    // The low score counts toward escalation, and its note goes to the Tester.
    expect(run.events.find((event) => event.type === 'fix_plan_verdict')?.data).toMatchObject({
      approved: false,
      escalation: 'CORRECT',
    });
  });

  it('a green step whose only fix plan the Supervisor rejects goes on to its gates instead of a fix cycle', () => {
    const run = simulate(
      supervised,
      script({
        tester: (state) =>
          state.current_step_id === 'T1' && state.counters.fix_cycles === 0 && state.tester_findings.length === 0
            ? fixPlan
            : { task_id: 'T1', summary: 'fine', findings: [], fix_plan: [] },
        review: (purpose) =>
          purpose === 'review_fix_plan' ? verdict(false, 20, 'the finding is wrong') : verdict(true, 90),
      }),
    );
    expect(eventTypes(run.events)).not.toContain('fix_cycle');
    expect(run.state.result?.status).toBe('complete');
  });

  it('is not asked where the code gate has no Supervisor', () => {
    const run = simulate(supervised, script({ verify: failingOnce(), tester: () => fixPlan }), {
      config: (config: RunConfig) => ({ ...config, gates: { ...config.gates, code: 'off' } }),
    });
    expect(run.actions.some((action) => action.kind === 'agent' && action.purpose === 'review_fix_plan')).toBe(false);
  });
});

describe('seed 002 (2.1): the goal gate makes a final full test run', () => {
  it('runs the tests before the goal review, and a red final run fails the gate even when the Supervisor approves', () => {
    let goalReviews = 0;
    const run = simulate(
      supervised,
      script({
        verify: (_state, purpose) => purpose !== 'final' || goalReviews > 0,
        review: (purpose) => (purpose === 'review_goal' ? (goalReviews++, verdict(true, 95)) : verdict(true, 90)),
      }),
    );
    const finals = run.events.filter(ofType('test_result')).filter((event) => event.data.purpose === 'final');
    expect(finals.map((event) => event.data.passed)).toEqual([false, true]);
    const goalVerdicts = gateEvents(run, 'goal').filter((event) => event.type === 'verdict');
    expect(goalVerdicts.map((event) => [event.data.approved, event.data.final_tests_failed ?? false])).toEqual([
      [false, true],
      [true, false],
    ]);
    expect(run.state.result?.status).toBe('complete');
  });
});

describe("seed 002 (2.13): the Tester's exploratory findings", () => {
  const noFixReview = (config: RunConfig): RunConfig => ({ ...config, gates: { ...config.gates, code: 'off' } });
  const withFinding = (severity: string) => (state: RunState) =>
    state.current_step_id === 'T1' && state.counters.fix_cycles === 0
      ? { ...fixPlan, findings: [{ ...fixPlan.findings[0], severity }] }
      : { task_id: 'T1', summary: 'fine', findings: [], fix_plan: [] };

  it.each(['critical', 'high'])(
    'a %s finding blocks a green step: its fix plan goes to the Coder first',
    (severity) => {
      const run = simulate(supervised, script({ tester: withFinding(severity) }), { config: noFixReview });
      expect(run.events.filter((event) => event.type === 'fix_plan').map((event) => event.data.blocking)[0]).toBe(true);
      expect(run.events.find((event) => event.type === 'fix_cycle')?.data).toMatchObject({ step_id: 'T1', cycle: 1 });
    },
  );

  it.each(['medium', 'low'])('a %s finding does not block a green step; the code gate sees it', (severity) => {
    const run = simulate(supervised, script({ tester: withFinding(severity) }), { config: noFixReview });
    expect(run.events.some((event) => event.type === 'fix_cycle')).toBe(false);
    expect(run.state.result?.status).toBe('complete');
  });
});
