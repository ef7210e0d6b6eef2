import type { CommitView, GateView, PlanView, RunView, StepView, TestView } from '../../../shared/runView/types';

/** What a gate asks the user to approve, from the log alone. */
export type GateSubject =
  | { kind: 'plan'; plan: PlanView; steps: StepView[] }
  /** `range`: the Changes tab's range for the diff (a commit, or `all` for the goal gate). */
  | { kind: 'change'; step: StepView | null; commits: CommitView[]; test: TestView | null; range: string | null }
  | null;

/**
 * A plan gate reviews the newest plan made before it opened (a sub-plan too); a code or step gate
 * reviews its step's commits still on the branch and the step's latest test run before it opened; a
 * goal gate, every commit of the run still on the branch and the last test run.
 */
export function gateSubject(view: RunView, gate: GateView): GateSubject {
  if (gate.kind === 'plan') {
    const plan = Object.values(view.plans)
      .filter((candidate) => candidate.seq < gate.openedSeq)
      .sort((a, b) => b.seq - a.seq)[0];
    if (!plan) return null;
    return {
      kind: 'plan',
      plan,
      steps: plan.stepKeys.map((key) => view.steps[key]).filter((step): step is StepView => step !== undefined),
    };
  }
  const rolledBack = new Set(view.rolledBack);
  const kept = view.commits.filter((commit) => commit.seq < gate.openedSeq && !rolledBack.has(commit.sha));
  const tests = view.tests.filter((entry) => entry.seq < gate.openedSeq && entry.purpose !== 'preflight');
  if (gate.kind === 'goal')
    return {
      kind: 'change',
      step: null,
      commits: kept,
      test: tests.at(-1) ?? null,
      range: kept.length > 0 ? 'all' : null,
    };
  if (gate.kind !== 'code' && gate.kind !== 'step') return null;
  const stepId = gate.stepId;
  const step = stepId ? (view.steps[view.stepKeyById[stepId] ?? ''] ?? null) : null;
  const stepCommits = kept.filter((commit) => commit.taskId === stepId);
  // A code gate reviews this attempt's edit set: the newest commit. A step gate, every commit the step kept.
  const commits = gate.kind === 'code' ? stepCommits.slice(-1) : stepCommits;
  return {
    kind: 'change',
    step,
    commits,
    test: tests.filter((entry) => entry.stepId === stepId).at(-1) ?? null,
    range: commits.at(-1)?.sha ?? null,
  };
}
