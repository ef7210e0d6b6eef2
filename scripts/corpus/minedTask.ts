/**
 * The full shape of one tasks.json entry as the corpus README lists it. Lathe's loader
 * (CorpusTaskSchema) reads only what it uses and lets the rest through; the miner writes every
 * field, so this schema is strict and checks each written task.
 */
import { z } from 'zod';
import { CorpusTaskSchema } from '../../electron/core/eval/corpus/corpusTasks';

const sha = z.string().regex(/^[0-9a-f]{40}$/);

export const MinedTaskSchema = CorpusTaskSchema.extend({
  upstream: z.string().regex(/^https:\/\/\S+$/),
  license: z.string().min(1).max(40),
  commit_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  fix_commit: sha,
  parent_commit: sha,
  fail_to_pass: z.array(z.string().min(1)).min(1),
  fail_to_pass_count: z.number().int().positive(),
  tests_passing_at_fix: z.number().int().positive(),
  setup_command: z.string().max(2000),
  runtime_seconds: z.number().int().nonnegative(),
  notes: z.string(),
})
  .strict()
  .refine(
    (task) => task.fail_to_pass.length === task.fail_to_pass_count,
    'fail_to_pass_count is the length of fail_to_pass',
  )
  .refine((task) => task.gold_files.every((file) => task.revert_files.includes(file)), 'every gold file is reverted')
  .refine((task) => task.id === `${task.repo}-${task.fix_commit.slice(0, 7)}`, 'id is <repo>-<7-hex fix sha>');
export type MinedTask = z.infer<typeof MinedTaskSchema>;

/** The field order of the shared corpus's tasks.json, so a new corpus reads the same. */
export const TASK_FIELD_ORDER = [
  'id',
  'repo',
  'upstream',
  'license',
  'language',
  'runner',
  'bundle',
  'fix_commit',
  'parent_commit',
  'commit_date',
  'revert_files',
  'gold_files',
  'goal',
  'fail_to_pass',
  'fail_to_pass_count',
  'tests_passing_at_fix',
  'setup_command',
  'test_command',
  'runtime_seconds',
  'notes',
  'gold_patch',
] as const;

export function orderedTask(task: MinedTask): Record<string, unknown> {
  const entries = TASK_FIELD_ORDER.map((key) => [key, task[key]] as const);
  return Object.fromEntries(entries);
}

/**
 * What a reader of the task should know that the fields do not say: when the start does not load at
 * all (the tests call what the fix adds), every test the suite holds is fail-to-pass.
 */
export function derivedNotes(
  task: Pick<MinedTask, 'fail_to_pass_count' | 'tests_passing_at_fix'>,
  notes: string,
): string {
  if (task.fail_to_pass_count * 2 <= task.tests_passing_at_fix) return notes;
  const whole =
    'At the start the tests do not load or compile (they use what the fix adds), so most or all of the suite is fail-to-pass.';
  return notes ? `${notes} ${whole}` : whole;
}
