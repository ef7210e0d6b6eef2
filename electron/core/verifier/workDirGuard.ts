import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { WorkDirWrites } from './types';
import { runNativeGit } from '../git/nativeGit';
import { UNSHARED_NODE_ENTRIES } from '../git/dependencyLinks';
import { parseIndexEntries } from '../git/indexEntries';
import { diskPath } from '../git/pathBytes';
import { gitDirsOf, gitRootsFor } from './sandbox';
import { readHeadCommit, readWorkTreeStatus, type WorkTreeStatus } from './workTreeStatus';
import { sameSnapshot, snapshotWorkTree, type WorkTreeSnapshot } from './workTreeSnapshot';
import { whenMissing } from '../fsErrors';

/** More uncommitted entries than this are not bound one by one: the work dir then stays read-only. */
export const MAX_PROTECTED_ENTRIES = 200;

/**
 * The candidate under test as it was before the commands ran, and what keeps it: the work tree's
 * status, the entries that must stay read-only in the sandbox, and the symlinks to put back.
 */
export interface WorkDirGuard {
  workDir: string;
  before: WorkTreeStatus;
  /** Absolute paths inside the work dir the sandbox binds read-only: git data, uncommitted content, dependency folders. */
  protect: string[];
  /** Absolute paths inside a protected folder bound writable again: a dependency folder's own caches. */
  writableInside: string[];
  /** Absolute folders outside the work dir the sandbox shows read-only: git data, link targets. */
  readOnlyRoots: string[];
  /** Untracked or ignored symlinks (linked dependency folders), by path, with what they point to. */
  links: Map<string, string>;
  /** Absolute paths never removed, whatever git says of them (ARTIFACT_DIR may sit inside the work dir). */
  keep: string[];
  /**
   * The work tree's entries before the commands ran, outside what they cannot or may write: equal
   * afterwards, nothing was written and git need not be asked. Null: always ask git.
   */
  snapshot?: WorkTreeSnapshot | null;
}

/**
 * The last full status of each run work tree whose commands' writes were all undone: the tree is as
 * that status says. The engine vouches, per verify, that nothing but its own committed step changed
 * the tree since (`VerifyRequest.workTreeAt`); then this stands for the status before the commands,
 * with the new HEAD, and one git process is saved. Any verify that leaves something behind drops it.
 */
const settledStatus = new Map<string, WorkTreeStatus>();

function settled(workDir: string, vouchedHead: string | undefined): WorkTreeStatus | null {
  const known = vouchedHead ? settledStatus.get(workDir) : undefined;
  // Only a clean tree can be carried over a commit: uncommitted entries would have moved with it.
  if (!known || known.changed.size > 0 || known.untracked.size > 0) return null;
  return { ...known, head: vouchedHead ?? null };
}

function readlinkOrNull(file: string): string | null {
  try {
    return fs.readlinkSync(file);
  } catch {
    // catch-ok: not a link, or gone: nothing to compare
    return null;
  }
}

function realpathOrNull(file: string): string | null {
  try {
    return fs.realpathSync(file);
  } catch {
    // catch-ok: a dangling link has no target to keep read-only; the link itself is put back after the run
    return null;
  }
}

const isInside = (child: string, parent: string) => child === parent || child.startsWith(`${parent}${path.sep}`);
const bare = (entry: string) => (entry.endsWith('/') ? entry.slice(0, -1) : entry);

/**
 * Reads the work tree's state before the commands run. Null when git cannot read it (the caller then
 * keeps the work dir read-only); `{ refused }` when it holds too much uncommitted content to protect.
 */
