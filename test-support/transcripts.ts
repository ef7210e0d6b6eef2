import fs from 'node:fs';
import path from 'node:path';
import { APP_ROOT } from './exampleRepo';

/** The js-stats example's stats.js, as given (median wrong), wrongly "fixed", and fixed. */
const original = fs.readFileSync(path.join(APP_ROOT, 'resources', 'examples', 'js-stats', 'src', 'stats.js'), 'utf8');
export const STATS = {
  original,
  wrong: original.replace(
    '  return mean(values);\n}',
    '  const sorted = values.sort((a, b) => a - b);\n  return sorted[Math.floor(sorted.length / 2)];\n}',
  ),
  fixed: original.replace(
    '  return mean(values);\n}',
    '  const s = [...values].sort((a, b) => a - b);\n  const m = Math.floor(s.length / 2);\n  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;\n}',
  ),
};

/**
 * Another wrong "fix" each time, inside median() (a comment added elsewhere would be an unrelated
 * hunk): a model that tries again says something new (the same answer twice is refused).
 */
export const wrongTry = (n: number) =>
  STATS.wrong.replace(
    'return sorted[Math.floor(sorted.length / 2)];',
    `return sorted[Math.floor(sorted.length / 2)] + ${n} * 0;`,
  );

export const entry = {
  planner: (json: unknown) => ({ role: 'planner', json }),
  coder: (content: string, file = 'src/stats.js') => ({ role: 'coder', json: { edits: [{ path: file, content }] } }),
  editor: (content: string, file = 'src/stats.js') => ({ role: 'editor', json: { edits: [{ path: file, content }] } }),
  tester: (taskId: string, summary = 'ok', fixPlan: string[] = []) => ({
    role: 'tester',
    json: { task_id: taskId, summary, findings: [], fix_plan: fixPlan },
  }),
  supervisor: (approved: boolean, score: number, feedback = approved ? 'good' : 'not good enough') => ({
    role: 'supervisor',
    json: { approved, score, issues: approved ? [] : ['an issue'], feedback },
  }),
  error: (role: string, reason = 'connection refused') => ({ role, error: reason }),
};

export function steppedPlan(steps: { id: string; title: string; artifacts: string[]; depends_on?: string[] }[]) {
  return {
    plan_id: 'plan_0001',
    analysis: 'fix the median, then document it',
    steps: steps.map((step) => ({
      id: step.id,
      title: step.title,
      description: step.title,
      acceptance: 'the tests pass',
      complexity: 'simple',
      depends_on: step.depends_on ?? [],
      artifacts: step.artifacts,
    })),
  };
}

export const TWO_STEPS = steppedPlan([
  { id: 'T1', title: 'Fix median()', artifacts: ['src/stats.js'] },
  { id: 'T2', title: 'Document the functions', artifacts: ['README.md'], depends_on: ['T1'] },
]);

export const README =
  '# js-stats\n\n- `mean(values)`: arithmetic mean.\n- `median(values)`: middle value of the sorted list.\n';
