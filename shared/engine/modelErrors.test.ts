import { describe, expect, it } from 'vitest';
import {
  agentOutput,
  countOf,
  simulate,
  testResult,
  usage,
  verdict,
  workspace,
  type Script,
} from '../../test-support/engineSim';
import type { ActionOutcome, EngineAction } from './actions';
import type { ErrorCode } from '../errors';
import { WORKFLOWS } from './workflows';
import { writerFormat } from './editFormatFallback';

const plan = {
  plan_id: 'plan_0001',
  tasks: [{ id: 'T1', title: 'Fix', rationale: 'r', acceptance: 'a', artifacts: ['a.py'] }],
};
const failed = (action: EngineAction, code: ErrorCode): ActionOutcome =>
  action.kind === 'agent'
    ? {
        kind: 'agent_failed',
        role: action.role,
        purpose: action.purpose,
        code,
        message: `${code} happened`,
        calls: 1,
        usage,
      }
    : { kind: 'fatal', code: 'INTERNAL', message: action.kind };

/** Every effect succeeds, except the agent calls `failing` picks, which fail with `code`. */
function script(code: ErrorCode, failing: (action: Extract<EngineAction, { kind: 'agent' }>) => boolean): Script {
  return (action) => {
    if (action.kind === 'prepare') return { kind: 'prepared', workspace, head: 'base', test_command: ['pytest'] };
    if (action.kind === 'verify') return { kind: 'verified', purpose: action.purpose, test: testResult(true) };
    if (action.kind === 'apply') return { kind: 'applied', commit: 'c1', head: 'c1', files: ['a.py'] };
    if (action.kind !== 'agent') return { kind: 'fatal', code: 'INTERNAL', message: action.kind };
    if (failing(action)) return failed(action, code);
    if (action.purpose === 'plan' || action.purpose === 'subplan') return agentOutput(action, plan);
    if (action.purpose === 'code') return agentOutput(action, { edits: [{ path: 'a.py', content: 'x = 1\n' }] });
    if (action.purpose === 'test_report') return agentOutput(action, { task_id: 'T1', passed: true, report: 'ok' });
    if (action.purpose === 'fix_plan')
      return agentOutput(action, { task_id: 'T1', summary: 'fine', findings: [], fix_plan: [] });
    return agentOutput(action, verdict(true, 90));
  };
}

const agentCalls = (actions: EngineAction[], purpose: string) =>
  countOf(actions, (action) => action.kind === 'agent' && action.purpose === purpose);

describe('model errors no retry can cure end the run (exit 2), never a replan or another attempt', () => {
  it.each<ErrorCode>([
    'MODEL_LOAD_FAILED',
    'REPLAY_EXHAUSTED',
    'INSUFFICIENT_MEMORY',
    'BAD_MODEL_SPEC',
    'CONTEXT_OVERFLOW',
  ])('%s from the Planner: one call, then failed with the code', (code) => {
    const run = simulate(
      WORKFLOWS.supervised,
      script(code, (action) => action.purpose === 'plan'),
    );
    expect(agentCalls(run.actions, 'plan')).toBe(1);
    expect(run.state.result).toEqual({
      status: 'failed',
      exit_code: 2,
      code,
      reason: expect.stringContaining(`${code}: ${code} happened`),
    });
    expect(run.events.at(-1)).toMatchObject({ type: 'run_finished', data: { status: 'failed', exit_code: 2, code } });
    expect(run.events.find((event) => event.type === 'agent_failed')).toMatchObject({
      role: 'planner',
      data: { purpose: 'plan', code },
    });
  });

  it('MODEL_LOAD_FAILED from the Coder: one attempt, not the five retry-loop would make', () => {
    const run = simulate(
      WORKFLOWS['retry-loop'],
      script('MODEL_LOAD_FAILED', (action) => action.purpose === 'code'),
    );
    expect(agentCalls(run.actions, 'code')).toBe(1);
    expect(run.state.result).toMatchObject({ status: 'failed', exit_code: 2, code: 'MODEL_LOAD_FAILED' });
  });

  it('a retryable failure (INVALID_OUTPUT) still costs a plan attempt and replans', () => {
    const run = simulate(
      WORKFLOWS.supervised,
      script('INVALID_OUTPUT', (action) => action.purpose === 'plan'),
    );
    expect(agentCalls(run.actions, 'plan')).toBe(5);
    expect(run.state.result).toMatchObject({ status: 'failed', exit_code: 1 });
    expect(run.state.result?.code).toBeUndefined();
  });

  it("a review's model failing leaves the gate to a person, with the reason: it never passes by itself (decision 46)", () => {
    const run = simulate(
      WORKFLOWS.supervised,
      script('MODEL_LOAD_FAILED', (action) => action.role === 'supervisor'),
      { stopOnAwait: true },
    );
    expect(run.actions.at(-1)).toMatchObject({
      kind: 'await_user',
      gate: { kind: 'plan', unreviewed: expect.stringContaining('MODEL_LOAD_FAILED') },
    });
    expect(run.state.result).toBeNull();
    expect(run.events.some((event) => event.type === 'gate_fallback')).toBe(false);
  });
});

describe('a whole-file writer whose files do not fit its window (decision 105)', () => {
  const overflowing = (times: number): Script => {
    let failures = 0;
    return script('CONTEXT_OVERFLOW', (action) => action.purpose === 'code' && failures++ < times);
  };

  it('writes search-replace for the rest of the run, told why: one fallback, then the run goes on', () => {
    const run = simulate(WORKFLOWS['retry-loop'], overflowing(1), {
      config: (c) => ({ ...c, edit_format: 'whole-file' }),
    });
    expect(agentCalls(run.actions, 'code')).toBe(2);
    expect(run.events.find((event) => event.type === 'edit_format_fallback')).toMatchObject({
      data: { step_id: 'T1', from: 'whole-file', to: 'search-replace', reason: 'CONTEXT_OVERFLOW happened' },
    });
    // The call that did not fit stays on record as failed, just before the switch.
    const types = run.events.map((event) => event.type);
    expect(types[types.indexOf('edit_format_fallback') - 1]).toBe('agent_failed');
    expect(writerFormat(run.state)).toBe('search-replace');
    expect(run.state.config.edit_format).toBe('whole-file');
    expect(run.events.find((event) => event.type === 'patch')).toMatchObject({ data: { format: 'search-replace' } });
    expect(run.state.result).toMatchObject({ status: 'complete', exit_code: 0 });
  });

  it('ends the run (exit 2) when search-replace does not fit either, and never falls back from a diff format', () => {
    const twice = simulate(WORKFLOWS['retry-loop'], overflowing(2), {
      config: (c) => ({ ...c, edit_format: 'whole-file' }),
    });
    expect(agentCalls(twice.actions, 'code')).toBe(2);
    expect(twice.state.result).toMatchObject({ status: 'failed', exit_code: 2, code: 'CONTEXT_OVERFLOW' });
    const diff = simulate(WORKFLOWS['retry-loop'], overflowing(1), {
      config: (c) => ({ ...c, edit_format: 'unified-diff' }),
    });
    expect(agentCalls(diff.actions, 'code')).toBe(1);
    expect(diff.events.some((event) => event.type === 'edit_format_fallback')).toBe(false);
    expect(diff.state.result).toMatchObject({ status: 'failed', exit_code: 2, code: 'CONTEXT_OVERFLOW' });
  });
});