export async function guardWorkDir(
  workDir: string,
  keep: string[],
  options: { vouchedHead?: string } = {},
): Promise<WorkDirGuard | { refused: string } | null> {
  const before = settled(workDir, options.vouchedHead) ?? (await readWorkTreeStatus(workDir));
  settledStatus.delete(workDir);
  if (!before) return null;
  const uncommitted = [
    ...[...before.changed].filter(([, kind]) => kind === 'changed').map(([file]) => file),
    ...before.untracked,
  ];
  if (uncommitted.length > MAX_PROTECTED_ENTRIES) {
    return {
      refused: `${uncommitted.length} uncommitted entries (more than ${MAX_PROTECTED_ENTRIES}) cannot each be kept read-only`,
    };
  }
  const links = new Map<string, string>();
  const readOnlyRoots: string[] = [];
  for (const entry of new Set([...uncommitted, ...before.ignored])) {
    if (entry.endsWith('/')) continue;
    const absolute = path.join(workDir, entry);
    const link = readlinkOrNull(absolute);
    if (link === null) continue;
    // A bind mount would follow the link: a link is put back after the run instead.
    links.set(entry, link);
    const target = realpathOrNull(absolute);
    if (target && !isInside(target, workDir)) readOnlyRoots.push(target);
  }
  const protect = [path.join(workDir, '.git')];
  for (const root of gitRootsFor(workDir)) (isInside(root, workDir) ? protect : readOnlyRoots).push(root);
  if (fs.existsSync(path.join(workDir, '.lathe'))) protect.push(path.join(workDir, '.lathe'));
  for (const entry of uncommitted) if (!links.has(entry)) protect.push(path.join(workDir, bare(entry)));
  const writableInside = protectDependencyFolders(workDir, before, protect);
  // What the sandbox keeps read-only cannot change, and the caches it lets through may: neither is looked at.
  const snapshot = snapshotWorkTree(workDir, [...protect, ...writableInside, ...keep]);
  return { workDir, before, protect, writableInside, readOnlyRoots, links, keep, snapshot };
}

/**
 * A run's node_modules is a folder of links into the user's packages (git/dependencyLinks.ts): git
 * sees one ignored folder, not the links, so what a suite deletes or adds there could not be undone.
 * It stays read-only in the sandbox, like the packages it links to, except its own caches (vitest and
 * babel write `node_modules/.vite`, `.cache`), which are made here and bound writable again.
 */
function protectDependencyFolders(workDir: string, before: WorkTreeStatus, protect: string[]): string[] {
  const writable: string[] = [];
  for (const entry of before.ignored) {
    if (!entry.endsWith('/') || path.posix.basename(bare(entry)) !== 'node_modules') continue;
    const folder = path.join(workDir, bare(entry));
    if (!fs.lstatSync(folder, { throwIfNoEntry: false })?.isDirectory()) continue;
    // The packages it links to are in the user's checkout, which the sandbox already shows read-only.
    protect.push(folder);
    for (const cache of UNSHARED_NODE_ENTRIES) {
      const dir = path.join(folder, cache);
      fs.mkdirSync(dir, { recursive: true });
      if (fs.lstatSync(dir).isDirectory()) writable.push(dir);
    }
  }
  return writable;
}

/** The guard of a copy just checked out, whose state needs no git status: `commit`, clean, plus `links`. */
export function guardOfFreshCheckout(
  workDir: string,
  commit: string,
  links: Map<string, string>,
  keep: string[],
): WorkDirGuard {
  const before: WorkTreeStatus = {
    head: commit,
    changed: new Map(),
    untracked: new Set(),
    ignored: new Set(links.keys()),
  };
  return {
    workDir,
    before,
    protect: [],
    writableInside: [],
    readOnlyRoots: [],
    links: new Map([...links].map(([name]) => [name, readlinkOrNull(path.join(workDir, name)) ?? ''])),
    keep,
  };
}

/**
 * Puts the work tree back as the guard found it and says what the commands had done: tracked files
 * they changed are restored from the index (which the sandbox kept read-only), entries they created
 * are removed, replaced symlinks are made again. git lists no path through a symlink, and removal
 * checks that no folder on the way is one, so nothing outside the work tree is ever touched.
 */
export async function undoWorkDirWrites(guard: WorkDirGuard): Promise<WorkDirWrites> {
  const writes = await undoWrites(guard);
  // Only a tree put back whole is known to be as its first status says.
  if (writes.failed.length === 0 && guard.snapshot !== undefined) settledStatus.set(guard.workDir, guard.before);
  return writes;
}

