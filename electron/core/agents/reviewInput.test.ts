import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WORKFLOWS } from '../../../shared/engine/workflows';
import type { RunState } from '../../../shared/engine/runState';
import { agentOutput, simulate, testResult, verdict, workspace, type Script } from '../../../test-support/engineSim';
import { makeTempDir } from '../../../test-support/tempRepo';
import { APP_ROOT } from '../../../test-support/exampleRepo';
import { getEditFormat } from '../edits/formats';
import { createReadOnlyTools } from '../tools/readOnlyTools';
import { PromptLibrary } from './promptLibrary';
import { agentSpecFor } from './registry';
import { type AgentContext } from './agentContext';
import { NO_CHANGE_NOTE, fittedDiff, fixPlanReviewInput, reviewInput } from './reviewInput';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

const finding = {
  severity: 'medium',
  kind: 'edge_case',
  description: 'median([]) is not tested',
  location: 'src/stats.js median()',
};
const step = (id: string) => ({
  id,
  title: `step ${id}`,
  description: 'd',
  acceptance: 'a',
  complexity: 'simple',
  depends_on: [],
  artifacts: ['src/stats.js'],
});

/** A supervised run: green tests with 62.5% coverage of the changed code, and one Tester finding. */
const drive: Script = (action) => {
  switch (action.kind) {
    case 'prepare':
      return { kind: 'prepared', workspace, head: 'base', test_command: ['node', '--test'] };
    case 'apply':
      return { kind: 'applied', commit: 'c1', head: 'c1', files: ['src/stats.js'] };
    case 'verify':
      return { kind: 'verified', purpose: action.purpose, test: testResult(true, { coverage_percent: 62.5 }) };
    case 'agent':
      if (action.purpose === 'plan')
        return agentOutput(action, { plan_id: 'plan_0001', analysis: 'a', steps: [step('T1'), step('T2')] });
      if (action.purpose === 'code')
        return agentOutput(action, { edits: [{ path: 'src/stats.js', search: '', replace: 'x' }] });
      if (action.purpose === 'fix_plan')
        return agentOutput(action, { task_id: 'T1', summary: 'green; one gap', findings: [finding], fix_plan: [] });
      return agentOutput(action, verdict(true, 90));
    default:
      return { kind: 'fatal', code: 'INTERNAL', message: action.kind };
  }
};

/** The state as the first code gate asks its Supervisor. */
function firstCodeGate(): RunState {
  let found: RunState | null = null;
  simulate(WORKFLOWS.supervised, (action, state) => {
    if (action.kind === 'agent' && action.purpose === 'review_code') found ??= state;
    return drive(action, state);
  });
  if (!found) throw new Error('no code gate was reached');
  return found;
}

function contextFor(state: RunState): AgentContext {
  const dir = makeTempDir('lathe-review-');
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src', 'stats.js'), 'export const median = (values) => values[0];\n');
  return {
    state,
    workflow: WORKFLOWS.supervised,
    tools: createReadOnlyTools(dir),
    prompts: new PromptLibrary(path.join(APP_ROOT, 'prompts')),
    editFormat: getEditFormat('search-replace'),
    knowledge: [],
    scoutReport: null,
  };
}

describe('seed 002 (2.13, 2.14): the code gate weighs the Tester findings and coverage', () => {
  it("gives the Supervisor the Tester's findings and the coverage of the changed code at the code gate, and neither at the step gate", async () => {
    const state = firstCodeGate();
    expect(state.gate?.kind).toBe('code');
    const task = { id: 'T1', title: 'step T1', rationale: '', acceptance: '', artifacts: ['src/stats.js'] };
    const code = await reviewInput('code', contextFor(state), task, null);
    expect(code.input).toMatchObject({
      gate: 'code',
      tester_findings: [finding],
      test: { status: 'PASS', coverage_percent: 62.5 },
      changed_files: ['src/stats.js'],
    });
    expect(code.input.criteria).toContain('Tests for the changed behaviour must be included in the change');
    expect(code.context.map((item) => item.id)).toEqual(['file:src/stats.js']);
    const stepGate = await reviewInput('step', contextFor(state), task, null);
    expect(stepGate.input).not.toHaveProperty('tester_findings');
  });

  it('gives the fix-plan review the plan alone (not its test output twice), its findings and the code gate threshold', async () => {
    const state = {
      ...firstCodeGate(),
      fix_review: {
        text: 'Tester: x\nFix plan:\n1. y\n\nTest output:\nlong output',
        plan: 'Tester: x\nFix plan:\n1. y',
      },
      tester_findings: [finding],
    };
    const review = await fixPlanReviewInput(contextFor(state), {
      id: 'T1',
      title: 'step T1',
      rationale: '',
      acceptance: '',
      artifacts: [],
    });
    expect(review.input).toMatchObject({
      gate: 'fix_plan',
      threshold: 60,
      fix_plan: 'Tester: x\nFix plan:\n1. y',
      tester_findings: [finding],
    });
  });
});

