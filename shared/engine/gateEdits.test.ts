import { describe, expect, it } from 'vitest';
import { agentOutput, simulate, testResult, verdict, workspace, type Script } from '../../test-support/engineSim';
import type { ActionOutcome, EngineAction } from './actions';
import { applyOutcome } from './machine';
import type { RunConfig } from './runConfig';
import type { RunState } from './runState';
import type { UserEditRecord } from './userEdit';
import { WORKFLOWS } from './workflows';

const supervised = WORKFLOWS.supervised;
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
const humanCode = (config: RunConfig): RunConfig => ({ ...config, gates: { ...config.gates, code: 'human' } });
const edit: UserEditRecord = {
  commit: 'u1',
  head: 'u1',
  files: [{ path: 'src/stats.js', added: 1, removed: 1, created: false }],
  test_files: ['test/stats.test.js'],
};

/** Green unless `red` says the head's tests fail; each apply a new commit. */
function script(red: (state: RunState) => boolean): Script {
  let commit = 0;
  let answer = 0;
  return (action: EngineAction, state: RunState): ActionOutcome => {
    switch (action.kind) {
      case 'prepare':
        return { kind: 'prepared', workspace, head: 'base', test_command: ['node', '--test'] };
      case 'apply':
        commit++;
        return { kind: 'applied', commit: `c${commit}`, head: `c${commit}`, files: ['src/stats.js'] };
      case 'verify':
        if (action.purpose === 'baseline')
          return { kind: 'verified', purpose: action.purpose, test: testResult(false) };
        return { kind: 'verified', purpose: action.purpose, test: testResult(!red(state)) };
      case 'agent':
        if (action.purpose === 'plan') return agentOutput(action, twoSteps);
        if (action.purpose === 'code')
          return agentOutput(action, { edits: [{ path: 'src/stats.js', search: '', replace: `x${++answer}` }] });
        if (action.purpose === 'fix_plan')
          return agentOutput(action, { task_id: 'T1', summary: 'fine', findings: [], fix_plan: [] });
        return agentOutput(action, verdict(true, 90));
      default:
        return { kind: 'fatal', code: 'INTERNAL', message: action.kind };
    }
  };
}

function atCodeGate(red: (state: RunState) => boolean) {
  const run = simulate(supervised, script(red), { config: humanCode, stopOnAwait: true });
  expect(run.actions.at(-1)).toMatchObject({ kind: 'await_user', gate: { kind: 'code' } });
  const decision: ActionOutcome = {
    kind: 'user_decision',
    gate_id: run.state.gate?.gate_id ?? '',
    approved: true,
    comment: null,
    edit,
  };
  return { paused: run.state, decided: applyOutcome(run.state, supervised, decision, 'later') };
}

describe('a code gate approved with the person’s edit', () => {
  it('records the edit and its commit, then verifies it before the run goes on', () => {
    const { paused, decided } = atCodeGate(() => false);
    expect(decided.events.map((event) => event.type).filter((type) => type !== 'phase')).toEqual([
      'gate_decided',
      'user_edit',
      'commit',
      'gate_closed',
    ]);
    expect(decided.events.find((event) => event.type === 'user_edit')).toMatchObject({
      role: 'user',
      data: { gate: 'code', step_id: 'T1', commit: 'u1', test_files: ['test/stats.test.js'] },
    });
    expect(decided.state).toMatchObject({
      phase: 'verifying',
      head: 'u1',
      gate: null,
      passed_gates: ['code'],
      commits: [...paused.commits, 'u1'],
    });
    // The person changing an existing test is their approval of it: the protected-tests check lets it pass, recorded.
    expect(decided.state.approved_test_files).toContain('test/stats.test.js');
    // Green: the code gate the person passed is not asked again; T1 completes and the next step's gate is the next question.
    const rest = simulate(
      supervised,
      script(() => false),
      { from: decided.state, stopOnAwait: true },
    );
    expect(rest.actions[0]).toEqual({ kind: 'verify', purpose: 'step' });
    expect(rest.state.plans[0]?.steps.find((candidate) => candidate.id === 'T1')?.status).toBe('completed');
    expect(rest.actions.at(-1)).toMatchObject({ kind: 'await_user', gate: { kind: 'code', step_id: 'T2' } });
  });

  it('sends a red result after the edit down the normal fix path, and the fixed change to the gate again', () => {
    const { decided } = atCodeGate((state) => state.head === 'u1');
    const rest = simulate(
      supervised,
      script((state) => state.head === 'u1'),
      { from: decided.state, stopOnAwait: true },
    );
    expect(rest.events.some((event) => event.type === 'fix_cycle' || event.type === 'retry')).toBe(true);
    expect(rest.actions.at(-1)).toMatchObject({ kind: 'await_user', gate: { kind: 'code', step_id: 'T1' } });
    expect(rest.state.head).not.toBe('u1');
  });
});
