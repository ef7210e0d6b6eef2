import type { RunState } from '../../../shared/engine/runState';
import { LatheError, type ErrorCode } from '../../../shared/errors';
import { isTestFile } from '../edits/policy';
import type { ReadOnlyTools } from '../tools/types';
import type { RunCommitInfo, RunDiffFile } from '../git/types';

/** One line of seed 004's definition of done, checked against the run's facts. */
export interface DoneCheck {
  id: 'verifier_pass' | 'minimal_diff' | 'tests_for_change' | 'summary';
  ok: boolean;
  detail: string;
}

const CODE_FILE = /\.(c|m)?[jt]sx?$|\.(py|go|rs|rb|java|kt|c|h|cc|cpp|hpp|cs|php|swift|scala|sh)$/;

function lines(text: string | null): string[] {
  return text === null ? [] : text.split('\n');
}

/** Lines removed and added in a file (as multisets: a moved line counts as neither). */
function changedLines(file: RunDiffFile): { removed: string[]; added: string[] } {
  const after = new Map<string, number>();
  for (const line of lines(file.after)) after.set(line, (after.get(line) ?? 0) + 1);
  const removed: string[] = [];
  for (const line of lines(file.before)) {
    const left = after.get(line) ?? 0;
    if (left > 0) after.set(line, left - 1);
    else removed.push(line);
  }
  const added = [...after.entries()].flatMap(([line, count]) => Array.from({ length: count }, () => line));
  return { removed, added };
}

const squash = (line: string) => line.replace(/\s+/g, '');

/** Changed lines that differ from a removed line only in whitespace: re-indentation or reformatting churn. */
function whitespaceOnlyLines(file: RunDiffFile): number {
  const { removed, added } = changedLines(file);
  const pool = new Map<string, number>();
  for (const line of removed) if (squash(line) !== '') pool.set(squash(line), (pool.get(squash(line)) ?? 0) + 1);
  let count = 0;
  for (const line of added) {
    const key = squash(line);
    const left = pool.get(key) ?? 0;
    if (key !== '' && left > 0) {
      pool.set(key, left - 1);
      count++;
    }
  }
  return count;
}

/**
 * "Diff is minimal, follows repo conventions": no file changed only in whitespace, no line merely
 * re-indented, no file the run changed and then changed back (churn a reviewer has to read for nothing).
 */
function minimalDiff(diff: RunDiffFile[], commits: RunCommitInfo[]): DoneCheck {
  const netPaths = new Set(diff.map((file) => file.path));
  const total = diff.reduce((sum, file) => sum + file.added + file.removed, 0);
  const reverted = [...new Set(commits.flatMap((commit) => commit.files.map((file) => file.path)))]
    .filter((path) => !netPaths.has(path))
    .sort();
  const churn = diff
    .map((file) => ({ path: file.path, lines: whitespaceOnlyLines(file) }))
    .filter((file) => file.lines > 0);
  const problems = [
    ...churn.map((file) => `${file.path}: ${file.lines} line(s) changed only in whitespace`),
    ...(reverted.length > 0 ? [`changed and then changed back: ${reverted.join(', ')}`] : []),
  ];
  const size = `${diff.length} file(s), ${total} line(s) changed`;
  if (diff.length === 0) return { id: 'minimal_diff', ok: false, detail: 'no change was made' };
  return {
    id: 'minimal_diff',
    ok: problems.length === 0,
    detail:
      problems.length === 0 ? `${size}; no whitespace-only or reverted changes` : `${size}; ${problems.join('; ')}`,
  };
}

/** The changed code files of a net diff (test files aside). */
export function changedCodeFiles(diff: RunDiffFile[]): string[] {
  return diff
    .filter((file) => file.after !== null && !isTestFile(file.path) && CODE_FILE.test(file.path))
    .map((file) => file.path);
}

/**
 * "New/changed behaviour has appropriate tests", from facts, in this order: a test file changed with
 * the code; a test that failed during the run passes at the end; or, with the suite green, every changed
 * code file is imported by a test file of the repository (`testedBy`).
 */