async function undoWrites(guard: WorkDirGuard): Promise<WorkDirWrites> {
  const writes: WorkDirWrites = { restored: [], removed: [], relinked: [], failed: [] };
  const now = guard.snapshot
    ? snapshotWorkTree(guard.workDir, [...guard.protect, ...guard.writableInside, ...guard.keep])
    : null;
  // HEAD lives outside the work tree: unsandboxed commands could still have committed.
  if (
    guard.snapshot &&
    now &&
    sameSnapshot(guard.snapshot, now) &&
    !linksChanged(guard) &&
    guard.before.head !== null &&
    readHeadCommit(guard.workDir) === guard.before.head
  )
    return writes;
  const after = await readWorkTreeStatus(guard.workDir);
  if (!after) return { ...writes, failed: ['git status failed after the run: the work folder was not checked'] };
  if (guard.snapshot && now) {
    for (const file of rewrittenBehindGitsBack(guard, guard.snapshot, now, after)) {
      // checkout-index skips a file whose stat matches the index, even with --force: make it not match.
      const moment = new Date();
      fs.lutimesSync(path.join(guard.workDir, file), moment, moment);
      after.changed.set(file, 'changed');
    }
  }
  const pending = differences(guard, after);
  const undone = pending.created.length + pending.tracked.length + pending.recreated.length;
  if (undone === 0 && pending.uncommitted.length === 0 && !linksChanged(guard) && after.head === guard.before.head)
    return writes;
  for (const entry of pending.created) {
    if (await removeInside(guard.workDir, entry)) writes.removed.push(entry);
    else writes.failed.push(`${entry}: could not be removed`);
  }
  for (const file of pending.recreated) {
    if (await removeInside(guard.workDir, file)) writes.restored.push(file);
    else writes.failed.push(`${file}: could not be deleted again`);
  }
  if (pending.tracked.length > 0) {
    // catch-ok: git that cannot start is reported below in writes.failed as 'git did not run'
    const checkout = await runNativeGit(guard.workDir, ['checkout-index', '--force', '--quiet', '-z', '--stdin'], {
      input: `${pending.tracked.join('\0')}\0`,
    }).catch(() => null);
    if (checkout?.code === 0) writes.restored.push(...pending.tracked);
    else
      writes.failed.push(
        ...pending.tracked.map(
          (file) => `${file}: git checkout-index failed: ${checkout?.stderr.trim().slice(0, 200) ?? 'git did not run'}`,
        ),
      );
  }
  writes.failed.push(
    ...pending.uncommitted.map((file) => `${file}: uncommitted content the commands changed cannot be restored`),
  );
  await relink(guard, writes);
  // Only where the commands could reach the git data (the checkout fallback's own copy).
  if (after.head !== guard.before.head)
    writes.failed.push(
      `HEAD moved from ${guard.before.head?.slice(0, 12) ?? 'nothing'} to ${after.head?.slice(0, 12) ?? 'nothing'}: the commands ran git in the work tree`,
    );
  if (undone > 0) {
    // A planted .gitattributes or .gitignore could have hidden a change from the first look: look again.
    const check = await readWorkTreeStatus(guard.workDir);
    const left = check ? differences(guard, check) : null;
    const leftovers = left ? [...left.created, ...left.tracked, ...left.recreated] : ['(git status failed)'];
    writes.failed.push(...leftovers.map((entry) => `${entry}: still differs from the candidate after restoring`));
  }
  for (const list of [writes.restored, writes.removed, writes.relinked]) list.sort();
  writes.failed = [...new Set(writes.failed)];
  return writes;
}

/**
 * Tracked files the snapshot saw written that git still calls unchanged. git trusts a file whose size,
 * mtime and ctime *seconds* match its index entry (Debian's git is built without nanosecond stat
 * checks), so a suite that rewrites a file at the same size and sets its mtime back within the second
 * the index was refreshed goes unseen. Each such file is hashed here against the index's blob id.
 */
