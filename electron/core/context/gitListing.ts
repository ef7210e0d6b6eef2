import fs from 'node:fs';
import path from 'node:path';
import { parseIndexEntries } from '../git/indexEntries';
import { runNativeGit } from '../git/nativeGit';

/** Tracked files with their index blob ids, and the files to read and hash: changed, deleted or untracked. */
export interface GitListing {
  /** The same object while the index is unchanged. */
  staged: ReadonlyMap<string, string>;
  changed: string[];
}

interface StagedCache {
  indexKey: string;
  staged: Map<string, string>;
}

/** Per work tree: the index's blob ids, as long as the index file is the same one (its stat). */
const stagedByRoot = new Map<string, StagedCache>();

/** The index file of `root` when it is a work tree's top: `.git/index`, or a linked worktree's own. */
function indexPath(root: string): string | null {
  if (process.env.GIT_INDEX_FILE) return null;
  const dotGit = path.join(root, '.git');
  try {
    const stat = fs.statSync(dotGit);
    if (stat.isDirectory()) return path.join(dotGit, 'index');
    const pointer = /^gitdir: (.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'))?.[1]?.trim();
    return pointer ? path.join(path.resolve(root, pointer), 'index') : null;
  } catch {
    // catch-ok: no in-process index: the listing asks git itself (decision 75 keeps this fallback)
    return null;
  }
}

/** Changes whenever git rewrites the index (add, commit, checkout, a refresh). */
function indexKeyOf(root: string): string | null {
  const file = indexPath(root);
  if (!file) return null;
  try {
    const stat = fs.statSync(file, { bigint: true });
    return `${file}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
  } catch {
    // catch-ok: a memo stamp: without one the index is read again
    return null;
  }
}

function parseStaged(stdout: string): Map<string, string> {
  const staged = new Map<string, string>();
  for (const record of stdout.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [mode, blob] = record.slice(0, tab).split(' ');
    if (mode === '160000' || !blob) continue;
    staged.set(record.slice(tab + 1), blob);
  }
  return staged;
}

/** The index's blob ids read in this process (a plain v2/v3 index with nothing unmerged), else null. */
function readStagedInProcess(root: string): Map<string, string> | null {
  const file = indexPath(root);
  if (!file) return null;
  let parsed;
  try {
    parsed = parseIndexEntries(fs.readFileSync(file));
  } catch {
    // catch-ok: no in-process index: the listing asks git itself (decision 75 keeps this fallback)
    return null;
  }
  // Unmerged or sparse (folder) entries: git's own listing knows what to make of them.
  if (!parsed || parsed.entries.some((entry) => entry.stage !== 0 || (entry.mode & 0o170000) === 0o040000)) return null;
  const staged = new Map<string, string>();
  for (const entry of parsed.entries) if ((entry.mode & 0o170000) !== 0o160000) staged.set(entry.path, entry.oid);
  return staged;
}

export interface ListingOptions {
  /**
   * The caller vouches that every file of the work tree equals its index entry and nothing untracked
   * is there: the engine knows it when it has just committed the step and nothing could write since.
   * Then git is not asked what changed.
   */
  workTreeMatchesIndex?: boolean;
}

/**
 * What git knows of the work tree: the index's blob ids (read in this process, kept by the index
 * file's stat) and one `ls-files -m -d -o` naming what differs from them, skipped when the caller
 * vouches for the work tree. Null outside a git work tree.
 */
export async function listWithBlobs(root: string, options: ListingOptions = {}): Promise<GitListing | null> {
  const indexKey = indexKeyOf(root);
  const cached = stagedByRoot.get(root);
  const known =
    indexKey !== null && cached?.indexKey === indexKey
      ? cached.staged
      : indexKey !== null
        ? readStagedInProcess(root)
        : null;
  const vouched = known !== null && options.workTreeMatchesIndex === true;
  const [stagedRun, changedRun] = await Promise.all([
    // catch-ok: git that cannot start means no native listing; null falls back to the isomorphic one
    known ? null : runNativeGit(root, ['ls-files', '-s', '-z']).catch(() => null),
    // catch-ok: git that cannot start means no native listing; null falls back to the isomorphic one
    vouched ? null : runNativeGit(root, ['ls-files', '-m', '-d', '-o', '--exclude-standard', '-z']).catch(() => null),
  ]);
  if ((!known && stagedRun?.code !== 0) || (!vouched && changedRun?.code !== 0)) return null;
  const staged = known ?? parseStaged(stagedRun?.stdout ?? '');
  if (indexKey !== null && cached?.staged !== staged) stagedByRoot.set(root, { indexKey, staged });
  return { staged, changed: changedRun ? [...new Set(changedRun.stdout.split('\0'))].filter(Boolean) : [] };
}

/** Forgets the cached index listings (benchmarks measure a cold start with it). */
export function clearListingMemory(): void {
  stagedByRoot.clear();
}
