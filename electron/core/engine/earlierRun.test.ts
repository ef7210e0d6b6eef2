import { describe, expect, it } from 'vitest';
import { configFromWorkflow } from '../../../shared/engine/configFromWorkflow';
import { initialState } from '../../../shared/engine/initialState';
import type { PlanStep, RunState } from '../../../shared/engine/runState';
import { WORKFLOWS } from '../../../shared/engine/workflows';
import { earlierRunText } from './earlierRun';

const step = (id: string, title: string, status: PlanStep['status'], change: Partial<PlanStep> = {}): PlanStep => ({
  id,
  title,
  rationale: '',
  acceptance: '',
  artifacts: [],
  complexity: null,
  depends_on: [],
  status,
  attempts: 1,
  depth: 0,
  parent_step_id: null,
  sub_plan_id: null,
  fail_reason: null,
  commits: [],
  ...change,
});

/** A supervised run that failed at its second step, after a sub-plan for it. */
function failedRun(): RunState {
  const base = initialState({
    runId: '20260101T000000Z',
    goal: 'fix median\nand document it',
    goalHash: 'x',
    config: configFromWorkflow(WORKFLOWS.supervised),
    now: 't0',
    nowMs: 0,
  });
  return {
    ...base,
    status: 'failed',
    phase: 'finished',
    result: { status: 'failed', exit_code: 1, reason: 'step T2 failed after 3 attempts' },
    plans: [
      {
        plan_id: 'plan_0001',
        analysis: '',
        depth: 0,
        parent_plan_id: null,
        parent_step_id: null,
        status: 'failed',
        steps: [
          step('T1', 'Fix median', 'completed'),
          step('T2', 'Document it', 'failed', { fail_reason: 'the README test still fails', sub_plan_id: 'plan_0002' }),
        ],
      },
      {
        plan_id: 'plan_0002',
        analysis: '',
        depth: 1,
        parent_plan_id: 'plan_0001',
        parent_step_id: 'T2',
        status: 'failed',
        steps: [step('T2.1', 'Write the section', 'failed', { depth: 1 })],
      },
    ],
  };
}

const DIFF =
  'diff --git a/src/stats.js b/src/stats.js\n--- a/src/stats.js\n+++ b/src/stats.js\n@@ -1 +1 @@\n-return mean\n+return middle\n';

describe('earlierRunText', () => {
  it("gives the goal, each step's title and status (sub-plans nested, a failure's reason), how the run ended and its diff", () => {
    const text = earlierRunText(failedRun(), DIFF);
    expect(text).toContain('### Earlier run 20260101T000000Z');
    expect(text).toContain('Goal: fix median\nand document it');
    expect(text).toContain('Ended: failed — step T2 failed after 3 attempts');
    expect(text).toContain(
      '- T1 Fix median: completed\n- T2 Document it: failed (the README test still fails)\n  - T2.1 Write the section: failed',
    );
    expect(text).toContain('```diff\ndiff --git a/src/stats.js b/src/stats.js');
    expect(text).toContain('+return middle\n```');
  });

  it('cuts a long diff at its end, saying how much is left out, and says when there was no change', () => {
    const long = `${DIFF}${'+x\n'.repeat(10_000)}`;
    const text = earlierRunText(failedRun(), long, 2_000);
    expect(text.length).toBeLessThanOrEqual(2_100);
    expect(text).toContain('Ended: failed');
    expect(text).toMatch(/… \(diff cut: \d+ more characters\)\n```\n$/);
    expect(earlierRunText(failedRun(), '')).toContain('Its change: none (no commits).');
  });
});
