import { describe, expect, it } from 'vitest';
import type { RunLogEvent } from '../../../shared/schemas/run';
import { describeEvent } from './describeEvent';
import { pendingGate } from '../../../shared/runView/reduceGates';
import { buildRunView } from '../../../shared/runView/reduceRunEvents';

let seq = 0;
const event = (role: RunLogEvent['role'], type: string, data: Record<string, unknown>): RunLogEvent => ({
  ts: '2026-11-23T10:00:00.000Z',
  seq: ++seq,
  run_id: 'r1',
  role,
  type,
  data,
});

describe('the events of the seed-fidelity changes in the window', () => {
  it('shows a gate the Supervisor could not review as waiting for the user, with the reason', () => {
    const view = buildRunView([
      event('engine', 'gate_opened', { gate_id: 'code-2-T1', kind: 'code', step_id: 'T1', mode: 'auto' }),
      event('engine', 'gate_unreviewed', {
        gate_id: 'code-2-T1',
        gate: 'code',
        step_id: 'T1',
        reason: 'PROVIDER_ERROR: model crashed',
      }),
      event('engine', 'gate_pending', {
        gate_id: 'code-2-T1',
        kind: 'code',
        step_id: 'T1',
        threshold: 60,
        verdict: null,
        escalation: null,
        unreviewed: 'PROVIDER_ERROR: model crashed',
      }),
    ]);
    expect(pendingGate(view)).toMatchObject({
      gateId: 'code-2-T1',
      status: 'pending',
      unreviewed: 'PROVIDER_ERROR: model crashed',
      fallback: false,
      verdict: null,
    });
    expect(view.status).toBe('waiting_for_gate');
  });

  it('describes each new event in words, never as its raw type', () => {
    const events = [
      event('engine', 'gate_unreviewed', { gate: 'code', step_id: 'T1', reason: 'PROVIDER_ERROR: down' }),
      event('supervisor', 'fix_plan_verdict', {
        step_id: 'T1',
        approved: false,
        score: 30,
        threshold: 60,
        feedback: 'invents a bug',
      }),
      event('engine', 'subplan_requested', { step_id: 'T1', reason: 'needs a parser first' }),
      event('engine', 'command_rejected', { command: 'node --test', reason: 'node is not in the allowlist' }),
      event('engine', 'budget_exhausted', { scope: 'execution', reason: 'execution used its budget' }),
      event('engine', 'definition_of_done', {
        checks: [
          { id: 'verifier_pass', ok: true, detail: '' },
          { id: 'tests_for_change', ok: false, detail: 'no test imports src/a.ts' },
        ],
      }),
      event('engine', 'artifacts_released', { dirs: ['/a', '/b'] }),
      event('verifier', 'test_result', {
        purpose: 'final',
        status: 'PASS',
        counts: { passed: 3, failed: 0 },
        duration_ms: 100,
      }),
    ];
    const texts = events.map((entry) => describeEvent(entry).text);
    expect(texts.filter((text, index) => text === events[index]?.type.replaceAll('_', ' '))).toEqual([]);
    expect(texts[0]).toContain('PROVIDER_ERROR: down');
    expect(texts[1]).toContain('fix plan');
    expect(texts[5]).toBe('definition of done: not met — tests_for_change');
    expect(texts[7]).toContain('final test run');
  });
});
