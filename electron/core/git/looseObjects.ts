import crypto from 'node:crypto';
import path from 'node:path';
import zlib from 'node:zlib';
import type { TreeEntry } from 'isomorphic-git';
import type { RepoContext } from './repoContext';
import { syncFs } from './localFs';
import { encodeName } from './pathBytes';

/**
 * Writes git objects as loose files with Node's own zlib and sha1: isomorphic-git deflates through
 * web streams (`CompressionStream`), which cost about a millisecond of CPU per object, and a step's
 * commit writes four or more. The bytes hashed are git's canonical ones, so the ids are the same.
 */
export type ObjectType = 'blob' | 'tree' | 'commit';

export async function writeLooseObject(context: RepoContext, type: ObjectType, body: Buffer): Promise<string> {
  const raw = Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]);
  const oid = crypto.createHash('sha1').update(raw).digest('hex');
  const folder = path.join(context.dirs.commonDir, 'objects', oid.slice(0, 2));
  const file = path.join(folder, oid.slice(2));
  if (
    await syncFs.access(file).then(
      () => true,
      () => false,
    )
  )
    return oid;
  await syncFs.mkdir(folder, { recursive: true });
  // Written aside and renamed in, as git does: a process killed mid-write leaves no truncated object
  // under the final name (which every later write would then trust and skip).
  const temporary = path.join(folder, `tmp_obj_${process.pid}_${crypto.randomBytes(6).toString('hex')}`);
  try {
    // Level 1 is git's own default for loose objects (core.loosecompression).
    await syncFs.writeFile(temporary, zlib.deflateSync(raw, { level: 1 }), { mode: 0o444, flag: 'wx' });
    await syncFs.rename(temporary, file);
  } catch (error) {
    await syncFs.rm(temporary, { force: true });
    throw error;
  }
  return oid;
}

const SLASH = Buffer.from('/');
const NUL = Buffer.alloc(1);

/** A tree's canonical bytes: entries in git's order (by name bytes, folders as if ending in '/'), modes without a leading zero. */
export function serializeTree(entries: readonly TreeEntry[]): Buffer {
  const keyed = entries.map((entry) => ({ entry, name: encodeName(entry.path) }));
  const sortKey = ({ entry, name }: { entry: TreeEntry; name: Buffer }) =>
    entry.mode === '040000' ? Buffer.concat([name, SLASH]) : name;
  keyed.sort((a, b) => Buffer.compare(sortKey(a), sortKey(b)));
  return Buffer.concat(
    keyed.flatMap(({ entry, name }) => [
      Buffer.from(`${entry.mode.replace(/^0/, '')} `),
      name,
      NUL,
      Buffer.from(entry.oid, 'hex'),
    ]),
  );
}

export interface CommitPerson {
  name: string;
  email: string;
  timestamp: number;
  /** Minutes as `Date.getTimezoneOffset()` gives them: positive west of UTC. */
  timezoneOffset: number;
}

/** "+0100" for -60 (isomorphic-git's convention, which the run's commits have always had). */
function formatOffset(minutes: number): string {
  const sign = minutes > 0 || (minutes === 0 && Object.is(minutes, -0)) ? '-' : '+';
  const absolute = Math.abs(minutes);
  return `${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}${String(absolute % 60).padStart(2, '0')}`;
}

/** The message as isomorphic-git stores it: no carriage returns, no leading blank lines, one final newline. */
function normalizeMessage(message: string): string {
  return `${message.replace(/\r/g, '').replace(/^\n+/, '').replace(/\n+$/, '')}\n`;
}

/** A commit's canonical bytes, identical to what isomorphic-git's writeCommit wrote for the same input. */
export function serializeCommit(commit: {
  tree: string;
  parent: readonly string[];
  author: CommitPerson;
  committer: CommitPerson;
  message: string;
}): Buffer {
  const person = (who: CommitPerson) =>
    `${who.name} <${who.email}> ${who.timestamp} ${formatOffset(who.timezoneOffset)}`;
  const headers = [
    `tree ${commit.tree}`,
    ...commit.parent.map((parent) => `parent ${parent}`),
    `author ${person(commit.author)}`,
    `committer ${person(commit.committer)}`,
  ];
  return Buffer.from(`${headers.join('\n')}\n\n${normalizeMessage(commit.message)}`);
}
