import { describe, expect, it } from 'vitest';
import { gitPatch, type TreeFiles } from '../../../../test-support/gitPatch';
import { parseGoldPatch } from '../../llm/oracle/goldPatch';
import { damageOf, fewerTests, isPlaceholderLine, NO_DAMAGE } from './damage';

const lines = (count: number, name: string) =>
  Array.from({ length: count }, (_, index) => `${name}_${index} = ${index}\n`).join('');
const BEFORE = `${lines(30, 'top')}def fix():\n    return 1\n${lines(30, 'bottom')}`;
const FIXED = BEFORE.replace('    return 1\n', '    return 2\n');
const START: TreeFiles = {
  'pkg/mod.py': BEFORE,
  'pkg/other.py': lines(20, 'other'),
  'tests/test_mod.py': 'def test_fix():\n    assert fix() == 2\n',
};
const gold = (() => {
  const parsed = parseGoldPatch(gitPatch({ 'pkg/mod.py': BEFORE }, { 'pkg/mod.py': FIXED }));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.patch;
})();

/** The damage of a branch whose tree is START with `changes` (the way the eval reads it: git diff -U0). */
const damage = (changes: TreeFiles, fewer = false) =>
  damageOf(gitPatch(START, { ...START, ...changes }, { context: 0 }), gold, fewer);

