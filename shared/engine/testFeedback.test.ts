import { describe, expect, it } from 'vitest';
import { agentOutput, simulate, testResult, verdict, workspace, type Script } from '../../test-support/engineSim';
import { WORKFLOWS } from './workflows';
import { type WorkflowName } from '../schemas/workflowName';
import { feedbackFrom } from './testFeedback';

const failing = testResult(false, { report: 'SEED-000 REPORT', excerpt: 'FAILURE EXCERPT', tail: 'LAST 200 LINES' });

/** The writer's feedback after the first failed verification, in each workflow. */
function writerFeedbackAfterFailure(workflow: WorkflowName): string | undefined {
  const seen: (string | undefined)[] = [];
  let verifications = 0;
  const script: Script = (action, state) => {
    switch (action.kind) {
      case 'prepare':
        return { kind: 'prepared', workspace, head: 'base', test_command: ['pytest', '-q'] };
      case 'verify':
        // The run's start (seed 001's preflight, everyone else's baseline) fails too; the first attempt fails, then green.
        if (action.purpose === 'baseline') return { kind: 'verified', purpose: action.purpose, test: failing };
        verifications++;
        return { kind: 'verified', purpose: action.purpose, test: verifications === 1 ? failing : testResult(true) };
      case 'apply':
        return { kind: 'applied', commit: `c${verifications}`, head: `c${verifications}`, files: ['src/stats.py'] };
      case 'agent':
        if (action.purpose === 'code') {
          seen.push(state.feedback?.text);
          return agentOutput(
            action,
            action.role === 'editor' || state.config.edit_format !== 'unified-diff'
              ? { edits: [{ path: 'src/stats.py', search: 'x', replace: 'y', content: 'x = 1\n' }] }
              : { diff: '--- a/src/stats.py\n+++ b/src/stats.py\n@@ -1 +1 @@\n-x\n+y\n' },
          );
        }
        if (action.purpose === 'plan' || action.purpose === 'subplan')
          return agentOutput(action, {
            plan_id: 'plan_0001',
            analysis: 'a',
            steps: ['T1', 'T2'].map((id) => ({
              id,
              title: id,
              description: 'd',
              acceptance: 'a',
              complexity: 'simple',
              depends_on: [],
              artifacts: ['src/stats.py'],
            })),
          });
        if (action.purpose === 'fix_plan')
          return agentOutput(action, { task_id: 'T1', summary: 'fix it', findings: [], fix_plan: ['do it'] });
        if (action.purpose === 'scout_brief')
          return agentOutput(action, {
            behavior_change: 'b',
            success_criteria: ['green'],
            non_goals: [],
            questions: [{ scout: 'A', question: 'where?' }],
          });
        if (action.purpose === 'scout') {
          const report = {
            summary: 's',
            repo_map: [],
            target_files: [],
            apis: [],
            constraints: [],
            prior_art: [],
            verification_tips: [],
            hypotheses: [],
          };
          return agentOutput(action, {
            scout: 'A',
            question: 'where?',
            report,
            context_file: `context_00${state.contexts.length + 1}.md`,
            tool_calls: 1,
          });
        }
        return agentOutput(action, verdict(true, 95));
      default:
        return { kind: 'fatal', code: 'INTERNAL', message: action.kind };
    }
  };
  simulate(WORKFLOWS[workflow], script, { maxSteps: 60 });
  return seen.find((text) => text !== undefined);
}

describe('feedback from a failed test run', () => {
  // docs/seeds.md 3.5 (retry-loop's writer gets the failing output as the excerpt), 4.9 (the Editor gets the status, the run's artifacts and the last 200 lines)
  it('shows each view: seed 000 report, seed 004 tail with the Verifier run, or the excerpt', () => {
    expect(feedbackFrom(failing, 'test_output', 'report')).toEqual({ kind: 'test_output', text: 'SEED-000 REPORT' });
    expect(feedbackFrom(failing, 'test_output', 'excerpt')).toEqual({ kind: 'test_output', text: 'FAILURE EXCERPT' });
    expect(feedbackFrom(failing, 'first_failure', 'excerpt').text).toBe(
      'First failing test: test_stats.py::test_mean (test_stats.py:7)\n\nFAILURE EXCERPT',
    );
    const tail = feedbackFrom(failing, 'first_failure', 'tail').text;
    expect(tail).toMatch(/^Verifier: FAIL \(run v1\)\nFirst failing test: test_stats\.py::test_mean/);
    // The artifacts' reference is the Verifier run id: a path of Lathe's own is never shown to the model (issue 26).
    expect(failing.artifact_dir).not.toBe('');
    expect(tail).not.toContain(failing.artifact_dir);
    expect(tail.endsWith('Last 200 lines of the output:\nLAST 200 LINES')).toBe(true);
  });

  it('falls back to the report for a state saved before the excerpt existed', () => {
    expect(feedbackFrom({ ...failing, excerpt: '', tail: '' }, 'test_output', 'excerpt').text).toBe('SEED-000 REPORT');
  });

  it.each([
    ['dev-agent', 'FAILURE EXCERPT'],
    ['retry-loop', 'FAILURE EXCERPT'],
    ['supervised', 'FAILURE EXCERPT'],
    ['editor-scouts', 'LAST 200 LINES'],
  ] as const)('%s: the writer sees %s of the failed run, never the seed 000 report', (workflow, expected) => {
    const feedback = writerFeedbackAfterFailure(workflow);
    expect(feedback).toContain(expected);
    expect(feedback).not.toContain('SEED-000 REPORT');
  });
});