function rewrittenBehindGitsBack(
  guard: WorkDirGuard,
  before: WorkTreeSnapshot,
  after: WorkTreeSnapshot,
  status: WorkTreeStatus,
): string[] {
  const suspects = [...after]
    .filter(
      ([file, key]) => key !== 'folder' && before.has(file) && before.get(file) !== key && !status.changed.has(file),
    )
    .map(([file]) => file);
  if (suspects.length === 0) return [];
  const dirs = gitDirsOf(guard.workDir);
  const index = dirs ? parseIndexEntries(fs.readFileSync(path.join(dirs.gitDir, 'index'))) : null;
  // An index this parser does not read: every suspect is restored from it, which is never wrong.
  if (!index) return suspects;
  const blobs = new Map(index.entries.filter((entry) => entry.stage === 0).map((entry) => [entry.path, entry.oid]));
  return suspects.filter((file) => {
    const blob = blobs.get(file);
    if (blob === undefined) return false;
    const absolute = path.join(guard.workDir, file);
    const content = fs.lstatSync(absolute).isSymbolicLink()
      ? Buffer.from(fs.readlinkSync(absolute))
      : fs.readFileSync(absolute);
    return crypto.createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex') !== blob;
  });
}

function differences(
  guard: WorkDirGuard,
  after: WorkTreeStatus,
): { created: string[]; tracked: string[]; recreated: string[]; uncommitted: string[] } {
  const { before } = guard;
  const kept = (entry: string) => {
    const absolute = path.join(guard.workDir, bare(entry));
    return guard.keep.some((keep) => isInside(keep, absolute) || isInside(absolute, keep));
  };
  const created = [...after.untracked, ...after.ignored].filter(
    (entry) =>
      !before.untracked.has(entry) && !before.ignored.has(entry) && !guard.links.has(bare(entry)) && !kept(entry),
  );
  const tracked: string[] = [];
  const uncommitted: string[] = [];
  for (const [file, kind] of after.changed) {
    const was = before.changed.get(file);
    if (was === undefined) tracked.push(file);
    else if (was === 'changed' && kind === 'deleted' && !guard.links.has(file)) uncommitted.push(file);
  }
  const recreated = [...before.changed]
    .filter(([file, kind]) => kind === 'deleted' && after.changed.get(file) !== 'deleted')
    .map(([file]) => file);
  return { created, tracked, recreated, uncommitted };
}

function linksChanged(guard: WorkDirGuard): boolean {
  return [...guard.links].some(([entry, target]) => readlinkOrNull(path.join(guard.workDir, entry)) !== target);
}

async function relink(guard: WorkDirGuard, writes: WorkDirWrites): Promise<void> {
  for (const [entry, target] of guard.links) {
    const absolute = path.join(guard.workDir, entry);
    if (readlinkOrNull(absolute) === target) continue;
    if (!(await removeInside(guard.workDir, entry))) {
      writes.failed.push(`${entry}: could not be linked again`);
      continue;
    }
    await fs.promises.symlink(target, absolute).then(
      () => writes.relinked.push(entry),
      (error: Error) => writes.failed.push(`${entry}: could not be linked again: ${error.message}`),
    );
  }
}

/** Removes one entry of the work tree, refusing a path that leaves it or passes through a symlink. */
async function removeInside(workDir: string, entry: string): Promise<boolean> {
  const relative = bare(entry);
  if (
    !relative ||
    path.isAbsolute(relative) ||
    relative.split('/').some((part) => part === '..' || part === '.' || part === '')
  )
    return false;
  // As bytes (git/pathBytes.ts): an entry whose name is not UTF-8 is removed under its own name, not another.
  const parentRelative = path.posix.dirname(relative);
  const parent = Buffer.from(parentRelative === '.' ? workDir : diskPath(workDir, parentRelative));
  const realParent = await fs.promises.realpath(parent, { encoding: 'buffer' }).catch(whenMissing(null));
  if (realParent === null || !realParent.equals(parent)) return realParent === null;
  const target = diskPath(workDir, relative);
  await fs.promises.rm(target, { recursive: true, force: true, maxRetries: 2 });
  return !(await fs.promises.lstat(target).catch(whenMissing(null)));
}
