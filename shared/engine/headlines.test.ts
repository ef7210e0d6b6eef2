import { describe, expect, it } from 'vitest';
import { agentOutput, simulate, testResult, verdict, workspace, type Script } from '../../test-support/engineSim';
import type { ActionOutcome, EngineAction } from './actions';
import { applyOutcome } from './machine';
import { WORKFLOWS } from './workflows';
import type { RunConfig } from './runConfig';
import type { RunState } from './runState';

/** How a run's ending reads (result.reason: the window's headline, Activity and report.md). */

const step = (id: string) => ({
  id,
  title: `step ${id}`,
  description: 'd',
  acceptance: 'a',
  complexity: 'simple',
  depends_on: [],
  artifacts: ['src/stats.js'],
});
const plan = { plan_id: 'plan_0001', analysis: 'two steps', steps: [step('T1'), step('T2')] };
const supervised = WORKFLOWS.supervised;

function script(planner: (action: EngineAction) => ActionOutcome = (action) => agentOutput(action, plan)): Script {
  return (action: EngineAction, state: RunState): ActionOutcome => {
    switch (action.kind) {
      case 'prepare':
        return { kind: 'prepared', workspace, head: 'base', test_command: ['node', '--test'] };
      case 'apply':
        return { kind: 'applied', commit: 'c1', head: 'c1', files: ['src/stats.js'] };
      case 'verify':
        return { kind: 'verified', purpose: action.purpose, test: testResult(true) };
      case 'agent':
        if (action.purpose === 'plan' || action.purpose === 'subplan') return planner(action);
        if (action.purpose === 'code')
          return agentOutput(action, { edits: [{ path: 'src/stats.js', search: '', replace: 'x' }] });
        if (action.purpose === 'fix_plan')
          return agentOutput(action, {
            task_id: state.current_step_id ?? 'T1',
            summary: 'fine',
            findings: [],
            fix_plan: [],
          });
        return agentOutput(action, verdict(true, 95));
      default:
        return { kind: 'fatal', code: 'INTERNAL', message: action.kind };
    }
  };
}

describe('run headlines', () => {
  it('credits a human goal-gate approval to the user, not the Supervisor', () => {
    const human = (config: RunConfig): RunConfig => ({ ...config, gates: { ...config.gates, goal: 'human' } });
    const waiting = simulate(supervised, script(), { config: human, stopOnAwait: true });
    expect(waiting.actions.at(-1)).toMatchObject({ kind: 'await_user', gate: { kind: 'goal' } });
    const approved = applyOutcome(
      waiting.state,
      supervised,
      { kind: 'user_decision', gate_id: waiting.state.gate?.gate_id ?? '', approved: true, comment: null },
      'later',
    );
    expect(approved.state.result).toMatchObject({ status: 'complete', exit_code: 0 });
    expect(approved.state.result?.reason).toBe('the user confirmed the goal is met at the goal gate');
    expect(approved.events.find((event) => event.type === 'gate_closed')?.data).toMatchObject({
      gate: 'goal',
      by: 'user',
    });
  });

  it('still credits the Supervisor when it decided the goal gate', () => {
    const run = simulate(supervised, script());
    expect(run.state.result?.reason).toBe('the Supervisor confirmed the goal is met');
  });

  it('names the cause when planning runs out of attempts, not only that it failed', () => {
    const failing: Script = script((action) =>
      action.kind === 'agent'
        ? {
            kind: 'agent_failed',
            role: action.role,
            purpose: action.purpose,
            code: 'INVALID_OUTPUT',
            message: 'the answer is not JSON',
            calls: 3,
            usage: { prompt_tokens: 1, completion_tokens: 1 },
          }
        : { kind: 'fatal', code: 'INTERNAL', message: 'no' },
    );
    const run = simulate(supervised, failing, {
      config: (config) => ({ ...config, limits: { ...config.limits, max_plan_attempts: 1 } }),
    });
    expect(run.state.result).toMatchObject({ status: 'failed', exit_code: 1 });
    expect(run.state.result?.reason).toBe(
      'planning failed after 1 plan(s): The Planner failed: INVALID_OUTPUT: the answer is not JSON',
    );
  });

  it('names the Supervisor’s last critique when every plan is rejected', () => {
    const rejecting: Script = (action, state) =>
      action.kind === 'agent' && action.purpose === 'review_plan'
        ? agentOutput(action, verdict(false, 30, 'steps do not name their files'))
        : script()(action, state);
    const run = simulate(supervised, rejecting, {
      config: (config) => ({ ...config, limits: { ...config.limits, max_plan_attempts: 2 } }),
    });
    expect(run.state.result?.reason).toBe(
      'plan rejected after 2 plan(s): Supervisor score 30: steps do not name their files',
    );
  });
});
