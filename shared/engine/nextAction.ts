import type { EngineAction } from './actions';
import { gateUsesSupervisor, gateWaitsForUser } from '../schemas/gates';
import { currentStep } from './planOps';
import type { Workflow } from './workflows';
import type { RunState } from './runState';

const REVIEW_PURPOSE = { plan: 'review_plan', code: 'review_code', step: 'review_step', goal: 'review_goal' } as const;

/** What the engine must do next in this state. Pure: the same state always asks for the same action. */
export function nextAction(state: RunState, workflow: Workflow): EngineAction {
  switch (state.phase) {
    case 'preparing':
      return { kind: 'prepare' };
    case 'preflight':
      return { kind: 'verify', purpose: workflow.preflight_test ? 'preflight' : 'baseline' };
    case 'scouting': {
      const brief = state.scouting?.brief ?? null;
      if (!brief) return { kind: 'agent', role: 'editor', purpose: 'scout_brief' };
      if ((state.scouting?.next ?? 0) < brief.questions.length)
        return { kind: 'agent', role: 'scout', purpose: 'scout' };
      return { kind: 'internal' };
    }
    case 'planning':
      if (workflow.planning === 'single_task' && currentStep(state)?.status !== 'blocked') return { kind: 'internal' };
      return { kind: 'agent', role: 'planner', purpose: currentStep(state)?.status === 'blocked' ? 'subplan' : 'plan' };
    case 'selecting':
      return { kind: 'internal' };
    case 'coding':
      return { kind: 'agent', role: workflow.writer, purpose: 'code' };
    case 'applying':
      return { kind: 'apply' };
    case 'verifying':
      return { kind: 'verify', purpose: 'step' };
    case 'testing':
      if (state.fix_review) return { kind: 'agent', role: 'supervisor', purpose: 'review_fix_plan' };
      return { kind: 'agent', role: 'tester', purpose: workflow.tester === 'fix_plan' ? 'fix_plan' : 'test_report' };
    case 'plan_review':
    case 'code_review':
    case 'step_review':
    case 'goal_review': {
      const gate = state.gate;
      if (!gate) return { kind: 'internal' };
      if (gate.needs_final_test) return { kind: 'verify', purpose: 'final' };
      // The Supervisor could not review it: only a person may pass it now.
      if (gate.unreviewed !== null) return { kind: 'await_user', gate };
      const mode = state.config.gates[gate.kind];
      if (gateUsesSupervisor(mode) && gate.verdict === null)
        return { kind: 'agent', role: 'supervisor', purpose: REVIEW_PURPOSE[gate.kind] };
      if (gateWaitsForUser(mode)) return { kind: 'await_user', gate };
      return { kind: 'internal' };
    }
    case 'finished':
      return { kind: 'finish' };
    default:
      return state.phase satisfies never;
  }
}
