import { quoteGitPath } from '../../../shared/gitPath';
import { firstLine, shortenAtWord, SUBJECT_MAX } from '../../../shared/headline';
import type { RunState } from '../../../shared/engine/runState';
import { fallbackCause } from '../../../shared/engine/editFormatFallback';
import type { RunCommitInfo } from '../git/types';
import type { DoneCheck } from './doneChecks';

/** A run stopped to resume later (Ctrl-C, Pause, time limit) keeps its step under way; the report says it stopped. */
function statusLabel(state: RunState, status: string): string {
  return status === 'in_progress' && state.status !== 'running' && state.status !== 'waiting_for_gate'
    ? 'stopped'
    : status;
}

function planLines(state: RunState): string[] {
  return state.plans.flatMap((plan) => [
    `Plan ${plan.plan_id}${plan.depth > 0 ? ` (sub-plan of ${plan.parent_step_id}, depth ${plan.depth})` : ''} — ${statusLabel(state, plan.status)}`,
    ...(plan.analysis ? [`  ${plan.analysis}`] : []),
    ...plan.steps.map(
      (step) =>
        `- ${step.id} [${statusLabel(state, step.status)}] ${step.title}${step.rationale ? ` — ${step.rationale}` : ''}${step.fail_reason ? ` (failed: ${step.fail_reason})` : ''}`,
    ),
  ]);
}

function verificationLines(state: RunState): string[] {
  const test = state.last_test;
  if (!test) return ['No test run was recorded.'];
  const counts = test.counts
    ? `${test.counts.passed} passed, ${test.counts.failed} failed, ${test.counts.skipped} skipped${test.results_from ? `, from ${test.results_from}` : ''}`
    : `no counts: Lathe could not read test results from the output${test.status === 'PASS' ? ', so this PASS rests on the exit code alone' : ''}`;
  return [
    `Command: \`${(state.test_command ?? []).join(' ')}\`${state.test_command_source ? ` (${state.test_command_source})` : ''}`,
    ...(state.setup_note ? [`Setup: ${state.setup_note}`] : []),
    `Last result: ${test.status} (${counts}) in ${(test.duration_ms / 1000).toFixed(1)} s, exit code ${test.exit_code ?? 'none'}`,
    `Isolation: ${test.isolation}`,
    ...(test.first_failure
      ? [
          `First failure: ${test.first_failure.test_id}${test.first_failure.location ? ` (${test.first_failure.location})` : ''} — ${test.first_failure.message}`,
        ]
      : []),
    ...(test.coverage_percent !== null ? [`Coverage of changed files: ${test.coverage_percent.toFixed(1)}%`] : []),
    ...test.tools.map((tool) => `Tool ${tool.name}: ${tool.status}${tool.required ? '' : ' (optional)'}`),
    ...inventoryLines(state),
    `Verifier run: ${test.verify_run_id} (artifacts: ${test.artifact_dir})`,
  ];
}

/** The suite against the run's start, and which existing tests a reviewer let the run change. */
function inventoryLines(state: RunState): string[] {
  const check = state.last_test?.inventory;
  const start = state.baseline?.counts;
  const lines: string[] = [];
  if (check) {
    const missing =
      check.missing_count > 0
        ? `; ${check.missing_count} test(s) of the start missing (${check.missing.slice(0, 5).join(', ')}${check.missing_count > 5 ? ', …' : ''})`
        : '; every test of the start is still there';
    lines.push(
      `Tests against the run's start: ${check.before_total} then, ${check.after_total} now (compared by ${check.compared === 'names' ? 'name' : 'total only'})${check.compared === 'names' ? missing : ''}${check.weakened ? ' — WEAKENED' : ''}`,
    );
  } else if (start) {
    lines.push(`Tests at the run's start: ${start.passed} passed, ${start.failed} failed, ${start.skipped} skipped`);
  }
  if (state.approved_test_files.length > 0)
    lines.push(`Existing tests changed with a reviewer's explicit approval: ${state.approved_test_files.join(', ')}`);
  if (state.unrelated_hunks.length > 0)
    lines.push(
      'Changes classed as unrelated to the task (for the reviewer):',
      ...state.unrelated_hunks.map((hunk) => `- ${hunk}`),
    );
  return lines;
}

