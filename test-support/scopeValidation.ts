import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lineDiff } from '../shared/diff/lineDiff';
import type { HunkScope, ProposedFileChange, ScopeEvidence } from '../shared/schemas/scope';
import { classifyHunks } from '../electron/core/context/hunkScope';
import { isTestPath } from '../electron/core/context/rank';
import { loadCorpus, type CorpusTask } from '../electron/core/eval/corpus/corpusTasks';
import { loadEvalSuite } from '../electron/core/eval/taskSuite';
import {
  changeLines,
  deleteDocstrings,
  deleteHelpers,
  renameLocals,
  spread,
  type Busy,
  type Injection,
  type InjectionKind,
} from './scopeInjections';

/**
 * The evidence a classification gets: the gold files listed (the writer's context shows them), no file
 * list at all, or a list that misses the gold files (what the raw "unnamed file" rule would do).
 */
export const EVIDENCE_MODES = ['files', 'no-files', 'other-files'] as const;
export type EvidenceMode = (typeof EVIDENCE_MODES)[number];

export interface ScopeCase {
  source: 'corpus' | 'eval';
  task: string;
  mode: EvidenceMode;
  injection: Injection | null;
  /** Gold hunks classed unrelated: must stay empty. */
  falseUnrelated: HunkScope[];
  goldHunks: number;
  /** The injected change's hunks, and whether every one was classed unrelated. */
  injected: HunkScope[];
  caught: boolean;
}

function evidenceFor(texts: string[], goldFiles: string[], mode: EvidenceMode, otherFile: string): ScopeEvidence {
  return { texts, files: mode === 'files' ? goldFiles : mode === 'no-files' ? [] : [otherFile] };
}

/** New-side line ranges a diff touches (an empty side as the point it sits at). */
function newSideRanges(before: string | null, after: string | null): Busy {
  return lineDiff(before, after).changes.map((block) => ({
    first: block.afterStart,
    last: block.afterStart + Math.max(block.afterLines, 1) - 1,
  }));
}

const touches = (hunk: HunkScope, ranges: Busy) => {
  const first = hunk.newLines === 0 ? hunk.newStart + 1 : hunk.newStart;
  const last = hunk.newLines === 0 ? first : hunk.newStart + hunk.newLines - 1;
  return ranges.some((range) => first <= range.last && last >= range.first);
};

async function judge(
  base: Omit<ScopeCase, 'falseUnrelated' | 'goldHunks' | 'injected' | 'caught'>,
  changes: ProposedFileChange[],
  evidence: ScopeEvidence,
  isInjected: (hunk: HunkScope) => boolean,
): Promise<ScopeCase> {
  const hunks = await classifyHunks(changes, evidence);
  const injected = hunks.filter(isInjected);
  const gold = hunks.filter((hunk) => !isInjected(hunk));
  return {
    ...base,
    falseUnrelated: gold.filter((hunk) => !hunk.onTarget),
    goldHunks: gold.length,
    injected,
    caught: injected.length > 0 && injected.every((hunk) => !hunk.onTarget),
  };
}

