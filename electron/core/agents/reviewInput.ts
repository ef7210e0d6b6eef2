import type { GateKind } from '../../../shared/engine/gates';
import type { PlanRecord } from '../../../shared/engine/runState';
import { contextFiles } from './contextFiles';
import type { AgentContext, AgentInput } from './registry';

/** Seed 002's quality gates, as the Supervisor is told them. */
export const GATE_CRITERIA: Record<GateKind, string[]> = {
  plan: ['All steps must be actionable', 'Dependencies must be satisfiable', 'Complexity estimates must be reasonable'],
  code: ['Implementation must address step requirements', 'Tests must be included', 'No critical security issues'],
  step: ['Tests must pass', 'Evidence of completion needed', 'The diff is minimal and follows the repository conventions'],
  goal: ['All steps completed (or acceptable failures)', 'Final integration tests pass', 'The goal is met'],
};

function planView(plan: PlanRecord | null): unknown {
  if (!plan) return null;
  return {
    plan_id: plan.plan_id,
    analysis: plan.analysis,
    steps: plan.steps.map(({ id, title, acceptance, complexity, depends_on, artifacts, status }) => ({ id, title, acceptance, complexity, depends_on, artifacts, status })),
  };
}

export async function reviewInput(kind: GateKind, ctx: AgentContext, task: Record<string, unknown>, plan: PlanRecord | null): Promise<AgentInput> {
  const { state } = ctx;
  const gate = state.gate;
  const input: Record<string, unknown> = {
    gate: kind,
    goal: state.goal,
    threshold: gate?.threshold ?? state.config.thresholds[kind],
    criteria: GATE_CRITERIA[kind],
  };
  if (gate?.escalation && gate.escalation !== 'NONE') input.escalation = gate.escalation;
  const test = state.last_test && {
    status: state.last_test.status,
    counts: state.last_test.counts,
    first_failure: state.last_test.first_failure,
    output: state.last_test.report,
    coverage_percent: state.last_test.coverage_percent,
  };
  switch (kind) {
    case 'plan':
      return { input: { ...input, plan: planView(plan) }, context: [] };
    case 'code':
    case 'step': {
      // Both gates judge the committed change with its test result in hand (seed 002: after the tests).
      const files = await contextFiles(ctx.tools, { artifacts: state.proposal_files, feedback: null, includeAll: false });
      const findings = kind === 'code' && state.tester_findings.length > 0 ? { tester_findings: state.tester_findings } : {};
      return { input: { ...input, task, test, changed_files: state.proposal_files, ...findings }, context: files };
    }
    case 'goal':
      return { input: { ...input, plans: state.plans.filter((record) => record.depth === 0).map(planView), test, commits: state.commits.length }, context: [] };
    default:
      return kind satisfies never;
  }
}
