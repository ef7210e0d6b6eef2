import type { z } from 'zod';
import type { AgentPurpose } from '../../../../shared/engine/agentPurpose';
import { LIMITS } from '../../../../shared/schemas/agents/bounds';
import type { EditFormatName } from '../../edits/types';
import type { ModelRole } from '../../../../shared/schemas/roles';
import { goldFileState } from './applyGold';
import { foreignHunks } from './reviewScope';
import { editAnswer } from './editAnswers';
import { wholeText, type VisibleFile } from './visibleFile';
import type { GoldFile, GoldPatch } from './goldPatch';

/** What the oracle says to one call: a value for the schema, or why a perfect model could not answer. */
export type OracleAnswer = { kind: 'value'; value: unknown } | { kind: 'decline'; reason: string };

export interface OracleCall {
  purpose: AgentPurpose;
  input: Record<string, unknown>;
  /** The files the call's (fitted) context shows. */
  files: ReadonlyMap<string, VisibleFile>;
  schema: z.ZodType;
  gold: GoldPatch;
}

const value = (answer: unknown): OracleAnswer => ({ kind: 'value', value: answer });
const decline = (reason: string): OracleAnswer => ({ kind: 'decline', reason });
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const record = (item: unknown): Record<string, unknown> =>
  typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as Record<string, unknown>) : {};
const text = (item: unknown): string => (typeof item === 'string' ? item : '');
const strings = (item: unknown): string[] =>
  Array.isArray(item) ? item.filter((entry): entry is string => typeof entry === 'string') : [];

/** The purpose of a call made without one, from its role and input (older callers, direct router use). */
export function inferPurpose(role: ModelRole, input: Record<string, unknown>): AgentPurpose {
  switch (role) {
    case 'planner':
      return 'plan';
    case 'coder':
      return 'code';
    case 'tester':
      return 'test' in input ? 'fix_plan' : 'test_report';
    case 'supervisor':
      return input.gate === 'plan'
        ? 'review_plan'
        : input.gate === 'code'
          ? 'review_code'
          : input.gate === 'goal'
            ? 'review_goal'
            : 'review_step';
    case 'editor':
      return 'task' in input ? 'code' : 'scout_brief';
    case 'scout':
      return 'scout';
    default:
      return role satisfies never;
  }
}

/** Which edit format a writer's schema is: the one whose minimal proposal it accepts. */
export function editFormatOf(schema: z.ZodType): EditFormatName | null {
  if (schema.safeParse({ edits: [{ path: 'a', content: '' }] }).success) return 'whole-file';
  if (schema.safeParse({ edits: [{ path: 'a', search: 'x', replace: '' }] }).success) return 'search-replace';
  if (schema.safeParse({ diff: 'x' }).success) return 'unified-diff';
  return null;
}

function goldPaths(gold: GoldPatch): string[] {
  return gold.files.map((file) => file.path);
}

function listed(paths: readonly string[]): string {
  return clip(paths.join(', '), 300);
}

function goalTitle(input: Record<string, unknown>): string {
  const first = text(input.goal).split('\n')[0]?.trim() ?? '';
  return clip(first === '' ? 'Make the fix' : first, LIMITS.title);
}

/** One task (seed 000) or, where the schema wants steps (2 at least), the fix and a confirming step. */
function plan(call: OracleCall): OracleAnswer {
  const artifacts = goldPaths(call.gold);
  if (artifacts.length > LIMITS.artifacts)
    return decline(
      `the gold patch changes ${artifacts.length} files, more than one task's ${LIMITS.artifacts} artifacts`,
    );
  const planId = text(call.input.plan_id) || 'plan_0001';
  const title = goalTitle(call.input);
  const acceptance = "The repository's test suite passes.";
  const rationale = clip(`The behaviour the goal describes is implemented in ${listed(artifacts)}.`, LIMITS.shortText);
  const tasks = { plan_id: planId, tasks: [{ id: 'T1', title, rationale, acceptance, artifacts }] };
  if (call.schema.safeParse(tasks).success) return value(tasks);
  return value({
    plan_id: planId,
    analysis: clip(
      `The fix is one change to ${listed(artifacts)}; a second step confirms the whole suite passes with it.`,
      1000,
    ),
    steps: [
      { id: 'T1', title, description: rationale, acceptance, complexity: 'simple', depends_on: [], artifacts },
      {
        id: 'T2',
        title: 'Confirm the whole test suite passes with the fix',
        description: 'Nothing more to change: check the fix and keep it.',
        acceptance,
        complexity: 'simple',
        depends_on: ['T1'],
        artifacts,
      },
    ],
  });
}

