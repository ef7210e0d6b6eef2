import type { Workflow } from './workflows';
import type { Feedback, TestSummary } from './runState';

export type FailureView = Workflow['failure_view'];

/**
 * The text a model is shown of a test run: seed 000's truncated report, seed 004's last 200 lines,
 * or the failure-focused excerpt. A state saved before the excerpt existed falls back to the report.
 */
export function testRunText(test: TestSummary, view: FailureView): string {
  if (view === 'tail') return test.tail || test.report;
  if (view === 'excerpt') return test.excerpt || test.report;
  return test.report;
}

function firstFailureLine(test: TestSummary): string {
  const failure = test.first_failure;
  if (!failure) return '';
  return `First failing test: ${failure.test_id}${failure.location ? ` (${failure.location})` : ''}`;
}

/** What the writer sees of a failed attempt, in the workflow's view of the test run. */
export function feedbackFrom(test: TestSummary, kind: 'test_output' | 'first_failure', view: FailureView): Feedback {
  const text = testRunText(test, view);
  if (kind === 'first_failure' && test.first_failure) {
    if (view === 'excerpt') return { kind, text: `${firstFailureLine(test)}\n\n${text}` };
    // Seed 004: the Verifier's status, the first failure, the last 200 lines and the artifacts' reference (its run id:
    // Lathe's own folders are not the model's business, and a path there only invites it to write one).
    if (view === 'tail') {
      const run = `Verifier: ${test.status} (run ${test.verify_run_id || 'none'})`;
      return {
        kind,
        text: `${run}\n${firstFailureLine(test)}\n${test.first_failure.message}\n\nLast 200 lines of the output:\n${text}`,
      };
    }
    return {
      kind,
      text: `First failing test: ${test.first_failure.test_id}\n${test.first_failure.message}\n\nTest output:\n${text}`,
    };
  }
  return { kind: 'test_output', text };
}

/**
 * Seed 002: the Tester's fix plan, with the failing run's excerpt when the tests failed; `plan` is the
 * plan alone, what the Supervisor reviews (decision 41).
 */
export function fixPlanFeedback(
  plan: {
    summary: string;
    findings: { severity: string; description: string; location: string }[];
    fix_plan: string[];
  },
  test: TestSummary | null,
): Feedback & { plan: string } {
  const findings = plan.findings.map(
    (finding) => `- [${finding.severity}] ${finding.location}: ${finding.description}`,
  );
  const steps = plan.fix_plan.map((item, index) => `${index + 1}. ${item}`);
  const planText = [`Tester: ${plan.summary}`, ...findings, 'Fix plan:', ...steps].join('\n');
  return {
    kind: 'fix_plan',
    plan: planText,
    text: [planText, test && !test.passed ? `\nTest output:\n${testRunText(test, 'excerpt')}` : ''].join('\n'),
  };
}
