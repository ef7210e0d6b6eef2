import type fs from 'node:fs';
import git, { type TreeEntry } from 'isomorphic-git';
import { isMissing, unreadable } from '../fsErrors';
import { gitError } from './gitErrors';
import { serializeTree, writeLooseObject } from './looseObjects';
import type { RepoContext } from './repoContext';
import { syncFs } from './localFs';
import { decodeName, diskPath } from './pathBytes';
import { quoteGitPath } from '../../../shared/gitPath';

/** A path's new state in a commit: a blob with its mode, or deleted. */
export type PathState = { oid: string; mode: BlobMode } | null;

type BlobMode = '100644' | '100755' | '120000';

/**
 * The mode `git add` gives a file, as git's ce_mode_from_stat does: with core.symlinks=false a regular
 * file keeps a known link's mode; with core.fileMode=false it keeps a known regular file's mode, a new
 * one is 100644. `knownMode` is the path's mode in the parent commit (the run worktree's index).
 */
export interface ModeRules {
  trustsExecutableBit: boolean;
  hasSymlinks: boolean;
  knownMode: string | null;
}
const TRUSTING: ModeRules = { trustsExecutableBit: true, hasSymlinks: true, knownMode: null };

function regularFileMode(stat: fs.Stats, rules: ModeRules): BlobMode {
  if (!rules.hasSymlinks && rules.knownMode === '120000') return '120000';
  if (!rules.trustsExecutableBit) return rules.knownMode === '100755' ? '100755' : '100644';
  return stat.mode & 0o111 ? '100755' : '100644';
}

/** A path's mode in a tree, or null when the tree has no blob there. */
export async function modeInTree(context: RepoContext, tree: string, relative: string): Promise<string | null> {
  let current: string | null = tree;
  const parts = relative.split('/');
  for (const [index, name] of parts.entries()) {
    if (!current) return null;
    const entry: TreeEntry | undefined = (await readTreeEntries(context, current)).find(
      (candidate) => candidate.path === name,
    );
    if (!entry) return null;
    if (index === parts.length - 1) return entry.type === 'blob' ? entry.mode : null;
    current = entry.type === 'tree' ? entry.oid : null;
  }
  return null;
}

/** Hashes the work-tree file at `relative` into the object store; null when it does not exist. */
export async function stageFromDisk(
  context: RepoContext,
  workDir: string,
  relative: string,
  rules: ModeRules = TRUSTING,
): Promise<PathState> {
  const absolute = diskPath(workDir, relative);
  let stat: fs.Stats;
  try {
    stat = await syncFs.lstat(absolute);
  } catch (error) {
    // Only a file that is not there is a deletion: one that is there but unreadable would leave the branch.
    if (isMissing(error)) return null;
    throw unreadable(relative, error);
  }
  if (stat.isSymbolicLink()) {
    // The target's own bytes: a link to a name that is not UTF-8 must point at the same name after the commit.
    const target = await syncFs.readlink(absolute, { encoding: 'buffer' });
    return { oid: await writeLooseObject(context, 'blob', target), mode: '120000' };
  }
  // A folder named as a path would otherwise read as "deleted" and drop the whole subtree.
  if (stat.isDirectory())
    throw gitError('INVALID_PATH', `${relative} is a folder; commit the files in it by name`, { path: relative });
  if (!stat.isFile()) throw gitError('INVALID_PATH', `${relative} is not a regular file`, { path: relative });
  const blob = await syncFs.readFile(absolute);
  return { oid: await writeLooseObject(context, 'blob', blob), mode: regularFileMode(stat, rules) };
}

/**
 * Trees and commits never change under their id, so the ones a run reads or writes again and again
 * (its branch's root and the folders it edits, the parent commit) are kept, per repository.
 */
const TREE_CACHE_LIMIT = 2000;
const treeCache = new Map<string, TreeEntry[]>();
const commitTreeCache = new Map<string, string>();

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= TREE_CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
  return value;
}

/** A tree's entries (cached; callers must not change the array). */
export async function readTreeEntries(context: RepoContext, oid: string): Promise<readonly TreeEntry[]> {
  const key = `${context.dirs.commonDir}\0${oid}`;
  const cached = treeCache.get(key);
  if (cached) return cached;
  const { type, object } = await git.readObject({ ...context.iso, oid, format: 'content' });
  if (type !== 'tree') throw gitError('FAILED', `object ${oid} is a ${type}, not a tree`, { oid });
  return remember(treeCache, key, parseTree(Buffer.from(object as Uint8Array), oid));
}

/**
 * A tree's entries with their names exactly as stored (isomorphic-git's readTree decodes them as
 * UTF-8, so a name that is not became another, and a commit that rewrote its folder renamed the file)
 * and their modes as written, so an untouched entry is written back byte for byte.
 */
export function parseTree(buffer: Buffer, oid: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let cursor = 0;
  while (cursor < buffer.length) {
    const space = buffer.indexOf(0x20, cursor);
    const nul = space < 0 ? -1 : buffer.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > buffer.length)
      throw gitError('FAILED', `tree ${oid} is malformed at byte ${cursor}`, { oid });
    const written = buffer.toString('latin1', cursor, space);
    const mode = written === '40000' ? '040000' : written;
    const type = mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
    const name = decodeName(buffer, space + 1, nul);
    // What git's verify_path refuses to check out: such a name would reach outside the work tree, or into .git.
    if (unsafeEntryName(name))
      throw gitError('FAILED', `tree ${oid} has an entry named ${quoteGitPath(name)}, which git refuses to check out`, {
        oid,
      });
    entries.push({ mode, path: name, oid: buffer.toString('hex', nul + 1, nul + 21), type });
    cursor = nul + 21;
  }
  return entries;
}