/** The step a writer's request is for (its task id), and the gold files of that task: all of them for a task without artifacts. */
export function writerTask(
  input: Record<string, unknown>,
  gold: GoldPatch,
): { step: string; artifacts: string[]; files: GoldFile[] } {
  const task = record(input.task);
  const artifacts = strings(task.artifacts);
  return {
    step: text(task.id) || 'T1',
    artifacts,
    files: artifacts.length === 0 ? gold.files : gold.files.filter((file) => artifacts.includes(file.path)),
  };
}

/** The writer: the gold patch restricted to the task's artifacts (all of it for a task without any). */
function code(call: OracleCall): OracleAnswer {
  const format = editFormatOf(call.schema);
  if (!format) return decline('the writer schema is none of the known edit formats');
  const task = record(call.input.task);
  const { artifacts, files } = writerTask(call.input, call.gold);
  if (files.length === 0)
    return decline(
      `task ${text(task.id) || '?'} lists ${listed(artifacts)}, none of the files the gold patch changes (${listed(goldPaths(call.gold))})`,
    );
  const answer = editAnswer(format, files, call.files);
  return answer.ok ? value(answer.proposal) : decline(answer.reason);
}

function testReport(call: OracleCall): OracleAnswer {
  const exitCode = call.input.exit_code;
  const passed = exitCode === 0;
  const output = text(call.input.output);
  const report = passed
    ? 'All tests passed (exit code 0).'
    : `The tests failed (exit code ${String(exitCode)}). Output ends:\n${output.slice(-1500)}`;
  return value({
    task_id: clip(text(call.input.task_id) || 'T1', LIMITS.id),
    passed,
    report: clip(report, LIMITS.text),
  });
}

function fixPlan(call: OracleCall): OracleAnswer {
  const taskId = clip(text(record(call.input.task).id) || 'T1', LIMITS.id);
  const test = record(call.input.test);
  if (test.status === 'PASS')
    return value({
      task_id: taskId,
      summary: 'All tests pass; the change is the intended fix.',
      findings: [],
      fix_plan: [],
    });
  const failure = record(test.first_failure);
  const paths = goldPaths(call.gold);
  const description = clip(text(failure.message) || `the tests end ${text(test.status) || 'red'}`, LIMITS.shortText);
  return value({
    task_id: taskId,
    summary: clip(`The tests do not pass (${text(test.status) || 'no result'}).`, 1000),
    findings: [{ severity: 'high', kind: 'failure', description, location: clip(paths[0] ?? '', LIMITS.path) }],
    fix_plan: [clip(`Make the change the goal asks for in ${listed(paths)}.`, LIMITS.shortText)],
  });
}

/** Gold files the context shows whole that do not carry the fix: what a reviewer who knows the answer objects to. */
function unfixedFiles(call: OracleCall): string[] {
  return call.gold.files
    .filter((file) => {
      const shown = wholeText(call.files.get(file.path));
      return shown !== null && goldFileState(file, shown).kind !== 'applied';
    })
    .map((file) => file.path);
}

