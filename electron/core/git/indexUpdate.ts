import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { PathState } from './treeObjects';
import { syncFs } from './localFs';
import { decodeName, diskPath, encodeName } from './pathBytes';

/**
 * `git update-index --add --remove` for the paths a step committed, done in this process: a git
 * process per step cost more wall time than the rest of the commit (the fork of a large Node process,
 * and git's start-up on a busy machine). Only the plain case is handled: a v2/v3 index whose
 * extensions are all optional (upper-case signatures) and whose entries for these paths are ordinary
 * stage-0 files. Anything else returns false and the caller runs native git as before.
 *
 * The entries get the committed blob ids and the files' current stat, exactly what git writes after
 * hashing them. Unchanged entries are copied byte for byte. Optional extensions are dropped (the
 * cache-tree and untracked cache would name stale trees; git rebuilds them when it needs them).
 * Entries git could see as "racily clean" against the old index's time are smudged (size 0), as git
 * does when it rewrites an index, so a same-tick edit is never hidden by the newer index time.
 */
export async function updateIndexInProcess(
  gitDir: string,
  workDir: string,
  changes: ReadonlyMap<string, PathState>,
  /** Each written path's stat from before it was hashed: a file changed since is left to native git. */
  statsBefore?: ReadonlyMap<string, fs.BigIntStats>,
): Promise<boolean> {
  const indexFile = path.join(gitDir, 'index');
  // catch-ok: false makes the caller stage with git instead
  const buffer = await syncFs.readFile(indexFile).catch(() => null);
  if (!buffer) return false;
  const indexStat = await syncFs.stat(indexFile, { bigint: true });
  const parsed = parseIndex(buffer);
  if (!parsed) return false;
  if (
    await syncFs.readdir(gitDir).then(
      (names) => names.some((name) => name.startsWith('sharedindex.')),
      () => true,
    )
  )
    return false;
  const byPath = new Map(parsed.entries.map((entry) => [entry.path, entry]));
  const touched = new Set(changes.keys());
  for (const entry of parsed.entries) {
    const mine = touched.has(entry.path);
    // Conflicts, skip-worktree/intent-to-add flags, submodules: native git knows what to do with them.
    if (mine && (entry.stage !== 0 || entry.extendedFlags !== 0 || (entry.mode & 0o170000) === 0o160000)) return false;
  }
  const fresh = new Map<string, Buffer>();
  for (const [file, state] of changes) {
    if (!state) continue;
    if (hasFolderConflict(file, byPath, parsed.entries)) return false;
    // catch-ok: false makes the caller stage with git instead
    const stat = await syncFs.lstat(diskPath(workDir, file), { bigint: true }).catch(() => null);
    if (!stat || (statsBefore && !sameFile(statsBefore.get(file), stat))) return false;
    fresh.set(file, encodeEntry(file, state, stat));
  }
  const oldTime = indexStat.mtimeNs;
  const kept: { name: Buffer; bytes: Buffer }[] = [];
  for (const entry of parsed.entries) {
    if (touched.has(entry.path)) continue;
    const bytes = Buffer.from(entry.bytes);
    if (entry.mtimeNs >= oldTime && (entry.mode & 0o170000) !== 0o160000) bytes.writeUInt32BE(0, 36);
    kept.push({ name: encodeName(entry.path), bytes });
  }
  for (const [file, bytes] of fresh) kept.push({ name: encodeName(file), bytes });
  // Git orders the index by the names' bytes.
  kept.sort((a, b) => Buffer.compare(a.name, b.name));
  const header = Buffer.alloc(12);
  header.write('DIRC', 0, 'latin1');
  header.writeUInt32BE(parsed.version, 4);
  header.writeUInt32BE(kept.length, 8);
  const body = Buffer.concat([header, ...kept.map((entry) => entry.bytes)]);
  const content = Buffer.concat([body, crypto.createHash('sha1').update(body).digest()]);
  return writeLocked(indexFile, content);
}

/** Writes through `index.lock` as git does; a lock held by someone else means native git must decide. */
async function writeLocked(indexFile: string, content: Buffer): Promise<boolean> {
  const lock = `${indexFile}.lock`;
  let handle: number;
  try {
    handle = fs.openSync(lock, 'wx', 0o644);
  } catch {
    // catch-ok: EEXIST is git holding the lock; whatever the reason, false makes the caller stage with git instead
    return false;
  }
  try {
    fs.writeFileSync(handle, content);
    fs.closeSync(handle);
    fs.renameSync(lock, indexFile);
    return true;
  } catch (error) {
    try {
      fs.closeSync(handle);
    } catch {
      // catch-ok: Already closed by the failed write's path; the lock file goes either way.
    }
    fs.rmSync(lock, { force: true });
    throw error;
  }
}

