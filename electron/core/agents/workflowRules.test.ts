import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PromptLibrary } from './promptLibrary';
import { gateCriteria, testChangeNote } from './reviewInput';
import { workflowRulePrompts } from './workflowRules';

const prompts = new PromptLibrary(path.resolve(__dirname, '../../../prompts'));

describe('one rule for tests and files per run', () => {
  it('picks the rule texts from the run configuration', () => {
    expect(workflowRulePrompts({ tests_read_only: true, artifacts_only: true, tests_policy: 'protect' })).toEqual([
      'rules/tests-read-only',
      'rules/artifacts-only',
    ]);
    expect(workflowRulePrompts({ tests_read_only: false, artifacts_only: false, tests_policy: 'protect' })).toEqual([
      'rules/tests-protected',
      'rules/artifacts-guide',
    ]);
    expect(workflowRulePrompts({ tests_read_only: false, artifacts_only: false, tests_policy: 'allow' })).toEqual([
      'rules/tests-with-change',
      'rules/artifacts-guide',
    ]);
  });

  it('the code gate asks for tests where the writer writes them, and for untouched tests where they are read-only', () => {
    expect(gateCriteria('code', { tests_read_only: false }, prompts)).toContain(
      'Tests for the changed behaviour must be included in the change',
    );
    expect(gateCriteria('code', { tests_read_only: true }, prompts)).toContain(
      'Tests are read-only: the change must leave every test file as it is',
    );
    expect(gateCriteria('code', { tests_read_only: true }, prompts).join(' ')).not.toMatch(/must be included/);
  });

  it('tells the code gate plainly when a change has no test change', () => {
    expect(testChangeNote(['src/stats.js'], { tests_read_only: false })).toEqual({
      test_files_changed: [],
      test_change_note: 'This change modifies no test file.',
    });
    expect(testChangeNote(['src/stats.js', 'test/stats.test.js'], { tests_read_only: false })).toEqual({
      test_files_changed: ['test/stats.test.js'],
      test_change_note: null,
    });
    expect(
      testChangeNote(['lib/a.py', 'tests/test_a.py', 'conftest.py'], { tests_read_only: false }).test_files_changed,
    ).toEqual(['tests/test_a.py', 'conftest.py']);
    expect(testChangeNote(['src/stats.js'], { tests_read_only: true }).test_change_note).toBeNull();
  });
});

describe("the Supervisor's criteria are prompt files", () => {
  it("reads every gate's list from prompts/criteria, three items each", () => {
    for (const kind of ['plan', 'code', 'step', 'goal'] as const)
      expect(gateCriteria(kind, { tests_read_only: false }, prompts)).toHaveLength(3);
    expect(prompts.list('criteria/fix-plan')).toHaveLength(3);
  });

  it('refuses a criteria file with no list in it, rather than sending the Supervisor nothing to check', () => {
    const empty = new PromptLibrary(path.resolve(__dirname, '../../../prompts'));
    expect(() => empty.list('answer-schema')).toThrow(/lists nothing/);
  });
});