function review(call: OracleCall): OracleAnswer {
  const threshold = typeof call.input.threshold === 'number' ? call.input.threshold : 0;
  const approve = (feedback: string) =>
    value({ approved: true, score: Math.min(100, Math.max(95, threshold)), issues: [], feedback });
  const reject = (issues: string[], unrelated: string[] = []) =>
    value({
      approved: false,
      score: 20,
      issues: issues.map((issue) => clip(issue, LIMITS.shortText)),
      feedback: clip(issues.join(' '), 1000),
      unrelated: unrelated.slice(0, LIMITS.issues).map((hunk) => clip(hunk, LIMITS.shortText)),
    });
  // The goal gate reviews the final full test run made for it.
  const test = record(call.input.final_test ?? call.input.test);
  switch (call.purpose) {
    case 'review_plan': {
      const steps = Array.isArray(record(call.input.plan).steps) ? (record(call.input.plan).steps as unknown[]) : [];
      const named = new Set(steps.flatMap((step) => strings(record(step).artifacts)));
      const missing = goldPaths(call.gold).filter((path) => !named.has(path));
      if (missing.length > 0) return reject([`No step may change ${listed(missing)}, where the fix belongs.`]);
      return approve('Every step is actionable and the plan changes the files the fix needs.');
    }
    case 'review_code':
    case 'review_step': {
      if (test.status !== 'PASS') return reject([`The tests do not pass (${text(test.status) || 'no result'}).`]);
      const unfixed = unfixedFiles(call);
      if (unfixed.length > 0) return reject([`${listed(unfixed)} does not carry the fix.`]);
      // A perfect reviewer lets nothing but the fix through: no changed tests, no other hunks.
      const tests = strings(call.input.existing_tests_changed);
      if (tests.length > 0)
        return reject([
          `The change edits existing tests (${listed(tests)}): leave every test as it is and fix the code under test instead.`,
        ]);
      const foreign = [...strings(call.input.unrelated_changes), ...foreignHunks(text(call.input.diff), call.gold)];
      if (foreign.length > 0) {
        const hunks = [...new Set(foreign)];
        return reject(
          hunks.map((hunk) => `Unrelated to the task, put it back as it was: ${hunk}`),
          hunks,
        );
      }
      return approve('The change is the fix the goal asks for and the tests pass.');
    }
    case 'review_fix_plan':
      return approve('The fix plan addresses the failures.');
    default:
      if (test.status !== 'PASS') return reject([`The tests do not pass (${text(test.status) || 'no result'}).`]);
      return approve('The goal is met: the fix is in and the tests pass.');
  }
}

function brief(call: OracleCall): OracleAnswer {
  const paths = listed(goldPaths(call.gold));
  const testCommand = text(call.input.test_command);
  return value({
    behavior_change: clip(text(call.input.goal) || 'Make the fix the goal describes.', 1000),
    success_criteria: [
      clip(testCommand ? `\`${testCommand}\` exits 0` : 'The test suite passes', LIMITS.shortText),
      clip(`The change is confined to ${paths}`, LIMITS.shortText),
    ],
    non_goals: ['Changing the tests', clip(`Changing any file but ${paths}`, LIMITS.shortText)],
    questions: [
      {
        scout: 'A',
        question: clip(
          `Where in ${paths} does the behaviour the goal describes live, and what calls it?`,
          LIMITS.shortText,
        ),
      },
      { scout: 'B', question: 'Which tests fail now, and how are they run?' },
    ],
  });
}

/** A Scout answers at once: the report names the files the fix changes. */
function scout(call: OracleCall): OracleAnswer {
  const paths = goldPaths(call.gold).slice(0, 12);
  const testCommand = text(call.input.test_command);
  return value({
    action: 'answer',
    report: {
      summary: clip(`The change belongs in ${listed(paths)}.`, 1000),
      repo_map: paths.map((path) => clip(`${path}: where the fix goes`, LIMITS.shortText)),
      target_files: paths,
      apis: [],
      constraints: ['Keep the existing tests as they are'],
      prior_art: [],
      verification_tips: testCommand ? [clip(`Run \`${testCommand}\``, LIMITS.shortText)] : [],
      hypotheses: [],
    },
  });
}

/** A perfect model's answer to one agent call, from the request and the gold patch alone. */
export function oracleAnswer(call: OracleCall): OracleAnswer {
  switch (call.purpose) {
    case 'plan':
    case 'subplan':
      return plan(call);
    case 'code':
      return code(call);
    case 'test_report':
      return testReport(call);
    case 'fix_plan':
      return fixPlan(call);
    case 'review_plan':
    case 'review_code':
    case 'review_step':
    case 'review_goal':
    case 'review_fix_plan':
      return review(call);
    case 'scout_brief':
      return brief(call);
    case 'scout':
      return scout(call);
    default:
      return call.purpose satisfies never;
  }
}
