import { describe, expect, it } from 'vitest';
import { agentOutput, simulate, testResult, verdict, workspace, type Script } from '../../../test-support/engineSim';
import type { ActionOutcome } from '../../../shared/engine/actions';
import { WORKFLOWS } from '../../../shared/engine/workflows';
import { renderPrDescription, renderReport } from './report';

const step = (id: string) => ({
  id,
  title: `step ${id}`,
  description: 'd',
  acceptance: 'a',
  complexity: 'simple',
  depends_on: [],
  artifacts: ['src/stats.js'],
});

/** A supervised run that ends at its first step's tests: `atTests` says how. */
const endsAtTests =
  (atTests: ActionOutcome): Script =>
  (action) => {
    switch (action.kind) {
      case 'prepare':
        return { kind: 'prepared', workspace, head: 'base', test_command: ['node', '--test'] };
      case 'apply':
        return { kind: 'applied', commit: 'c1', head: 'c1', files: ['src/stats.js'] };
      case 'verify':
        return action.purpose === 'step'
          ? atTests
          : { kind: 'verified', purpose: action.purpose, test: testResult(false) };
      case 'agent':
        if (action.purpose === 'plan')
          return agentOutput(action, { plan_id: 'plan_0001', analysis: 'a', steps: [step('T1'), step('T2')] });
        if (action.purpose === 'code')
          return agentOutput(action, { edits: [{ path: 'src/stats.js', search: '', replace: 'x' }] });
        return agentOutput(action, verdict(true, 95));
      default:
        return { kind: 'fatal', code: 'INTERNAL', message: action.kind };
    }
  };

describe('report.md', () => {
  // Issue 29: a run that is no longer running showed its step "in progress".
  it('says a stopped run stopped its step, rather than that the step is in progress', () => {
    const { state } = simulate(WORKFLOWS.supervised, endsAtTests({ kind: 'stopped', reason: 'aborted' }));
    expect(state.status).toBe('aborted');
    const report = renderReport(state, [], []);
    expect(report).toContain('- T1 [stopped] step T1');
    expect(report).toContain('Plan plan_0001 — stopped');
    expect(report).not.toContain('in_progress');
  });

  it('a failed run: its step failed with the reason, and the PR description still lists the plan that ran', () => {
    const { state } = simulate(
      WORKFLOWS.supervised,
      endsAtTests({ kind: 'fatal', code: 'WORKSPACE_SETUP_FAILED', message: 'the sandbox is gone' }),
    );
    expect(state.status).toBe('failed');
    expect(renderReport(state, [], [])).toContain(
      '- T1 [failed] step T1 — d (failed: WORKSPACE_SETUP_FAILED: the sandbox is gone)',
    );
    expect(renderPrDescription(state, [])).toContain('## Summary\n- step T1 (failed)\n- step T2 (pending)\n');
  });
});
