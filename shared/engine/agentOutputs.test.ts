import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ActionOutcome } from './actions';
import { agentOutputOutcome, type AgentOutputOutcome, type AgentOutputs } from './agentOutputs';

const facts = { role: 'supervisor' as const, calls: 1, usage: { prompt_tokens: 1, completion_tokens: 1 } };
const verdict = { approved: true, score: 90, issues: [], feedback: 'ok', unrelated: [] };

/*
 * Checked by `tsc -b`: each `@ts-expect-error` must stay an error. The purpose names the output's type,
 * so an outcome cannot carry one purpose's answer under another's name.
 */
export const outcomes: ActionOutcome[] = [
  { kind: 'agent_output', ...facts, purpose: 'review_code', output: verdict },
  // @ts-expect-error a verdict is not a plan
  { kind: 'agent_output', ...facts, purpose: 'plan', output: verdict },
  // @ts-expect-error an answer of unknown shape is not an outcome
  { kind: 'agent_output', ...facts, purpose: 'review_code', output: { approved: 'yes' } as unknown },
];

describe('an answer becomes a typed outcome once, where it arrives', () => {
  it('narrows the output by purpose', () => {
    expectTypeOf<Extract<AgentOutputOutcome, { purpose: 'code' }>['output']>().toEqualTypeOf<AgentOutputs['code']>();
    const typed = agentOutputOutcome('review_goal', { approved: true, score: 90, issues: [], feedback: 'ok' }, facts);
    // The schema fills what the answer left out (a verdict's `unrelated` defaults to none).
    expect(typed).toEqual({
      kind: 'agent_output',
      ...facts,
      purpose: 'review_goal',
      output: verdict,
    });
  });

  it('refuses a wrong-shaped answer with the field and the reason, instead of passing it on', () => {
    expect(agentOutputOutcome('review_plan', { approved: true, score: 'high' }, facts)).toEqual({
      invalid: expect.stringMatching(/^score: /),
    });
    expect(agentOutputOutcome('code', { files: [] }, { ...facts, role: 'coder' })).toHaveProperty('invalid');
    const steps = Array.from({ length: 16 }, (_, index) => ({
      id: `T${index + 1}`,
      title: 't',
      description: 'd',
      acceptance: 'a',
      complexity: 'simple',
      depends_on: [],
      artifacts: [],
    }));
    expect(
      agentOutputOutcome('plan', { plan_id: 'plan_0001', analysis: 'a', steps }, { ...facts, role: 'planner' }),
    ).toEqual({ invalid: 'a plan has 2 to 15 steps; this one has 16' });
  });

  it('keeps every field of an edit proposal, whatever its format adds', () => {
    const proposal = { edits: [{ path: 'a.js', search: 'x', replace: 'y' }] };
    const typed = agentOutputOutcome('code', proposal, { ...facts, role: 'coder' });
    expect(typed).toMatchObject({ purpose: 'code', output: proposal });
  });
});
