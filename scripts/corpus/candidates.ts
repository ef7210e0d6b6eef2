/**
 * Which upstream commits can become corpus tasks (the rule in ../shared/corpus/README.md): a
 * non-merge commit whose message suggests a fix, touching 1-3 source files and at least one test
 * file and nothing else but changelog/docs/CI files. Pure: it reads commit records, not git.
 */

export type FileRole = 'test' | 'source' | 'docs' | 'ci' | 'other';

export interface ChangedFile {
  /** git's one-letter status (A, M, D, R...). */
  status: string;
  path: string;
}

export interface CommitRecord {
  sha: string;
  parents: string[];
  /** Author date, YYYY-MM-DD. */
  date: string;
  subject: string;
  body: string;
  files: ChangedFile[];
}

export interface Candidate {
  commit: CommitRecord;
  /** Every non-test file the fix touched: put back to the parent to build the start state. */
  revertFiles: string[];
  /** The source files the fix touched: what the gold patch changes. */
  goldFiles: string[];
  testFiles: string[];
}

export type Selection = { ok: true; candidate: Candidate } | { ok: false; reason: string };

const TEST_DIR = /(^|\/)(tests?|__tests__|specs?|testdata|fixtures)\//;
const TEST_NAME = /(\.(test|spec|test-d)\.[cm]?[jt]sx?$)|(_test\.go$)|((^|\/)test_[^/]*\.py$)|(_test\.py$)/;
const SOURCE_EXT = /\.([cm]?[jt]sx?|py|go|rs)$/;
const DOCS =
  /(\.(md|markdown|rst|txt|adoc)$)|((^|\/)(docs?|examples?)\/)|((^|\/)(CHANGELOG|CHANGES|HISTORY|History|NEWS|AUTHORS|CONTRIBUTORS)[^/]*$)/i;
const CI =
  /(^\.github\/)|(^\.circleci\/)|(^\.travis\.yml$)|(^appveyor\.yml$)|(^\.gitlab-ci\.yml$)|(^azure-pipelines\.yml$)/;
// Words in a commit message that mark a bug fix rather than a feature or a chore.
const FIX_WORDS =
  /\b(fix(es|ed|ing)?|bug(s|fix)?|regression|correct(s|ed|ly)?|incorrect(ly)?|wrong|broken|crash(es|ed)?|resolve[sd]?|repair(s|ed)?)\b/i;
const CHORE = /^(chore|docs?|ci|build|style|refactor|test|tests)(\(.*\))?!?:/i;

export function fileRole(path: string): FileRole {
  if (CI.test(path)) return 'ci';
  if (TEST_DIR.test(path) || TEST_NAME.test(path)) return 'test';
  if (DOCS.test(path)) return 'docs';
  if (SOURCE_EXT.test(path)) return 'source';
  return 'other';
}

export function messageSuggestsFix(subject: string, body: string): boolean {
  if (CHORE.test(subject)) return false;
  return FIX_WORDS.test(subject) || FIX_WORDS.test(body.split(/\n\s*\n/)[0] ?? '');
}

export interface SelectOptions {
  /** Keep only commits whose source files all match (e.g. `^lib/`), when given. */
  sourcePattern?: RegExp;
  maxSourceFiles?: number;
  /** A person read the commit and judged it a bug fix its message does not call one (mine.ts --fix): the message rule is not applied, every other rule is. */
  messageVetted?: boolean;
}

export function selectCandidate(commit: CommitRecord, options: SelectOptions = {}): Selection {
  if (commit.parents.length !== 1) return { ok: false, reason: 'a merge or root commit' };
  if (!options.messageVetted && !messageSuggestsFix(commit.subject, commit.body))
    return { ok: false, reason: 'the message does not suggest a fix' };
  const byRole = new Map<FileRole, string[]>();
  for (const file of commit.files) {
    const role = fileRole(file.path);
    byRole.set(role, [...(byRole.get(role) ?? []), file.path]);
  }
  const source = byRole.get('source') ?? [];
  const tests = byRole.get('test') ?? [];
  const other = byRole.get('other') ?? [];
  if (other.length > 0) return { ok: false, reason: `touches ${other.join(', ')}` };
  if (commit.files.some((file) => file.status.startsWith('R') || file.status.startsWith('C')))
    return { ok: false, reason: 'renames or copies a file' };
  if (tests.length === 0) return { ok: false, reason: 'touches no test file' };
  if (source.length === 0 || source.length > (options.maxSourceFiles ?? 3))
    return { ok: false, reason: `touches ${source.length} source files` };
  if (options.sourcePattern && !source.every((file) => options.sourcePattern?.test(file)))
    return { ok: false, reason: 'a source file outside the source pattern' };
  // materialize.sh removes such a file with `git update-index --force-remove` on a bare clone, which git refuses.
  const added = commit.files.filter(
    (file) => file.status === 'A' && fileRole(file.path) !== 'test' && fileRole(file.path) !== 'ci',
  );
  if (added.length > 0)
    return {
      ok: false,
      reason: `adds ${added.map((file) => file.path).join(', ')}, which materialize.sh cannot remove`,
    };
  const revertFiles = commit.files
    .map((file) => file.path)
    .filter((file) => fileRole(file) !== 'test' && fileRole(file) !== 'ci');
  return { ok: true, candidate: { commit, revertFiles, goldFiles: source, testFiles: tests } };
}

/** The task's goal: the subject, plus the body's first paragraph when it says more than a trailer. */
export function goalOf(commit: CommitRecord): string {
  const first = (commit.body.split(/\n\s*\n/)[0] ?? '').trim();
  const informative =
    first.length >= 20 && !/^(closes?|fixes|fixed|resolves?|refs?|co-authored-by|signed-off-by)\b/i.test(first);
  return informative ? `${commit.subject}\n\n${first}` : commit.subject;
}
