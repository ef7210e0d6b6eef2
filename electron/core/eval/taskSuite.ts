import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { z } from 'zod';
import { LatheError } from '../../../shared/errors';
import { listTree } from './files';
import { isMissing, unreadable } from '../fsErrors';

export const EVAL_LANGUAGES = ['python', 'javascript'] as const;
export const EVAL_KINDS = ['bugfix', 'feature', 'refactor'] as const;

/** `resources/eval/<id>/task.yaml`. */
export const EvalTaskFileSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'lower-case letters, digits and hyphens'),
    language: z.enum(EVAL_LANGUAGES),
    kind: z.enum(EVAL_KINDS),
    title: z.string().min(1).max(200),
    /** What the agents are told: the whole task, nothing about the hidden tests. */
    goal: z.string().min(1).max(4000),
    /** For the harness and the reader of the report; never shown to the agents. */
    hints: z
      .object({
        /** Where the reference change lies. */
        files: z.array(z.string().min(1).max(300)).max(20).optional(),
        /** The visible test command, when detection would not find it. */
        test_command: z.string().min(1).max(500).optional(),
        /** This task's run time limit, over the eval's default (e.g. `10m`). */
        time_limit: z.string().min(1).max(20).optional(),
      })
      .strict()
      .default({}),
  })
  .strict();
export type EvalTaskFile = z.infer<typeof EvalTaskFileSchema>;

export interface EvalTask extends EvalTaskFile {
  /** The task's folder. */
  dir: string;
  /** The starting files the agents work on. */
  repoDir: string;
  /** Acceptance tests, copied in only after the run, into a scratch checkout. */
  hiddenDir: string;
  /** Repo-relative paths of the hidden files, sorted. */
  hiddenFiles: string[];
  /** A reference solution (files laid over `repo/`), when the task has one. */
  solutionDir: string | null;
}

export function defaultSuiteDir(appRoot: string): string {
  return path.join(appRoot, 'resources', 'eval');
}

/** Every task folder of a suite, validated; a malformed task is an error naming its file. */
export function loadEvalSuite(suiteDir: string): EvalTask[] {
  let names: string[];
  try {
    names = fs
      .readdirSync(suiteDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    if (!isMissing(error)) throw unreadable(suiteDir, error);
    throw new LatheError('BAD_EVAL_SUITE', `no eval suite at ${suiteDir}`, { dir: suiteDir });
  }
  const tasks = names.map((name) => loadEvalTask(path.join(suiteDir, name)));
  if (tasks.length === 0)
    throw new LatheError('BAD_EVAL_SUITE', `the eval suite at ${suiteDir} has no tasks`, { dir: suiteDir });
  return tasks;
}

export function loadEvalTask(dir: string): EvalTask {
  const file = path.join(dir, 'task.yaml');
  const bad = (message: string) => new LatheError('BAD_EVAL_TASK', `${file}: ${message}`, { file });
  let raw: unknown;
  try {
    raw = YAML.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw bad(error instanceof Error ? error.message : String(error));
  }
  const parsed = EvalTaskFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw bad(`${issue?.path.join('.') || '(top level)'}: ${issue?.message ?? 'invalid'}`);
  }
  if (parsed.data.id !== path.basename(dir))
    throw bad(`id '${parsed.data.id}' must match the folder name '${path.basename(dir)}'`);
  const repoDir = path.join(dir, 'repo');
  const hiddenDir = path.join(dir, 'hidden');
  const solutionDir = path.join(dir, 'solution');
  if (!isDirectory(repoDir)) throw bad('the task has no repo/ folder');
  const hiddenFiles = isDirectory(hiddenDir) ? listTree(hiddenDir) : [];
  if (hiddenFiles.length === 0) throw bad('the task has no hidden acceptance tests (hidden/)');
  const clash = hiddenFiles.find((relative) => fs.existsSync(path.join(repoDir, relative)));
  if (clash) throw bad(`hidden/${clash} also exists in repo/: the agents would see it`);
  return {
    ...parsed.data,
    dir,
    repoDir,
    hiddenDir,
    hiddenFiles,
    solutionDir: isDirectory(solutionDir) ? solutionDir : null,
  };
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

/** `*` and `?` wildcards over task ids; several patterns separated by commas. */
export function taskIdMatcher(pattern: string): (id: string) => boolean {
  const regexes = pattern
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map(
      (part) =>
        new RegExp(
          `^${part
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replace(/\*/g, '.*')
            .replace(/\?/g, '.')}$`,
        ),
    );
  return (id) => regexes.some((regex) => regex.test(id));
}

export function selectTasks(tasks: readonly EvalTask[], pattern: string | undefined): EvalTask[] {
  if (pattern === undefined || pattern.trim() === '') return [...tasks];
  const matches = taskIdMatcher(pattern);
  const selected = tasks.filter((task) => matches(task.id));
  if (selected.length === 0)
    throw new LatheError('NO_EVAL_TASKS', `no task id matches '${pattern}' (try --list)`, { pattern });
  return selected;
}

/** The command that runs only the hidden tests, from the root of a checkout. */
export function hiddenTestArgv(task: EvalTask, python: string): string[] {
  return task.language === 'python'
    ? [python, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', ...task.hiddenFiles]
    : ['node', '--test', ...task.hiddenFiles];
}
