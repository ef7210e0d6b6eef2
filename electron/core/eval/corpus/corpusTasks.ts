import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { LatheError } from '../../../../shared/errors';
import { taskIdMatcher } from '../taskSuite';

const sha = z.string().regex(/^[0-9a-f]{40}$/, 'a full 40-hex commit id');
const repoPath = z
  .string()
  .min(1)
  .max(300)
  .refine((value) => !value.startsWith('/') && !value.split('/').includes('..'), 'a path inside the repository');

/**
 * One task of a real bug-fix corpus (`tasks.json`, see ../shared/corpus/README.md). Fields Lathe does
 * not use are kept as they are, so a corpus with more metadata still loads.
 */
export const CorpusTaskSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'letters, digits, dots, underscores and hyphens'),
    repo: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/),
    bundle: z
      .string()
      .min(1)
      .max(300)
      .refine((value) => !value.includes('/') && !value.includes('\\'), 'a file name inside the corpus folder'),
    language: z.string().min(1).max(40),
    runner: z.string().min(1).max(40),
    fix_commit: sha,
    parent_commit: sha,
    revert_files: z.array(repoPath).max(200),
    gold_files: z.array(repoPath).min(1).max(200),
    goal: z.string().min(1).max(20_000),
    gold_patch: z.string().min(1),
    fail_to_pass: z.array(z.string()).default([]),
    setup_command: z.string().max(2000).nullable().default(''),
    test_command: z.string().min(1).max(2000),
    runtime_seconds: z.number().nonnegative().optional(),
    notes: z.string().optional(),
  })
  .loose();
export type CorpusTask = z.infer<typeof CorpusTaskSchema>;

export interface Corpus {
  dir: string;
  tasks: CorpusTask[];
}

/** Reads and checks `<dir>/tasks.json`; a bad task is an error naming it, a missing bundle too. */
export function loadCorpus(dir: string): Corpus {
  const root = path.resolve(dir);
  const file = path.join(root, 'tasks.json');
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new LatheError('BAD_CORPUS', `${file}: ${error instanceof Error ? error.message : String(error)}`, { file });
  }
  if (!Array.isArray(raw) || raw.length === 0)
    throw new LatheError('BAD_CORPUS', `${file}: expected a non-empty array of tasks`, { file });
  const seen = new Set<string>();
  const tasks = raw.map((entry, index) => {
    const parsed = CorpusTaskSchema.safeParse(entry);
    const name = typeof (entry as { id?: unknown })?.id === 'string' ? (entry as { id: string }).id : `#${index}`;
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new LatheError(
        'BAD_CORPUS',
        `${file}: task ${name}: ${issue?.path.join('.') || '(task)'}: ${issue?.message ?? 'invalid'}`,
        { file, task: name },
      );
    }
    if (seen.has(parsed.data.id))
      throw new LatheError('BAD_CORPUS', `${file}: task id ${parsed.data.id} appears twice`, { file, task: name });
    seen.add(parsed.data.id);
    if (!fs.existsSync(path.join(root, parsed.data.bundle)))
      throw new LatheError('BAD_CORPUS', `${file}: task ${name}: no bundle ${parsed.data.bundle} in ${root}`, {
        file,
        task: name,
      });
    return parsed.data;
  });
  return { dir: root, tasks };
}

/** Ids or `*`/`?` patterns, comma-separated; an empty selection is an error naming the pattern. */
export function selectCorpusTasks(corpus: Corpus, pattern: string | undefined): CorpusTask[] {
  if (pattern === undefined || pattern.trim() === '') return corpus.tasks;
  const matches = taskIdMatcher(pattern);
  const selected = corpus.tasks.filter((task) => matches(task.id));
  if (selected.length === 0) throw new LatheError('NO_EVAL_TASKS', `no corpus task matches '${pattern}'`, { pattern });
  return selected;
}

/**
 * The developers' corpus: `LATHE_CORPUS`, else `../shared/corpus` beside the checkout. Null when
 * neither exists (a machine without the corpus).
 */
export function findDefaultCorpus(appRoot: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates = [env.LATHE_CORPUS, path.resolve(appRoot, '..', 'shared', 'corpus')].filter((dir): dir is string =>
    Boolean(dir),
  );
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'tasks.json'))) ?? null;
}
