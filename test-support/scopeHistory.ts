import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { classifyHunks } from '../electron/core/context/hunkScope';
import { type HunkScope } from '../shared/schemas/scope';
import { isTestPath } from '../electron/core/context/rank';
import { loadCorpus } from '../electron/core/eval/corpus/corpusTasks';
import { BundleReader } from './scopeValidation';

/** One upstream commit classified with its own message as the evidence, and the hunks it found unrelated. */
export interface HistoryCase {
  repo: string;
  commit: string;
  subject: string;
  hunks: number;
  unrelated: HunkScope[];
}

/** Docs, CI and metadata files a fix commit may touch besides its source and tests. */
const BESIDES = /\.(md|txt|rst|ya?ml|json|cfg|toml|ini)$|(^|\/)\.|HISTORY|History|CHANGELOG|CHANGES|AUTHORS|LICENSE/;

/**
 * A held-out check on fixes the rules were not tuned on: each corpus repository's latest `perRepo`
 * commits whose message says "fix" and that touch 1-3 source files (same folder and extension as the
 * repository's gold files) and otherwise only tests and docs. Evidence: the message; files: the
 * commit's source and test files (what a writer's context would show).
 */
export async function historyScopeCases(corpusDir: string, perRepo: number): Promise<HistoryCase[]> {
  const corpus = loadCorpus(corpusDir);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-scope-history-'));
  const reader = new BundleReader(corpus.dir, scratch);
  const out: HistoryCase[] = [];
  try {
    for (const bundle of [...new Set(corpus.tasks.map((task) => task.bundle))]) {
      const golds = corpus.tasks.filter((task) => task.bundle === bundle).flatMap((task) => task.gold_files);
      const isSource = (file: string) =>
        !isTestPath(file) &&
        golds.some((gold) => gold.split('/')[0] === file.split('/')[0] && path.extname(gold) === path.extname(file));
      const git = (...args: string[]) =>
        execFileSync('git', ['--git-dir', reader.gitDir(bundle), ...args], {
          encoding: 'utf8',
          maxBuffer: 256 * 1024 * 1024,
        });
      // A bundle made from branch refs alone has no HEAD: its history is every ref's.
      const tip =
        git('for-each-ref', '--format=%(refname)', 'refs/heads', 'refs/tags').trim() && !hasHead(git)
          ? '--all'
          : 'HEAD';
      const log = git('log', '--no-merges', '-i', '--grep=fix', '--format=%H%x00%s%x00%b%x01', tip)
        .split('\x01')
        .map((entry) => entry.trim())
        .filter(Boolean);
      let taken = 0;
      for (const entry of log) {
        if (taken === perRepo) break;
        const [commit = '', subject = '', body = ''] = entry.split('\x00');
        const files = git('diff-tree', '--no-commit-id', '--name-only', '-r', `${commit}^`, commit)
          .split('\n')
          .filter(Boolean);
        const sources = files.filter(isSource);
        if (
          sources.length === 0 ||
          sources.length > 3 ||
          files.some((file) => !isSource(file) && !isTestPath(file) && !BESIDES.test(file))
        )
          continue;
        const read = (revision: string, file: string) =>
          git('ls-tree', revision, '--', file).trim() ? git('show', `${revision}:${file}`) : null;
        const changes = sources
          .map((file) => ({ path: file, before: read(`${commit}^`, file), after: read(commit, file) }))
          .filter((change) => change.before !== change.after);
        if (changes.length === 0) continue;
        const hunks = await classifyHunks(changes, {
          texts: [subject, body],
          files: files.filter((file) => isSource(file) || isTestPath(file)),
        });
        out.push({
          repo: bundle.replace(/\.bundle$/, ''),
          commit: commit.slice(0, 8),
          subject,
          hunks: hunks.length,
          unrelated: hunks.filter((hunk) => !hunk.onTarget),
        });
        taken++;
      }
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return out;
}

function hasHead(git: (...args: string[]) => string): boolean {
  try {
    git('rev-parse', '--verify', '--quiet', 'HEAD');
    return true;
  } catch {
    return false;
  }
}