describe('damage on a run branch', () => {
  it('the gold fix alone is no damage', () => {
    expect(damage({ 'pkg/mod.py': FIXED })).toEqual(NO_DAMAGE);
  });

  it('counts hunks outside the gold hunks as git would merge them (3 lines of context each side)', () => {
    expect(damage({ 'pkg/mod.py': FIXED.replace('top_2 = 2', 'top_2 = 20') })).toMatchObject({ unrelated_hunks: 1 });
    expect(
      damage({ 'pkg/mod.py': FIXED.replace('top_2 = 2', 'top_2 = 20').replace('top_8 = 8', 'top_8 = 80') }),
    ).toMatchObject({ unrelated_hunks: 1 });
    expect(
      damage({ 'pkg/mod.py': FIXED.replace('top_2 = 2', 'top_2 = 20').replace('bottom_20 = 20', 'bottom_20 = 0') }),
    ).toMatchObject({ unrelated_hunks: 2 });
    // Next to the fix (inside the gold hunk's context) is the fix's own hunk.
    expect(damage({ 'pkg/mod.py': FIXED.replace('top_29 = 29', 'top_29 = 0') })).toMatchObject({ unrelated_hunks: 0 });
    expect(
      damage({ 'pkg/mod.py': FIXED, 'pkg/other.py': lines(20, 'other').replace('other_3 = 3\n', '') }),
    ).toMatchObject({ unrelated_hunks: 1 });
  });

  it('an insertion the gold patch makes at the end of a file is its own hunk, not an unrelated one', () => {
    const appended = `${BEFORE}def helper():\n    return 3\n`;
    const goldAppend = parseGoldPatch(gitPatch({ 'pkg/mod.py': BEFORE }, { 'pkg/mod.py': appended }));
    if (!goldAppend.ok) throw new Error(goldAppend.message);
    const branch = (tree: string) =>
      damageOf(gitPatch(START, { ...START, 'pkg/mod.py': tree }, { context: 0 }), goldAppend.patch, false);
    expect(branch(appended)).toEqual(NO_DAMAGE);
    expect(branch(appended.replace('top_3 = 3', 'top_3 = 30'))).toMatchObject({ unrelated_hunks: 1 });
    // Blank lines inserted inside the gold hunk (pflag's doc comment) are the gold change too.
    const spaced = BEFORE.replace('top_20 = 20\n', 'top_20 = 20\n\n').replace('top_24 = 24\n', 'top_24 = 24\n\n');
    const goldSpaced = parseGoldPatch(gitPatch({ 'pkg/mod.py': BEFORE }, { 'pkg/mod.py': spaced }));
    if (!goldSpaced.ok) throw new Error(goldSpaced.message);
    expect(
      damageOf(gitPatch(START, { ...START, 'pkg/mod.py': spaced }, { context: 0 }), goldSpaced.patch, false),
    ).toEqual(NO_DAMAGE);
  });

  it('counts placeholder lines, weakened tests, stray files', () => {
    const elided = FIXED.replace(lines(30, 'bottom'), `${lines(10, 'bottom')}# ... existing code ...\n`);
    expect(damage({ 'pkg/mod.py': elided })).toEqual({ ...NO_DAMAGE, placeholder_lines: 1, unrelated_hunks: 1 });
    expect(damage({ 'tests/test_mod.py': 'def test_fix():\n    assert True\n' })).toMatchObject({ tests_weakened: 1 });
    expect(damage({ 'tests/test_mod.py': null }, true)).toMatchObject({ tests_weakened: 2 });
    expect(damage({ 'pkg/mods.py': FIXED })).toMatchObject({ stray_files: 1, unrelated_hunks: 0 });
  });

  it('a file the gold patch creates is no stray', () => {
    const created = parseGoldPatch(gitPatch(START, { ...START, 'pkg/new.py': 'x = 1\n' }));
    if (!created.ok) throw new Error(created.message);
    expect(
      damageOf(gitPatch(START, { ...START, 'pkg/new.py': 'x = 1\n' }, { context: 0 }), created.patch, false),
    ).toEqual(NO_DAMAGE);
  });

  it.each([
    ['// ... existing code ...', true],
    ['    # ... existing code ...', true],
    ['# ... rest of the file unchanged', true],
    ['// ... rest of the code ...', true],
    ['/* ... */', true],
    ['// ...', true],
    ['  # rest of the function unchanged', true],
    ['x = [...args]', false],
    ['console.log("...")', false],
    ['// see the notes ... below', false],
    ['# TODO: handle the rest', false],
  ])('%j is a placeholder: %s', (line, expected) => {
    expect(isPlaceholderLine(line)).toBe(expected);
  });

  it('fewer tests is a smaller total on the branch than on the fixed tree, in a run without failures', () => {
    const counts = (total: number, failed = 0) => ({ passed: total - failed, failed, skipped: 0, total });
    expect(fewerTests(counts(391), counts(491))).toBe(true);
    expect(fewerTests(counts(491), counts(491))).toBe(false);
    expect(fewerTests(null, counts(491))).toBe(false);
    // express's suite bails at its first failure: 19 of 1265 run, none lost.
    expect(fewerTests(counts(19, 1), counts(1265))).toBe(false);
  });
});

describe("the eval's judgement of a branch that lost tests", () => {
  it('is not green, whatever the run ended as: passing by losing the failing tests is no fix', async () => {
    const { judge } = await import('./runCorpusTask');
    const { configFromWorkflow } = await import('../../../../shared/engine/configFromWorkflow');
    const { initialState } = await import('../../../../shared/engine/initialState');
    const { WORKFLOWS } = await import('../../../../shared/engine/workflows');
    const start = initialState({
      runId: 'r',
      goal: 'g',
      goalHash: 'h',
      config: configFromWorkflow(WORKFLOWS['dev-agent']),
      now: 't',
      nowMs: 0,
    });
    const complete = {
      ...start,
      status: 'complete' as const,
      result: { status: 'complete' as const, exit_code: 0, reason: 'done' },
    };
    const run = (total: number) => ({
      commit: 'c',
      exit_code: 0,
      timed_out: false,
      counts: { passed: total, failed: 0, skipped: 0, total },
      duration_ms: 1,
    });
    expect(judge(complete, run(391), run(491))).toMatchObject({
      green: false,
      miss: expect.stringContaining('the run branch runs fewer tests than the fixed tree (391 vs 491, bare)'),
    });
    expect(judge(complete, run(491), run(491)).green).toBe(true);
  });
});
