import { describe, expect, it } from 'vitest';
import { recordedLog } from './fixtures/loadLog';
import { gateSubject } from './gateSubject';
import { buildRunView } from '../../../shared/runView/reduceRunEvents';

describe('gateSubject on a recorded supervised run', () => {
  const view = buildRunView(recordedLog('supervised'));
  const subjectOf = (gateId: string) => {
    const gate = view.gates[gateId];
    if (!gate) throw new Error(`no gate ${gateId}`);
    return gateSubject(view, gate);
  };

  it('shows the plan under review at a plan gate', () => {
    const subject = subjectOf('plan-1-plan_0001');
    expect(subject?.kind).toBe('plan');
    if (subject?.kind !== 'plan') return;
    expect(subject.plan.planId).toBe('plan_0001');
    expect(subject.steps.map((step) => step.id)).toEqual(['T1', 'T2']);
  });

  it("shows a code gate this attempt's commit, a step gate every commit the step kept, each with the step's latest test", () => {
    const code = subjectOf('code-2-T1');
    const step = subjectOf('step-3-T1');
    if (code?.kind !== 'change' || step?.kind !== 'change') throw new Error('expected change subjects');
    expect(code.commits.map((commit) => commit.sha.slice(0, 7))).toEqual(['e7be2d0']);
    expect(code.range).toBe('e7be2d0c88605b6386dc8acc5308a06e5544042b');
    expect(step.commits.map((commit) => commit.sha.slice(0, 7))).toEqual(['c4777a8', 'e7be2d0']);
    expect(step.test).toMatchObject({ seq: 37, status: 'PASS', stepId: 'T1' });
    expect(subjectOf('code-4-T2')).toMatchObject({ kind: 'change', commits: [{ taskId: 'T2' }], test: { seq: 64 } });
  });

  it('shows the goal gate the whole change and the last test run', () => {
    const goal = subjectOf('goal-6-plan_0001');
    expect(goal).toMatchObject({ kind: 'change', range: 'all', test: { seq: 64 } });
    if (goal?.kind === 'change') expect(goal.commits).toHaveLength(3);
  });
});
