import { describe, expect, it } from 'vitest';
import {
  agentOutput,
  simulate,
  testResult,
  usage,
  verdict,
  workspace,
  type Script,
} from '../../test-support/engineSim';
import type { ActionOutcome, EngineAction } from './actions';
import { reopenStuck } from './finish';
import { applyOutcome } from './machine';
import type { RunState } from './runState';
import { WORKFLOWS } from './workflows';

/** Issue 29: a run that ended failed, stuck or aborted kept the step it was running "in progress". */

const step = (id: string) => ({
  id,
  title: `step ${id}`,
  description: 'd',
  acceptance: 'a',
  complexity: 'simple',
  depends_on: [],
  artifacts: ['src/stats.js'],
});
const plan = { plan_id: 'plan_0001', analysis: 'two steps', steps: [step('T1'), step('T2')] };

/** The supervised workflow up to the first step's test run; `verify` decides what happens there. */
function supervisedUntilVerify(verify: (action: EngineAction) => ActionOutcome): Script {
  return (action, state) => {
    switch (action.kind) {
      case 'prepare':
        return { kind: 'prepared', workspace, head: 'base', test_command: ['node', '--test'] };
      case 'apply':
        return { kind: 'applied', commit: 'c1', head: 'c1', files: ['src/stats.js'] };
      case 'verify':
        return action.purpose === 'step'
          ? verify(action)
          : { kind: 'verified', purpose: action.purpose, test: testResult(false) };
      case 'agent':
        if (action.purpose === 'plan' || action.purpose === 'subplan') return agentOutput(action, plan);
        if (action.purpose === 'code')
          return agentOutput(action, { edits: [{ path: 'src/stats.js', search: '', replace: 'x' }] });
        if (action.purpose === 'fix_plan')
          return agentOutput(action, {
            task_id: state.current_step_id ?? 'T1',
            summary: 'fine',
            findings: [],
            fix_plan: [],
          });
        return agentOutput(action, verdict(true, 95));
      default:
        return { kind: 'fatal', code: 'INTERNAL', message: action.kind };
    }
  };
}

const statuses = (state: RunState) =>
  state.plans.flatMap((record) => [record.status, ...record.steps.map((entry) => `${entry.id} ${entry.status}`)]);

describe('the end of a run that did not reach its goal', () => {
  it('fails the step it was running, with the reason, and its plan (an infrastructure error)', () => {
    const run = simulate(
      WORKFLOWS.supervised,
      supervisedUntilVerify(() => ({ kind: 'fatal', code: 'WORKSPACE_SETUP_FAILED', message: 'the sandbox is gone' })),
    );
    expect(run.state.result).toMatchObject({ status: 'failed', exit_code: 2 });
    expect(statuses(run.state)).toEqual(['failed', 'T1 failed', 'T2 pending']);
    expect(run.state.plans[0]?.steps[0]?.fail_reason).toBe('WORKSPACE_SETUP_FAILED: the sandbox is gone');
    expect(run.state.metrics.failed_steps).toBe(1);
  });

  it('fails it when the user stops the run for good (aborted)', () => {
    const waiting = simulate(
      WORKFLOWS.supervised,
      supervisedUntilVerify(() => ({ kind: 'verified', purpose: 'step', test: testResult(true) })),
      { config: (config) => ({ ...config, gates: { ...config.gates, step: 'human' } }), stopOnAwait: true },
    );
    expect(statuses(waiting.state)).toContain('T1 in_progress');
    const cancelled = applyOutcome(waiting.state, WORKFLOWS.supervised, { kind: 'cancelled' }, 'later');
    expect(cancelled.state.result).toMatchObject({ status: 'aborted' });
    expect(statuses(cancelled.state)).toEqual(['failed', 'T1 failed', 'T2 pending']);
  });

  it('keeps the step under way when the run only stopped, to resume (Ctrl-C)', () => {
    const stopped = simulate(
      WORKFLOWS.supervised,
      supervisedUntilVerify(() => ({ kind: 'stopped', reason: 'aborted' })),
    );
    expect(stopped.state.status).toBe('aborted');
    expect(stopped.state.phase).not.toBe('finished');
    expect(statuses(stopped.state)).toContain('T1 in_progress');
  });

  it('a stuck run reopened to verify again has its step and plan under way, the failure no longer counted', () => {
    const editorScouts = WORKFLOWS['editor-scouts'];
    const scoutReport = {
      summary: 's',
      repo_map: [],
      target_files: [],
      apis: [],
      constraints: [],
      prior_art: [],
      verification_tips: [],
      hypotheses: ['h'],
    };
    const run = simulate(editorScouts, (action) => {
      if (action.kind === 'prepare')
        return { kind: 'prepared', workspace, head: 'base', test_command: ['node', '--test'] };
      if (action.kind === 'verify') return { kind: 'verified', purpose: action.purpose, test: testResult(false) };
      if (action.kind === 'apply') return { kind: 'applied', commit: 'c1', head: 'c1', files: ['src/stats.js'] };
      if (action.kind !== 'agent') return { kind: 'fatal', code: 'INTERNAL', message: action.kind };
      if (action.purpose === 'scout_brief')
        return agentOutput(action, {
          behavior_change: 'b',
          success_criteria: ['s'],
          non_goals: [],
          questions: [{ scout: 'A', question: 'where?' }],
        });
      if (action.purpose === 'scout')
        return agentOutput(action, {
          scout: 'A',
          question: 'where?',
          report: scoutReport,
          context_file: 'context_001.md',
          tool_calls: 1,
        });
      return { kind: 'agent_declined', role: action.role, purpose: action.purpose, reason: 'cannot', calls: 1, usage };
    });
    expect(run.state.result).toMatchObject({ status: 'stuck' });
    expect(statuses(run.state)).toEqual(['failed', 'T1 failed']);
    expect(run.state.metrics.failed_steps).toBe(1);
    const reopened = reopenStuck(run.state, editorScouts);
    expect(statuses(reopened)).toEqual(['in_progress', 'T1 in_progress']);
    expect(reopened.metrics.failed_steps).toBe(0);
  });
});
