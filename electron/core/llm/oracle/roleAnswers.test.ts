import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { AgentPurpose } from '../../../../shared/engine/agentPurpose';
import { AgentErrorSchema } from '../../../../shared/schemas/agents/agentError';
import { PlanSchema } from '../../../../shared/schemas/agents/planner';
import { EditorBriefSchema, ScoutActionSchema } from '../../../../shared/schemas/agents/scout';
import { SteppedPlanSchema } from '../../../../shared/schemas/agents/steppedPlan';
import { SupervisorVerdictSchema } from '../../../../shared/schemas/agents/supervisor';
import { FixPlanSchema, TesterReportSchema } from '../../../../shared/schemas/agents/tester';
import { gitPatch } from '../../../../test-support/gitPatch';
import { editFormats } from '../../edits/formats';
import { wholeView, type VisibleFile } from './visibleFile';
import { parseGoldPatch, type GoldPatch } from './goldPatch';
import { editFormatOf, inferPurpose, oracleAnswer, type OracleAnswer } from './roleAnswers';

const BEFORE = 'def middle(xs):\n    return xs[0]\n';
const AFTER = 'def middle(xs):\n    return sorted(xs)[len(xs) // 2]\n';

function goldOf(): GoldPatch {
  const parsed = parseGoldPatch(gitPatch({ 'pkg/mid.py': BEFORE }, { 'pkg/mid.py': AFTER }));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.patch;
}
const gold = goldOf();
const orError = (schema: z.ZodType) => z.union([schema, AgentErrorSchema]);

function ask(
  purpose: AgentPurpose,
  input: Record<string, unknown>,
  schema: z.ZodType,
  files: Record<string, string> = {},
): OracleAnswer {
  const visible = new Map<string, VisibleFile>(
    Object.entries(files).map(([file, content]) => [file, wholeView(content)]),
  );
  return oracleAnswer({ purpose, input, files: visible, schema, gold });
}

function valueOf(answer: OracleAnswer, schema: z.ZodType): unknown {
  if (answer.kind !== 'value') throw new Error(answer.reason);
  return schema.parse(answer.value);
}

