import { describe, expect, it } from 'vitest';
import type { RunLogEvent } from '../schemas/run';
import { listAgentCalls } from './agentCalls';

let seq = 0;
const event = (role: RunLogEvent['role'], type: string, data: Record<string, unknown>): RunLogEvent => ({
  ts: '2026-11-27T00:00:00.000Z',
  seq: ++seq,
  run_id: '20261127T000000Z',
  role,
  type,
  data,
});
const usage = { prompt_tokens: 100, completion_tokens: 7 };

describe('listAgentCalls', () => {
  it('pairs each call with its role’s next end, numbers old logs by place, and leaves a call without an end interrupted', () => {
    seq = 0;
    const calls = listAgentCalls([
      event('planner', 'agent_call', { purpose: 'plan', model: 'm', step_id: null, call: 1 }),
      event('planner', 'agent_output', { purpose: 'plan', output: {}, usage, calls: 1, call: 1 }),
      event('coder', 'agent_call', { purpose: 'code', model: 'm', step_id: 'T1', call: 2 }),
      event('coder', 'agent_raw', { purpose: 'code', raw: 'x' }),
      event('engine', 'agent_failed', { purpose: 'code', reason: 'bad' }),
      event('coder', 'agent_failed', { purpose: 'code', reason: 'bad' }),
      event('supervisor', 'agent_call', { purpose: 'review_step', model: 'm', step_id: 'T1' }),
    ]);
    expect(
      calls.map(({ call, role, purpose, stepId, promptTokens, completionTokens, outcome, recorded }) => ({
        call,
        role,
        purpose,
        stepId,
        promptTokens,
        completionTokens,
        outcome,
        recorded,
      })),
    ).toEqual([
      {
        call: 1,
        role: 'planner',
        purpose: 'plan',
        stepId: null,
        promptTokens: 100,
        completionTokens: 7,
        outcome: 'output',
        recorded: true,
      },
      {
        call: 2,
        role: 'coder',
        purpose: 'code',
        stepId: 'T1',
        promptTokens: null,
        completionTokens: null,
        outcome: 'failed',
        recorded: true,
      },
      {
        call: 3,
        role: 'supervisor',
        purpose: 'review_step',
        stepId: 'T1',
        promptTokens: null,
        completionTokens: null,
        outcome: 'interrupted',
        recorded: false,
      },
    ]);
  });
});