function testsForChange(state: RunState, diff: RunDiffFile[], testedBy: Record<string, string[]>): DoneCheck {
  const code = changedCodeFiles(diff);
  const tests = diff.filter((file) => isTestFile(file.path)).map((file) => file.path);
  const green = state.last_test?.passed === true;
  if (code.length === 0) return { id: 'tests_for_change', ok: true, detail: 'no code changed' };
  if (tests.length > 0)
    return { id: 'tests_for_change', ok: true, detail: `tests changed with the code: ${tests.join(', ')}` };
  const redToGreen = green
    ? [
        ...new Set(
          state.failure_history
            .flatMap((failure) => (failure.first_failure ? [failure.first_failure.split(': ')[0] ?? ''] : []))
            .filter(Boolean),
        ),
      ]
    : [];
  if (redToGreen.length > 0)
    return { id: 'tests_for_change', ok: true, detail: `failing tests now pass: ${redToGreen.join(', ')}` };
  const untested = code.filter((file) => (testedBy[file] ?? []).length === 0);
  if (green && untested.length === 0)
    return {
      id: 'tests_for_change',
      ok: true,
      detail: `existing tests exercise the change: ${code.map((file) => `${file} ← ${(testedBy[file] ?? []).join(', ')}`).join('; ')}`,
    };
  return {
    id: 'tests_for_change',
    ok: false,
    detail: `${(untested.length > 0 ? untested : code).join(', ')} changed, but no test changed with it, imports it, or went from failing to passing`,
  };
}

/** Seed 004's definition of done, each line decided from the run's state, commits and net diff. */
export function definitionOfDone(
  state: RunState,
  commits: RunCommitInfo[],
  diff: RunDiffFile[],
  testedBy: Record<string, string[]> = {},
): DoneCheck[] {
  const test = state.last_test;
  return [
    {
      id: 'verifier_pass',
      ok: test?.status === 'PASS',
      detail: test ? `last: ${test.status}` : 'no test run was recorded',
    },
    minimalDiff(diff, commits),
    testsForChange(state, diff, testedBy),
    { id: 'summary', ok: true, detail: `what changed, why, how verified (run_id ${state.run_id})` },
  ];
}

const IMPORT_LINE = /\b(import|require|from)\b/;
/** The bounds the text search had, so a huge or minified test file is skimmed the same way. */
const SKIPPED_READS = new Set<ErrorCode>(['NOT_FOUND', 'BINARY_FILE', 'INVALID_PATH', 'FILE_UNREADABLE']);
const TEST_SCAN = { maxFiles: 50_000, maxFileBytes: 1024 * 1024, maxLineChars: 2000 } as const;

/** Test files that import each changed code file (by its module name on an import line). */
export async function testsImporting(tools: ReadOnlyTools, files: string[]): Promise<Record<string, string[]>> {
  if (files.length === 0) return {};
  const found: Record<string, Set<string>> = Object.fromEntries(files.map((file) => [file, new Set<string>()]));
  const wanted = files.map((file) => {
    const stem = (file.split('/').at(-1) ?? file).replace(/\.[^.]+$/, '');
    return { file, stem, word: new RegExp(`\\b${stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`) };
  });
  // One pass over the test files only: a search per changed file read the whole repository each time.
  const { files: listed } = await tools.listFiles({ limit: TEST_SCAN.maxFiles });
  for (const testFile of listed.filter(isTestFile)) {
    let content: string;
    try {
      ({ content } = await tools.readFile(testFile, { maxBytes: TEST_SCAN.maxFileBytes }));
    } catch (error) {
      // Binary, unreadable or gone since the listing: it imports nothing a check could use.
      if (error instanceof LatheError && SKIPPED_READS.has(error.code)) continue;
      throw error;
    }
    for (const raw of content.split('\n')) {
      const line = raw.slice(0, TEST_SCAN.maxLineChars);
      if (!IMPORT_LINE.test(line)) continue;
      for (const { file, stem, word } of wanted) if (line.includes(stem) && word.test(line)) found[file]?.add(testFile);
    }
  }
  return Object.fromEntries(Object.entries(found).map(([file, tests]) => [file, [...tests].sort()]));
}