/** A bundle's git directory, cloned once per repository into a scratch folder. */
export class BundleReader {
  private readonly dirs = new Map<string, string>();
  constructor(
    private readonly corpusDir: string,
    private readonly scratch: string,
  ) {}
  /** The git directory of a bundle's clone, for callers that need more than a file or a listing. */
  gitDir(bundle: string): string {
    let dir = this.dirs.get(bundle);
    if (!dir) {
      dir = path.join(this.scratch, `${bundle}.git`);
      execFileSync('git', ['clone', '-q', '--bare', path.join(this.corpusDir, bundle), dir]);
      this.dirs.set(bundle, dir);
    }
    return dir;
  }
  private readonly listings = new Map<string, string[]>();
  show(bundle: string, commit: string, file: string): string | null {
    if (!this.list(bundle, commit).includes(file)) return null;
    return execFileSync('git', ['--git-dir', this.gitDir(bundle), 'show', `${commit}:${file}`], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  }
  list(bundle: string, commit: string): string[] {
    const key = `${bundle}@${commit}`;
    let files = this.listings.get(key);
    if (!files) {
      files = execFileSync('git', ['--git-dir', this.gitDir(bundle), 'ls-tree', '-r', '--name-only', commit], {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      })
        .split('\n')
        .filter(Boolean);
      this.listings.set(key, files);
    }
    return files;
  }
}

const extension = (file: string) => path.extname(file);

/** The lines a fix removes and adds, as one text. */
function diffText(before: string, after: string): string {
  const oldRows = before.split('\n');
  const newRows = after.split('\n');
  return lineDiff(before, after)
    .changes.flatMap((block) => [
      ...oldRows.slice(block.beforeStart - 1, block.beforeStart - 1 + block.beforeLines),
      ...newRows.slice(block.afterStart - 1, block.afterStart - 1 + block.afterLines),
    ])
    .join('\n');
}

async function injectionsFor(
  reader: BundleReader,
  task: CorpusTask,
  changes: ProposedFileChange[],
  perKind: number,
): Promise<{ injection: Injection; file: string; before: string | null; isNew: boolean }[]> {
  const out: { injection: Injection; file: string; before: string | null; isNew: boolean }[] = [];
  for (const change of changes) {
    if (change.before === null || change.after === null) continue;
    const busy = newSideRanges(change.before, change.after);
    const fixText = diffText(change.before, change.after);
    const made = [
      ...(await renameLocals(change.path, change.after, busy, perKind)),
      ...(await deleteDocstrings(change.path, change.after, busy, perKind)),
      ...(await deleteHelpers(change.path, change.after, busy, perKind, fixText)),
    ];
    for (const injection of made) out.push({ injection, file: change.path, before: change.before, isNew: false });
  }
  const gold = new Set(task.gold_files);
  const extensions = new Set(task.gold_files.map(extension));
  const others = reader
    .list(task.bundle, task.fix_commit)
    .filter(
      (file) =>
        extensions.has(extension(file)) && !gold.has(file) && !isTestPath(file) && !file.includes('node_modules/'),
    );
  let found = 0;
  for (const file of spread(others, perKind * 3)) {
    const source = reader.show(task.bundle, task.fix_commit, file);
    const [injection] = source === null ? [] : await changeLines(file, source, 1);
    if (!injection || source === null) continue;
    out.push({ injection, file, before: source, isNew: true });
    if (++found === perKind) break;
  }
  return out;
}

/**
 * Every corpus task's gold patch classified under each evidence mode, then (with the gold files listed)
 * with each generated unrelated change added to it, one at a time.
 */
export async function corpusScopeCases(
  corpusDir: string,
  options: { perKind?: number; modes?: readonly EvidenceMode[]; tasks?: (task: CorpusTask) => boolean } = {},
): Promise<ScopeCase[]> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-scope-'));
  const reader = new BundleReader(corpusDir, scratch);
  const cases: ScopeCase[] = [];
  try {
    for (const task of loadCorpus(corpusDir).tasks.filter(options.tasks ?? (() => true))) {
      const changes = task.gold_files.map((file) => ({
        path: file,
        before: reader.show(task.bundle, task.parent_commit, file),
        after: reader.show(task.bundle, task.fix_commit, file),
      }));
      const texts = [task.goal, ...task.fail_to_pass];
      const otherFile =
        reader.list(task.bundle, task.fix_commit).find((file) => !task.gold_files.includes(file)) ?? 'README.md';
      for (const mode of options.modes ?? EVIDENCE_MODES) {
        cases.push(
          await judge(
            { source: 'corpus', task: task.id, mode, injection: null },
            changes,
            evidenceFor(texts, task.gold_files, mode, otherFile),
            () => false,
          ),
        );
      }
      for (const { injection, file, before, isNew } of await injectionsFor(
        reader,
        task,
        changes,
        options.perKind ?? 3,
      )) {
        const goldAfter = changes.find((change) => change.path === file)?.after ?? null;
        const injected = isNew
          ? [...changes, { path: file, before, after: injection.after }]
          : changes.map((change) => (change.path === file ? { ...change, after: injection.after } : change));
        const ranges = newSideRanges(isNew ? before : goldAfter, injection.after);
        const isInjected = (hunk: HunkScope) => hunk.path === file && (isNew || touches(hunk, ranges));
        cases.push(
          await judge(
            { source: 'corpus', task: task.id, mode: 'files', injection },
            injected,
            evidenceFor(texts, task.gold_files, 'files', otherFile),
            isInjected,
          ),
        );
      }
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return cases;
}

function readTree(dir: string, relative = ''): string[] {
  return fs
    .readdirSync(path.join(dir, relative), { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? readTree(dir, path.join(relative, entry.name)) : [path.join(relative, entry.name)],
    );
}

/** The bundled eval suite's reference solutions (`solution/` over `repo/`), with the title and goal as texts and the hinted files. */
export async function evalSuiteScopeCases(
  suiteDir: string,
  modes: readonly EvidenceMode[] = EVIDENCE_MODES,
): Promise<ScopeCase[]> {
  const cases: ScopeCase[] = [];
  for (const task of loadEvalSuite(suiteDir)) {
    if (!task.solutionDir) continue;
    const solutionDir = task.solutionDir;
    const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null);
    const changes = readTree(solutionDir)
      .map((file) => ({
        path: file,
        before: read(path.join(task.repoDir, file)),
        after: read(path.join(solutionDir, file)),
      }))
      .filter((change) => change.before !== change.after);
    const files = task.hints.files ?? changes.map((change) => change.path);
    for (const mode of modes) {
      cases.push(
        await judge(
          { source: 'eval', task: task.id, mode, injection: null },
          changes,
          evidenceFor([task.title, task.goal], files, mode, 'README.md'),
          () => false,
        ),
      );
    }
  }
  return cases;
}

/** `{gold hunks, false unrelated}` per source and mode, and `caught/total` per injection kind. */
export function scopeFigures(cases: ScopeCase[]): {
  gold: Record<string, { hunks: number; falseUnrelated: number }>;
  injected: Partial<Record<InjectionKind, { caught: number; total: number }>>;
} {
  const gold: Record<string, { hunks: number; falseUnrelated: number }> = {};
  const injected: Partial<Record<InjectionKind, { caught: number; total: number }>> = {};
  for (const item of cases) {
    if (item.injection) {
      const cell = (injected[item.injection.kind] ??= { caught: 0, total: 0 });
      cell.total++;
      if (item.caught) cell.caught++;
      continue;
    }
    const cell = (gold[`${item.source} ${item.mode}`] ??= { hunks: 0, falseUnrelated: 0 });
    cell.hunks += item.goldHunks;
    cell.falseUnrelated += item.falseUnrelated.length;
  }
  return { gold, injected };
}