/** A new path where the index has a file at one of its folders, or files under it: git's D/F rules apply. */
function hasFolderConflict(file: string, byPath: ReadonlyMap<string, RawEntry>, entries: readonly RawEntry[]): boolean {
  if (byPath.has(file)) return false;
  const segments = file.split('/');
  for (let depth = 1; depth < segments.length; depth++) if (byPath.has(segments.slice(0, depth).join('/'))) return true;
  const prefix = `${file}/`;
  return entries.some((entry) => entry.path.startsWith(prefix));
}

function sameFile(before: fs.BigIntStats | undefined, after: fs.BigIntStats): boolean {
  return (
    before !== undefined &&
    before.ino === after.ino &&
    before.size === after.size &&
    before.mtimeNs === after.mtimeNs &&
    before.ctimeNs === after.ctimeNs
  );
}

const u32 = (value: bigint) => Number(value & 0xffffffffn);

function encodeEntry(file: string, state: NonNullable<PathState>, stat: fs.BigIntStats): Buffer {
  const name = encodeName(file);
  const size = (62 + name.length + 8) & ~7;
  const entry = Buffer.alloc(size);
  const nanos = 1_000_000_000n;
  entry.writeUInt32BE(u32(stat.ctimeNs / nanos), 0);
  entry.writeUInt32BE(u32(stat.ctimeNs % nanos), 4);
  entry.writeUInt32BE(u32(stat.mtimeNs / nanos), 8);
  entry.writeUInt32BE(u32(stat.mtimeNs % nanos), 12);
  entry.writeUInt32BE(u32(stat.dev), 16);
  entry.writeUInt32BE(u32(stat.ino), 20);
  entry.writeUInt32BE(Number.parseInt(state.mode, 8), 24);
  entry.writeUInt32BE(u32(stat.uid), 28);
  entry.writeUInt32BE(u32(stat.gid), 32);
  entry.writeUInt32BE(u32(stat.size), 36);
  entry.write(state.oid, 40, 'hex');
  entry.writeUInt16BE(Math.min(name.length, 0xfff), 60);
  name.copy(entry, 62);
  return entry;
}

interface RawEntry {
  path: string;
  bytes: Buffer;
  mode: number;
  mtimeNs: bigint;
  stage: number;
  extendedFlags: number;
}

/** The entries of a v2/v3 index with a valid checksum and only optional extensions; null otherwise. */
function parseIndex(buffer: Buffer): { version: number; entries: RawEntry[] } | null {
  if (buffer.length < 32 || buffer.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = buffer.readUInt32BE(4);
  if (version !== 2 && version !== 3) return null;
  const end = buffer.length - 20;
  if (!crypto.createHash('sha1').update(buffer.subarray(0, end)).digest().equals(buffer.subarray(end))) return null;
  const count = buffer.readUInt32BE(8);
  const entries: RawEntry[] = [];
  let offset = 12;
  for (let index = 0; index < count; index++) {
    const start = offset;
    if (start + 62 > end) return null;
    const flags = buffer.readUInt16BE(start + 60);
    const extended = version === 3 && (flags & 0x4000) !== 0;
    const nameStart = start + 62 + (extended ? 2 : 0);
    const nul = buffer.indexOf(0, nameStart);
    if (nul < 0 || nul >= end) return null;
    offset = start + ((nul - start + 8) & ~7);
    if (offset > end) return null;
    entries.push({
      path: decodeName(buffer, nameStart, nul),
      bytes: buffer.subarray(start, offset),
      mode: buffer.readUInt32BE(start + 24),
      mtimeNs: BigInt(buffer.readUInt32BE(start + 8)) * 1_000_000_000n + BigInt(buffer.readUInt32BE(start + 12)),
      stage: (flags >> 12) & 0x3,
      extendedFlags: extended ? buffer.readUInt16BE(start + 62) : 0,
    });
  }
  while (offset + 8 <= end) {
    const signature = buffer.toString('latin1', offset, offset + 4);
    // Lower-case first letter: an extension git requires to be understood (split index, sparse dirs).
    if (!/^[A-Z]/.test(signature)) return null;
    offset += 8 + buffer.readUInt32BE(offset + 4);
  }
  return offset === end ? { version, entries } : null;
}
