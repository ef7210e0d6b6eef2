import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sourceAppRoot } from '../electron/core/appRoot';
import { findDefaultCorpus, loadCorpus, type CorpusTask } from '../electron/core/eval/corpus/index';
import { parseGoldPatch, type GoldPatch } from '../electron/core/llm/oracle/goldPatch';

/** A corpus task's gold patch with the files it applies to, read from the task's bundle (no checkout). */
export interface GoldCase {
  task: CorpusTask;
  gold: GoldPatch;
  /** Each gold file before the fix. */
  before: Record<string, string>;
  /** Reads any file of the task's fix commit (its tests are there), null when absent. */
  atFix(file: string): string | null;
  /** Every path of the fix commit's tree. */
  paths: string[];
}

/**
 * The developers' corpus tasks by id, each with its gold files before the fix, for tests of code that
 * works on real gold patches. Null when this machine has no corpus (LATHE_CORPUS, ../shared/corpus).
 */
export function loadGoldCases(ids: readonly string[]): { cases: Map<string, GoldCase>; remove(): void } | null {
  const dir = findDefaultCorpus(sourceAppRoot());
  if (!dir) return null;
  const corpus = loadCorpus(dir);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-gold-cases-'));
  const bares = new Map<string, string>();
  const cases = new Map<string, GoldCase>();
  for (const id of ids) {
    const task = corpus.tasks.find((entry) => entry.id === id);
    if (!task) throw new Error(`no corpus task ${id}`);
    let bare = bares.get(task.bundle);
    if (!bare) {
      bare = path.join(scratch, `${task.repo}.git`);
      execFileSync('git', ['clone', '-q', '--bare', path.join(corpus.dir, task.bundle), bare]);
      bares.set(task.bundle, bare);
    }
    const git = (...args: string[]) =>
      execFileSync('git', ['--git-dir', bare as string, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const parsed = parseGoldPatch(task.gold_patch);
    if (!parsed.ok) throw new Error(parsed.message);
    const before = Object.fromEntries(
      parsed.patch.files.map((file) => [file.path, git('show', `${task.parent_commit}:${file.path}`)]),
    );
    const atFix = (file: string) => {
      try {
        return git('show', `${task.fix_commit}:${file}`);
      } catch {
        return null;
      }
    };
    cases.set(id, {
      task,
      gold: parsed.patch,
      before,
      atFix,
      paths: git('ls-tree', '-r', '--name-only', task.fix_commit).split('\n').filter(Boolean),
    });
  }
  return { cases, remove: () => fs.rmSync(scratch, { recursive: true, force: true }) };
}
