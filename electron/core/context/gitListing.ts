import fs from 'node:fs';
import path from 'node:path';
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

/**
 * What git knows of the work tree, in one git process when the index has not changed since the last
 * call: the index's blob ids are kept by the index file's stat, and one `ls-files -m -d -o` names what
 * differs from them. Null outside a git work tree.
 */
export async function listWithBlobs(root: string): Promise<GitListing | null> {
  const indexKey = indexKeyOf(root);
  const cached = stagedByRoot.get(root);
  const known = indexKey !== null && cached?.indexKey === indexKey ? cached.staged : null;
  const [stagedRun, changedRun] = await Promise.all([
    known ? null : runNativeGit(root, ['ls-files', '-s', '-z']).catch(() => null),
    runNativeGit(root, ['ls-files', '-m', '-d', '-o', '--exclude-standard', '-z']).catch(() => null),
  ]);
  if ((!known && stagedRun?.code !== 0) || changedRun?.code !== 0) return null;
  const staged = known ?? parseStaged(stagedRun?.stdout ?? '');
  if (!known && indexKey !== null) stagedByRoot.set(root, { indexKey, staged });
  return { staged, changed: [...new Set(changedRun.stdout.split('\0'))].filter(Boolean) };
}

/** Forgets the cached index listings (benchmarks measure a cold start with it). */
export function clearListingMemory(): void {
  stagedByRoot.clear();
}
