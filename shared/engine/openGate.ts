import type { Transition } from './actions';
import type { GateKind } from '../schemas/gates';
import { currentPlan } from './planOps';
import type { PendingGate, RunState } from './runState';

// Apart from gateFlow: step and plan flows open gates, and gateFlow's verdicts move steps on.
const PHASE_OF_GATE = { plan: 'plan_review', code: 'code_review', step: 'step_review', goal: 'goal_review' } as const;

export function openGate(state: RunState, kind: GateKind, now: string): Transition {
  const stepId = kind === 'step' || kind === 'code' ? state.current_step_id : null;
  const number = state.counters.gates_opened + 1;
  const gateId = `${kind}-${number}-${stepId ?? currentPlan(state)?.plan_id ?? 'run'}`;
  const gate: PendingGate = {
    gate_id: gateId,
    kind,
    step_id: stepId,
    threshold: state.config.thresholds[kind],
    verdict: null,
    escalation: null,
    opened_at: now,
    unreviewed: null,
    needs_final_test: kind === 'goal',
    test_files: kind === 'code' || kind === 'step' ? (state.last_test?.inventory?.test_files_changed ?? []) : [],
    unrelated: kind === 'code' || kind === 'step' ? state.unrelated_hunks : [],
  };
  return {
    state: { ...state, counters: { ...state.counters, gates_opened: number }, phase: PHASE_OF_GATE[kind], gate },
    events: [
      {
        role: 'engine',
        type: 'gate_opened',
        data: {
          gate_id: gateId,
          kind,
          step_id: stepId,
          mode: state.config.gates[kind],
          test_files: gate.test_files,
          unrelated: gate.unrelated,
        },
      },
    ],
  };
}