describe('what the code and step gates are shown of a change (issue 26)', () => {
  it("the step's diff, the existing tests it changes and its unrelated hunks, each said plainly", async () => {
    const opened = firstCodeGate();
    const gate = opened.gate
      ? {
          ...opened.gate,
          test_files: ['test/stats.test.js'],
          unrelated: ['src/stats.js line 9 (original line 9): deletes a comment'],
        }
      : null;
    const state = { ...opened, gate };
    const diff = '--- a/src/stats.js\n+++ b/src/stats.js\n@@ -1 +1 @@\n-x\n+y\n';
    const task = { id: 'T1', title: 'step T1', rationale: '', acceptance: '', artifacts: ['src/stats.js'] };
    const review = await reviewInput('step', { ...contextFor(state), changeDiff: async () => diff }, task, null);
    expect(review.input).toMatchObject({
      diff,
      existing_tests_changed: ['test/stats.test.js'],
      unrelated_changes: ['src/stats.js line 9 (original line 9): deletes a comment'],
    });
    expect(String(review.input.existing_tests_note)).toContain('Approving this gate also approves those test changes');
    const plain = await reviewInput('step', contextFor(opened), task, null);
    expect(plain.input).not.toHaveProperty('existing_tests_changed');
    expect(plain.input).not.toHaveProperty('unrelated_changes');
  });
});

describe('a reviewer reads the diff and the test outcome, not the files again (issue 28)', () => {
  const diff = '--- a/src/stats.js\n+++ b/src/stats.js\n@@ -1 +1 @@\n-x\n+y\n';
  const task = { id: 'T1', title: 'step T1', rationale: '', acceptance: '', artifacts: ['src/stats.js'] };

  it('shows the code and step gates and the fix-plan review the diff instead of the changed files whole', async () => {
    const state = { ...firstCodeGate(), fix_review: { text: 'plan', plan: 'plan' } };
    const withDiff = { ...contextFor(state), changeDiff: async () => diff };
    for (const review of [
      await reviewInput('code', withDiff, task, null),
      await reviewInput('step', withDiff, task, null),
      await fixPlanReviewInput(withDiff, task),
    ]) {
      expect(review.input).toMatchObject({ diff });
      expect(review.context).toEqual([]);
    }
    // No commit to diff yet: the changed files stand in.
    const noDiff = await reviewInput('code', { ...contextFor(state), changeDiff: async () => '' }, task, null);
    expect(noDiff.input).not.toHaveProperty('diff');
    expect(noDiff.context.map((item) => item.id)).toEqual(['file:src/stats.js']);
  });

  it('tells the reviewers of a step that made no commit so, instead of sending its files whole again (decision 99)', async () => {
    const gate = { ...firstCodeGate(), fix_review: { text: 'plan', plan: 'plan' } };
    const start = gate.step_base?.commit ?? 'base';
    const unchanged = {
      ...contextFor({ ...gate, head: start, step_base: { commit: start, commit_count: gate.commits.length } }),
      changeDiff: async () => '',
    };
    const tester = agentSpecFor('fix_plan', WORKFLOWS.supervised);
    for (const review of [
      await reviewInput('code', unchanged, task, null),
      await reviewInput('step', unchanged, task, null),
      await fixPlanReviewInput(unchanged, task),
      await tester?.input(unchanged),
    ]) {
      expect(review?.input).toMatchObject({ change_note: NO_CHANGE_NOTE });
      expect(review?.input).not.toHaveProperty('diff');
      expect(review?.context).toEqual([]);
    }
  });

  it('puts what the code and step gates share first, and what each gate asks last, so the second reuses the first', async () => {
    const withDiff = { ...contextFor(firstCodeGate()), changeDiff: async () => diff };
    const code = JSON.stringify((await reviewInput('code', withDiff, task, null)).input, null, 2);
    const step = JSON.stringify((await reviewInput('step', withDiff, task, null)).input, null, 2);
    const shared = code.slice(
      0,
      [...code].findIndex((char, index) => char !== step[index]),
    );
    expect(shared).toContain(diff.replace(/\n/g, '\\n'));
    expect(Object.keys((await reviewInput('code', withDiff, task, null)).input).slice(-3)).toEqual([
      'gate',
      'threshold',
      'criteria',
    ]);
  });
});

describe('a diff too long for the reviewer’s window (issue 28, item 4)', () => {
  const diff = [
    'diff --git a/src/stats.js b/src/stats.js',
    ...Array.from({ length: 400 }, (_, index) => `+  const value${index} = values[${index}] * 2; // a long added line`),
  ].join('\n');
  // One token per 4 characters, in a 4096 window with 1024 for the answer: the diff may take 1228 tokens.
  const counter = {
    exact: true,
    countPrompt: () => 0,
    countText: (text: string) => Math.ceil(text.length / 4),
    contextSize: 4096,
  };

  it('is cut at whole lines to its share of the window, saying how much is shown', () => {
    const state = firstCodeGate();
    const ctx: AgentContext = { ...contextFor(state), promptCounter: counter };
    const fitted = fittedDiff(ctx, 'tester', diff);
    expect(counter.countText(fitted)).toBeLessThanOrEqual(Math.floor((4096 - 1024) * 0.4) + 40);
    expect(fitted.startsWith('diff --git a/src/stats.js b/src/stats.js\n')).toBe(true);
    const shown = Number(/: (\d+) of 401 lines shown\)\n$/.exec(fitted)?.[1]);
    expect(shown).toBeGreaterThan(50);
    expect(shown).toBeLessThan(401);
    expect(fitted).toContain(
      `… (the diff is cut here to fit the tester's 4096-token window: ${shown} of 401 lines shown)`,
    );
    expect(diff.startsWith(fitted.slice(0, fitted.indexOf('\n…')))).toBe(true);
  });

  it('is left whole when it fits', () => {
    const ctx: AgentContext = { ...contextFor(firstCodeGate()), promptCounter: { ...counter, contextSize: 65_536 } };
    expect(fittedDiff(ctx, 'tester', diff)).toBe(diff);
  });
});
