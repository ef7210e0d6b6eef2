import path from 'node:path';
import { isLatheError } from '../../../shared/errors';
import { splitLines } from './lineDiff';
import { editDistance, nearestPaths } from './nearestPaths';

/**
 * A new file that is an existing one in the wrong place (`response.js` for `lib/response.js`, a copy
 * named `sqls.py` beside `sql.py`) leaves the real file unfixed and a stray copy behind.
 */
export type Duplicate =
  { kind: 'name'; paths: string[] } | { kind: 'content'; paths: string[]; share: number; nearNames: string[] };

/** Names every package or folder has its own of: a new one beside others is normal. */
const PER_FOLDER_NAME =
  /^(?:__init__\.py|__main__\.py|index\.[cm]?[jt]sx?|mod\.rs|main\.(?:rs|go)|lib\.rs|doc\.go|conftest\.py|package\.json|tsconfig(?:\..+)?\.json|pyproject\.toml|setup\.(?:py|cfg)|cargo\.toml|go\.mod|makefile|dockerfile|cmakelists\.txt|build(?:\.bazel)?|readme(?:\..+)?|license(?:\..+)?|changelog(?:\..+)?|\.gitignore|\.gitkeep|\.keep|\.npmignore|py\.typed|\.eslintrc(?:\..+)?)$/i;

/**
 * How much of the new file must be an existing file's lines to be a copy of it: a copy with a fix
 * keeps nearly all (90%+), a new module shares scattered lines (imports and headers are not counted);
 * a mistyped name of an existing file needs less, as a snippet of it is the same mistake.
 */
const COPY_SHARE = 0.6;
const NEAR_NAME_SHARE = 0.3;
/** Below this many lines that count, a file is too small to call a copy. */
const MIN_LINES = 4;
const NEAR_NAME_MIN_LINES = 3;
/** Bounds on what one check reads: a plan that creates a file reads at most this much of the others. */
const MAX_CANDIDATES = 200;
const MAX_CANDIDATE_BYTES = 4 * 1024 * 1024;

const COMMENT_LINE = /^(?:#|\/\/|\/\*|\*|<!--|--|""")/;
const IMPORT_LINE =
  /^(?:import\b|from\s+\S+\s+import\b|export\s+(?:\*|\{[^}]*\})\s+from\b|(?:const|let|var)\s+[\w{}\s,]+=\s*require\(|require\(|#include\b|using\s|use\s|package\s|['"]use strict['"])/;

/**
 * The lines that make a file this file: not blank, not bare punctuation, not imports, not the comment
 * header (a license every file of a repository repeats).
 */
function telling(content: string): string[] {
  const lines = splitLines(content).map((line) => line.trim());
  let start = 0;
  while (start < lines.length && (lines[start] === '' || COMMENT_LINE.test(lines[start] as string))) start++;
  return lines
    .slice(start)
    .filter((line) => line.length >= 6 && !/^[\s{}()[\];,]*$/.test(line) && !IMPORT_LINE.test(line));
}

/** The share of `lines` found in `other` (each line of `other` used once). */
function sharedShare(lines: readonly string[], other: string): number {
  const counts = new Map<string, number>();
  for (const line of telling(other)) counts.set(line, (counts.get(line) ?? 0) + 1);
  let found = 0;
  for (const line of lines) {
    const left = counts.get(line) ?? 0;
    if (left > 0) {
      found++;
      counts.set(line, left - 1);
    }
  }
  return lines.length === 0 ? 0 : found / lines.length;
}

export interface DuplicateCheck {
  /** The repository's files, minus the ones this edit set deletes. */
  files: readonly string[];
  read(path: string): Promise<string | null>;
  isTest(path: string): boolean;
}

/** Whether the file `created` would make with `content` is an existing file's name or copy; null when it is new. */
export async function findDuplicate(
  created: string,
  content: string,
  check: DuplicateCheck,
): Promise<Duplicate | null> {
  const others = check.files.filter((file) => file !== created);
  const base = path.posix.basename(created).toLowerCase();
  // Test folders often mirror each other (tests/unit/test_x.py, tests/e2e/test_x.py): a test's name alone proves nothing.
  if (!PER_FOLDER_NAME.test(base) && !check.isTest(created)) {
    const sameName = others.filter((file) => path.posix.basename(file).toLowerCase() === base);
    if (sameName.length > 0) return { kind: 'name', paths: nearestPaths(created, sameName) };
  }
  const lines = telling(content);
  if (lines.length < NEAR_NAME_MIN_LINES) return null;
  const near = new Set(nearestPaths(created, others));
  const extension = path.posix.extname(base);
  const folder = path.posix.dirname(created);
  const sameKind = others.filter((file) => !near.has(file) && path.posix.extname(file).toLowerCase() === extension);
  // Nearest folders first: a copy usually lands beside its original or one level off.
  const rank = (file: string) => editDistance(path.posix.dirname(file), folder, 64);
  const candidates = [
    ...near,
    ...sameKind
      .map((file) => ({ file, rank: rank(file) }))
      .sort((a, b) => a.rank - b.rank)
      .map((entry) => entry.file),
  ].slice(0, MAX_CANDIDATES);
  const copies: { file: string; share: number }[] = [];
  let bytes = 0;
  for (const file of candidates) {
    if (bytes > MAX_CANDIDATE_BYTES) break;
    const isNear = near.has(file);
    if (!isNear && lines.length < MIN_LINES) continue;
    const other = await readCandidate(check, file);
    if (other === null) continue;
    bytes += other.length;
    const share = sharedShare(lines, other);
    if (share >= (isNear ? NEAR_NAME_SHARE : COPY_SHARE)) copies.push({ file, share });
  }
  if (copies.length === 0) return null;
  copies.sort((a, b) => b.share - a.share);
  const paths = copies.slice(0, 3).map((copy) => copy.file);
  // A copy under a mistyped name can mean either file: the one it copies, or the one its name misspells.
  return {
    kind: 'content',
    paths,
    share: (copies[0] as { share: number }).share,
    nearNames: [...near].filter((file) => !paths.includes(file)).slice(0, 2),
  };
}

/** A file that cannot be edited (binary, huge, a symlink out of the repo) cannot be what the model copied. */
async function readCandidate(check: DuplicateCheck, file: string): Promise<string | null> {
  try {
    return await check.read(file);
  } catch (error) {
    if (isLatheError(error, 'EDIT_REJECTED')) return null;
    throw error;
  }
}

/** The `duplicate-file` refusal: the existing file(s) the model most likely meant. */
export function duplicateFileMessage(created: string, duplicate: Duplicate): string {
  const meant = duplicate.paths.join(', ');
  if (duplicate.kind === 'name') {
    return `a file named ${path.posix.basename(created)} already exists; did you mean ${meant}? Change the existing file at its own path instead of creating a new one`;
  }
  const byName =
    duplicate.nearNames.length > 0 ? ` (By its name it is closest to ${duplicate.nearNames.join(', ')}.)` : '';
  return `this new file repeats ${Math.round(duplicate.share * 100)}% of the lines of ${duplicate.paths[0] as string}; did you mean ${meant}?${byName} Change the existing file at its own path instead of creating a copy`;
}