async function writeTreeEntries(context: RepoContext, entries: TreeEntry[]): Promise<string> {
  const oid = await writeLooseObject(context, 'tree', serializeTree(entries));
  remember(treeCache, `${context.dirs.commonDir}\0${oid}`, entries);
  return oid;
}

/** Returns the tree of `baseTree` with `changes` applied (recursing only into touched folders); null when empty. */
export async function updateTree(
  context: RepoContext,
  baseTree: string | null,
  changes: Map<string, PathState>,
): Promise<string | null> {
  const entries = new Map<string, TreeEntry>();
  if (baseTree) {
    for (const entry of await readTreeEntries(context, baseTree)) entries.set(entry.path, entry);
  }
  const nested = new Map<string, Map<string, PathState>>();
  for (const [filePath, state] of changes) {
    const slash = filePath.indexOf('/');
    if (slash === -1) {
      if (state === null) entries.delete(filePath);
      else entries.set(filePath, { mode: state.mode, path: filePath, oid: state.oid, type: 'blob' });
      continue;
    }
    const head = filePath.slice(0, slash);
    if (!nested.has(head)) nested.set(head, new Map());
    nested.get(head)?.set(filePath.slice(slash + 1), state);
  }
  for (const [name, childChanges] of nested) {
    const existing = entries.get(name);
    const childTree = await updateTree(context, existing?.type === 'tree' ? existing.oid : null, childChanges);
    if (childTree === null) {
      if (existing?.type === 'tree') entries.delete(name);
    } else {
      entries.set(name, { mode: '040000', path: name, oid: childTree, type: 'tree' });
    }
  }
  if (entries.size === 0) return null;
  return writeTreeEntries(context, [...entries.values()]);
}

export interface TreeChange {
  path: string;
  before: { oid: string; mode: string } | null;
  after: { oid: string; mode: string } | null;
}

/** Files that differ between two trees, skipping identical subtrees by their ids. */
export async function diffTrees(
  context: RepoContext,
  left: string | null,
  right: string | null,
  prefix = '',
): Promise<TreeChange[]> {
  if (left === right) return [];
  const read = async (oid: string | null) =>
    new Map((oid ? await readTreeEntries(context, oid) : []).map((entry) => [entry.path, entry]));
  const [a, b] = await Promise.all([read(left), read(right)]);
  const names = [...new Set([...a.keys(), ...b.keys()])].sort();
  const out: TreeChange[] = [];
  for (const name of names) {
    const x = a.get(name);
    const y = b.get(name);
    const full = prefix + name;
    if (x && y && x.oid === y.oid && x.mode === y.mode) continue;
    const xTree = x?.type === 'tree' ? x.oid : null;
    const yTree = y?.type === 'tree' ? y.oid : null;
    if (xTree || yTree) out.push(...(await diffTrees(context, xTree, yTree, `${full}/`)));
    const xBlob = x && x.type !== 'tree' && x.type !== 'commit' ? { oid: x.oid, mode: x.mode } : null;
    const yBlob = y && y.type !== 'tree' && y.type !== 'commit' ? { oid: y.oid, mode: y.mode } : null;
    if (xBlob || yBlob) out.push({ path: full, before: xBlob, after: yBlob });
  }
  return out.sort((p, q) => (p.path < q.path ? -1 : p.path > q.path ? 1 : 0));
}

/** `/`, `.`, `..`, and `.git` as NTFS and HFS+ also read it (case, trailing dots and spaces, 8.3 names, streams, ignorable characters). */
function unsafeEntryName(name: string): boolean {
  const hfs = name.replace(/[\u200C-\u200F\u202A-\u202E\u206A-\u206F\uFEFF]/g, '');
  const ntfs = (hfs.split(':')[0] ?? '').toLowerCase().replace(/[. ]+$/, '');
  return (
    name === '' || name.includes('/') || hfs === '.' || hfs === '..' || ntfs === '.git' || /^\.?git~[1-9]$/.test(ntfs)
  );
}

export async function treeOf(context: RepoContext, commit: string): Promise<string> {
  const key = `${context.dirs.commonDir}\0${commit}`;
  return (
    commitTreeCache.get(key) ??
    remember(commitTreeCache, key, (await git.readCommit({ ...context.iso, oid: commit })).commit.tree)
  );
}

/** Records a commit this process wrote, so the next step's parent tree is not read back from disk. */
export function rememberCommitTree(context: RepoContext, commit: string, tree: string): void {
  remember(commitTreeCache, `${context.dirs.commonDir}\0${commit}`, tree);
}

export async function readBlobText(
  context: RepoContext,
  oid: string,
): Promise<{ text: string; binary: boolean; bytes: number }> {
  const { blob } = await git.readBlob({ ...context.iso, oid });
  const buffer = Buffer.from(blob);
  const binary = buffer.subarray(0, 8000).includes(0);
  return { text: binary ? '' : buffer.toString('utf8'), binary, bytes: buffer.length };
}

/** The blob at `filePath` in `commit`, or null when the path does not exist there. */
export async function blobAt(
  context: RepoContext,
  commit: string,
  filePath: string,
): Promise<{ oid: string; mode: string } | null> {
  let tree = await treeOf(context, commit);
  const segments = filePath.split('/');
  for (const [index, segment] of segments.entries()) {
    const entry = (await readTreeEntries(context, tree)).find((candidate) => candidate.path === segment);
    if (!entry) return null;
    if (index === segments.length - 1) return entry.type === 'blob' ? { oid: entry.oid, mode: entry.mode } : null;
    if (entry.type !== 'tree') return null;
    tree = entry.oid;
  }
  return null;
}