describe('oracle role answers', () => {
  it('plans one task naming the gold files, or two steps where the schema wants steps (2 at least)', () => {
    const tasks = valueOf(
      ask('plan', { goal: 'middle() returns the first item\n\nmore text', plan_id: 'plan_0003' }, orError(PlanSchema)),
      PlanSchema,
    );
    expect(tasks).toMatchObject({
      plan_id: 'plan_0003',
      tasks: [{ id: 'T1', title: 'middle() returns the first item', artifacts: ['pkg/mid.py'] }],
    });
    const steps = valueOf(
      ask('subplan', { goal: 'g', plan_id: 'plan_0002' }, orError(SteppedPlanSchema)),
      SteppedPlanSchema,
    );
    expect(steps).toMatchObject({
      steps: [
        { id: 'T1', artifacts: ['pkg/mid.py'] },
        { id: 'T2', depends_on: ['T1'] },
      ],
    });
  });

  it('writes in the format the schema names, only for gold files the task lists, and declines a task without any', () => {
    expect(editFormatOf(orError(editFormats['whole-file'].schema))).toBe('whole-file');
    expect(editFormatOf(orError(editFormats['search-replace'].schema))).toBe('search-replace');
    expect(editFormatOf(orError(editFormats['unified-diff'].schema))).toBe('unified-diff');
    const schema = orError(editFormats['whole-file'].schema);
    const written = valueOf(
      ask('code', { task: { id: 'T1', artifacts: ['pkg/mid.py'] } }, schema, { 'pkg/mid.py': BEFORE }),
      schema,
    );
    expect(written).toEqual({ edits: [{ path: 'pkg/mid.py', content: AFTER }] });
    expect(ask('code', { task: { id: 'T2', artifacts: ['README.md'] } }, schema, { 'pkg/mid.py': BEFORE })).toEqual({
      kind: 'decline',
      reason: expect.stringContaining('none of the files the gold patch changes (pkg/mid.py)'),
    });
  });

  it('reports passed if and only if the exit code is 0, and an empty fix plan only when green', () => {
    expect(
      valueOf(
        ask('test_report', { task_id: 'T1', exit_code: 0, output: 'ok' }, orError(TesterReportSchema)),
        TesterReportSchema,
      ),
    ).toMatchObject({ passed: true });
    expect(
      valueOf(
        ask('test_report', { task_id: 'T1', exit_code: 1, output: 'boom' }, orError(TesterReportSchema)),
        TesterReportSchema,
      ),
    ).toMatchObject({ passed: false, report: expect.stringContaining('boom') });
    expect(
      valueOf(ask('fix_plan', { task: { id: 'T1' }, test: { status: 'PASS' } }, orError(FixPlanSchema)), FixPlanSchema),
    ).toMatchObject({ findings: [], fix_plan: [] });
    const red = valueOf(
      ask(
        'fix_plan',
        { task: { id: 'T1' }, test: { status: 'FAIL', first_failure: { message: 'expected 2' } } },
        orError(FixPlanSchema),
      ),
      FixPlanSchema,
    );
    expect(red).toMatchObject({
      findings: [{ severity: 'high', description: 'expected 2', location: 'pkg/mid.py' }],
      fix_plan: [expect.any(String)],
    });
  });

  it('approves what meets the gate with a score over its threshold, and rejects a plan without the gold files or a red or unfixed step', () => {
    const verdict = (purpose: AgentPurpose, input: Record<string, unknown>, files: Record<string, string> = {}) =>
      SupervisorVerdictSchema.parse(
        valueOf(ask(purpose, input, SupervisorVerdictSchema, files), SupervisorVerdictSchema),
      );
    expect(
      verdict('review_plan', { gate: 'plan', threshold: 97, plan: { steps: [{ artifacts: ['pkg/mid.py'] }] } }),
    ).toMatchObject({ approved: true, score: 97 });
    expect(
      verdict('review_plan', { gate: 'plan', threshold: 70, plan: { steps: [{ artifacts: ['other.py'] }] } }),
    ).toMatchObject({ approved: false, issues: [expect.stringContaining('pkg/mid.py')] });
    expect(
      verdict('review_code', { gate: 'code', threshold: 60, test: { status: 'PASS' } }, { 'pkg/mid.py': AFTER }),
    ).toMatchObject({ approved: true });
    expect(
      verdict('review_step', { gate: 'step', threshold: 60, test: { status: 'PASS' } }, { 'pkg/mid.py': BEFORE }),
    ).toMatchObject({ approved: false, issues: ['pkg/mid.py does not carry the fix.'] });
    expect(verdict('review_goal', { gate: 'goal', threshold: 80, test: { status: 'FAIL' } })).toMatchObject({
      approved: false,
    });
  });

  it('as a perfect reviewer, passes the fix alone: no changed tests, no hunk the fix does not make (issue 26)', () => {
    const verdict = (input: Record<string, unknown>) =>
      SupervisorVerdictSchema.parse(
        valueOf(
          ask(
            'review_step',
            { gate: 'step', threshold: 70, test: { status: 'PASS' }, ...input },
            SupervisorVerdictSchema,
            { 'pkg/mid.py': AFTER },
          ),
          SupervisorVerdictSchema,
        ),
      );
    const goldDiff = gitPatch({ 'pkg/mid.py': BEFORE }, { 'pkg/mid.py': AFTER });
    expect(verdict({ diff: goldDiff })).toMatchObject({ approved: true });
    const extra = gitPatch(
      { 'pkg/mid.py': BEFORE, 'pkg/other.py': 'x = 1\n' },
      { 'pkg/mid.py': AFTER, 'pkg/other.py': 'y = 1\n' },
    );
    expect(verdict({ diff: extra })).toMatchObject({
      approved: false,
      issues: [
        expect.stringMatching(
          /^Unrelated to the task, put it back as it was: pkg\/other\.py line 1 of the file before the change/,
        ),
      ],
    });
    expect(verdict({ diff: goldDiff, existing_tests_changed: ['tests/test_mid.py'] })).toMatchObject({
      approved: false,
      issues: [expect.stringContaining('tests/test_mid.py')],
    });
    expect(
      verdict({ diff: goldDiff, unrelated_changes: ['pkg/mid.py line 9 (original line 9): deletes a comment'] }),
    ).toMatchObject({ approved: false, issues: [expect.stringContaining('pkg/mid.py line 9')] });
  });

  it('briefs the Scouts and answers a Scout at once with the gold files as targets', () => {
    expect(
      valueOf(
        ask('scout_brief', { goal: 'fix middle()', test_command: 'python3 -m pytest' }, orError(EditorBriefSchema)),
        EditorBriefSchema,
      ),
    ).toMatchObject({
      success_criteria: ['`python3 -m pytest` exits 0', expect.any(String)],
      questions: [{ scout: 'A' }, { scout: 'B' }],
    });
    expect(
      valueOf(ask('scout', { goal: 'g', question: 'where?' }, ScoutActionSchema), ScoutActionSchema),
    ).toMatchObject({ action: 'answer', report: { target_files: ['pkg/mid.py'] } });
  });

  it('infers the purpose of a call made without one from its role and input', () => {
    expect(inferPurpose('tester', { test: {} })).toBe('fix_plan');
    expect(inferPurpose('tester', { exit_code: 0 })).toBe('test_report');
    expect(inferPurpose('supervisor', { gate: 'code' })).toBe('review_code');
    expect(inferPurpose('editor', { goal: 'g', test_command: null })).toBe('scout_brief');
    expect(inferPurpose('editor', { task: {} })).toBe('code');
  });
});
