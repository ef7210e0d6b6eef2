import type { CommitView, GateView, PlanView, RunView, StepView, TestView } from './types';

/** What a gate asks the user to approve, from the log alone. */
export type GateSubject =
  | { kind: 'plan'; plan: PlanView; steps: StepView[] }
  | { kind: 'change'; step: StepView | null; commits: CommitView[]; test: TestView | null }
  | null;

/**
 * A plan gate reviews the newest plan made before it opened (a sub-plan too); a code or step gate
 * reviews its step's commits still on the branch and the step's latest test run before it opened.
 */
export function gateSubject(view: RunView, gate: GateView): GateSubject {
  if (gate.kind === 'plan') {
    const plan = Object.values(view.plans)
      .filter((candidate) => candidate.seq < gate.openedSeq)
      .sort((a, b) => b.seq - a.seq)[0];
    if (!plan) return null;
    return { kind: 'plan', plan, steps: plan.stepKeys.map((key) => view.steps[key]).filter((step): step is StepView => step !== undefined) };
  }
  if (gate.kind !== 'code' && gate.kind !== 'step') return null;
  const stepId = gate.stepId;
  const step = stepId ? (view.steps[view.stepKeyById[stepId] ?? ''] ?? null) : null;
  const rolledBack = new Set(view.rolledBack);
  const commits = view.commits.filter((commit) => commit.seq < gate.openedSeq && commit.taskId === stepId && !rolledBack.has(commit.sha));
  const test = view.tests.filter((entry) => entry.seq < gate.openedSeq && entry.purpose !== 'preflight' && (stepId === null || entry.stepId === stepId)).at(-1) ?? null;
  // A code gate reviews this attempt's edit set: the newest commit. A step gate, every commit the step kept.
  return { kind: 'change', step, commits: gate.kind === 'code' ? commits.slice(-1) : commits, test };
}