function commitLines(commits: RunCommitInfo[]): string[] {
  if (commits.length === 0) return ['No commits.'];
  return commits.flatMap((commit) => [
    `- ${commit.sha.slice(0, 10)} ${commit.subject}`,
    ...commit.files.map((file) => `  - ${quoteGitPath(file.path)} (+${file.added} −${file.removed})`),
  ]);
}

const DONE_LABELS: Record<DoneCheck['id'], string> = {
  verifier_pass: 'Verifier returns PASS',
  minimal_diff: 'Diff is minimal',
  tests_for_change: 'New or changed behaviour has tests',
  summary: 'Summary documents what changed, why, how verified',
};

function doneLines(checks: DoneCheck[]): string[] {
  return checks.map((check) => `- [${check.ok ? 'x' : ' '}] ${DONE_LABELS[check.id]}: ${check.detail}`);
}

/** `report.md`: what changed, why, how verified, and the run_id (seed 004's definition of done). */
export function renderReport(state: RunState, commits: RunCommitInfo[], done: DoneCheck[]): string {
  const result = state.result;
  const m = state.metrics;
  return [
    `# Lathe run ${state.run_id} — ${state.status}`,
    '',
    // Every line of a multi-line goal, indented so that it stays within the list item.
    `- Goal: ${state.goal
      .trim()
      .split(/\r?\n/)
      .map((line, index) => (index === 0 || line.trim() === '' ? line.trim() : `  ${line}`))
      .join('\n')}`,
    `- Workflow: ${state.workflow}`,
    ...(state.edit_format_fallback
      ? [
          `- Edit format: ${state.edit_format_fallback.format}, not the configured ${state.config.edit_format}, from a step on: ${fallbackCause(state.edit_format_fallback.reason)}`,
        ]
      : []),
    `- Branch: ${state.branch ?? '(none)'}${state.workspace ? ` from ${state.workspace.baseCommit.slice(0, 10)}` : ''}`,
    ...(state.follow_up_of ? [`- Follows up on: run ${state.follow_up_of} (the branch starts at its head)`] : []),
    `- Outcome: ${result ? `${result.status} (exit ${result.exit_code}) — ${result.reason}` : `stopped in phase ${state.phase}`}`,
    `- Run id: ${state.run_id}`,
    '',
    '## What changed',
    ...commitLines(commits),
    '',
    '## Why',
    ...planLines(state),
    '',
    '## How verified',
    ...verificationLines(state),
    '',
    '## Definition of done (seed 004)',
    ...doneLines(done),
    '',
    '## Metrics',
    `Steps: ${m.completed_steps} completed, ${m.failed_steps} failed of ${m.total_steps}; replans ${m.replan_count}; fix cycles ${m.fix_cycles}; verifications ${m.verifications_passed} passed, ${m.verifications_failed} failed.`,
    ...Object.entries(m.agents).map(
      ([role, agent]) =>
        `- ${role}: ${agent.calls} calls, ${agent.prompt_tokens} prompt + ${agent.completion_tokens} completion tokens`,
    ),
    '',
  ].join('\n');
}

/** The top-level plans a replan did not replace; the last one stands even when the run failed in it. */
function summaryPlans(state: RunState): RunState['plans'] {
  const top = state.plans.filter((plan) => plan.depth === 0);
  return top.filter((plan, index) => plan.status !== 'failed' || index === top.length - 1);
}

/** Seed 001's "push & PR": a ready-to-paste description, written whether or not a push happened. */
export function renderPrDescription(state: RunState, commits: RunCommitInfo[]): string {
  const title = shortenAtWord(firstLine(state.goal).line, SUBJECT_MAX) || 'Lathe run';
  return [
    `# ${title}`,
    '',
    '## Summary',
    ...summaryPlans(state).flatMap((plan) =>
      plan.steps.map((step) => `- ${step.title} (${statusLabel(state, step.status)})`),
    ),
    '',
    '## Changes',
    ...commitLines(commits),
    '',
    '## How verified',
    ...verificationLines(state),
    '',
    `Run id: ${state.run_id} (workflow ${state.workflow}, branch ${state.branch ?? 'none'})`,
    '',
  ].join('\n');
}
