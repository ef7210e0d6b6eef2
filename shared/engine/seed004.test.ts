import { describe, expect, it } from 'vitest';
import { agentOutput, simulate, testResult, usage, workspace, type Script } from '../../test-support/engineSim';
import type { ActionOutcome, EngineAction } from './actions';
import { configFromWorkflow } from './configFromWorkflow';
import { countVerifyFailure, countVerifyPass } from './counters';
import { WORKFLOWS } from './workflows';
import type { Counters } from './runState';

const limits = configFromWorkflow(WORKFLOWS['editor-scouts']).limits;
const zero: Counters = {
  consecutive_verify_failures: 0,
  total_verify_loops: 0,
  replans: 0,
  plan_attempts: 0,
  fix_cycles: 0,
  consecutive_low_scores: 0,
  gates_opened: 0,
};

function failures(count: number, start: Counters = zero, limitOverrides = {}) {
  let counters = start;
  const decisions: string[] = [];
  for (let index = 0; index < count; index++) {
    const result = countVerifyFailure(counters, { ...limits, ...limitOverrides });
    counters = result.counters;
    decisions.push(result.decision);
  }
  return { counters, decisions };
}

// docs/seeds.md 4.11, 4.12
describe('seed 004 invariants 5 and 6 (REPLAN and hard stop)', () => {
  it('editor-scouts defaults: REPLAN after 3, hard stop at 12', () => {
    expect(limits.replan_after_failures).toBe(3);
    expect(limits.hard_stop_verify_loops).toBe(12);
  });

  it('"REPLAN after 3 consecutive verify failures"', () => {
    expect(failures(3).decisions).toEqual(['retry', 'retry', 'replan']);
  });

  it('"Consecutive counter resets after REPLAN (allows up to 3 REPLANs at attempts 3, 6, 9)"', () => {
    const { decisions, counters } = failures(11);
    const replansAt = decisions.flatMap((decision, index) => (decision === 'replan' ? [index + 1] : []));
    expect(replansAt).toEqual([3, 6, 9]);
    expect(counters.replans).toBe(3);
    expect(counters.consecutive_verify_failures).toBe(2);
  });

  it('"Hard stop at 12 total verify loops"', () => {
    const { decisions, counters } = failures(12);
    expect(decisions.at(-1)).toBe('hard_stop');
    expect(decisions.slice(0, 11)).not.toContain('hard_stop');
    expect(counters.total_verify_loops).toBe(12);
  });

  it('"Hard stop takes precedence when both triggers fire simultaneously"', () => {
    // At the 12th failure the consecutive counter is at 3 again: both fire, the hard stop wins.
    expect(failures(12).decisions.at(-1)).toBe('hard_stop');
    // The same with a REPLAN every 4: 12 is a multiple of both.
    expect(failures(12, zero, { replan_after_failures: 4 }).decisions.at(-1)).toBe('hard_stop');
  });

  it('"Total counter only resets on green"', () => {
    const red = failures(5).counters;
    expect(red.total_verify_loops).toBe(5);
    const afterReplan = failures(1, red).counters;
    expect(afterReplan.total_verify_loops).toBe(6);
    const green = countVerifyPass(afterReplan);
    expect(green).toMatchObject({ total_verify_loops: 0, consecutive_verify_failures: 0 });
    expect(failures(11, green).decisions).not.toContain('hard_stop');
  });
});

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

describe('seed 004 (4.13): a writer that never gives a usable answer ends stuck, like a hard stop', () => {
  const editorScouts = WORKFLOWS['editor-scouts'];
  const drive =
    (writer: (action: EngineAction) => ActionOutcome): Script =>
    (action) => {
      switch (action.kind) {
        case 'prepare':
          return { kind: 'prepared', workspace, head: 'base', test_command: ['node', '--test'] };
        case 'verify':
          // The run's start; no attempt gets as far as another test run.
          return { kind: 'verified', purpose: action.purpose, test: testResult(false) };
        case 'agent':
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
          return writer(action);
        default:
          return { kind: 'fatal', code: 'INTERNAL', message: action.kind };
      }
    };

  it.each([
    [
      'an invalid answer after every retry',
      (action: EngineAction): ActionOutcome =>
        action.kind === 'agent'
          ? {
              kind: 'agent_failed',
              role: action.role,
              purpose: action.purpose,
              code: 'INVALID_OUTPUT',
              message: 'not JSON',
              calls: 4,
              usage,
            }
          : { kind: 'internal' },
    ],
    [
      'an error answer',
      (action: EngineAction): ActionOutcome =>
        action.kind === 'agent'
          ? { kind: 'agent_declined', role: action.role, purpose: action.purpose, reason: 'cannot', calls: 1, usage }
          : { kind: 'internal' },
    ],
  ])('%s, twelve attempts in a row', (_name, writer) => {
    const run = simulate(editorScouts, drive(writer));
    expect(run.state.plans[0]?.steps[0]?.attempts).toBe(12);
    expect(run.state.result).toMatchObject({ status: 'stuck', exit_code: 1 });
    expect(run.state.failure_history).toHaveLength(5);
    expect(run.state.failure_history.at(-1)).toMatchObject({ step_id: 'T1', artifact_dir: '' });
  });

  it('keeps other workflows as they were: a minimal run that cannot finish a task fails', () => {
    const run = simulate(WORKFLOWS.minimal, (action) =>
      action.kind === 'prepare'
        ? { kind: 'prepared', workspace, head: 'base', test_command: ['node', '--test'] }
        : action.kind === 'agent' && action.purpose === 'plan'
          ? agentOutput(action, {
              plan_id: 'plan_0001',
              tasks: [{ id: 'T1', title: 't', rationale: 'r', acceptance: 'a', artifacts: ['x.js'] }],
            })
          : action.kind === 'agent'
            ? {
                kind: 'agent_failed',
                role: action.role,
                purpose: action.purpose,
                code: 'INVALID_OUTPUT',
                message: 'not JSON',
                calls: 4,
                usage,
              }
            : { kind: 'fatal', code: 'INTERNAL', message: action.kind },
    );
    expect(run.state.result?.status).toBe('failed');
    expect(run.state.failure_history).toEqual([]);
  });
});
