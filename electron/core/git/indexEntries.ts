import { decodeName } from './pathBytes';

/** One index entry as git stores it (v2/v3): enough to tell whether the work-tree file changed. */
export interface IndexEntry {
  path: string;
  mtimeSeconds: number;
  mtimeNanoseconds: number;
  size: number;
  mode: number;
  oid: string;
  stage: number;
  skipWorktree: boolean;
}

export interface IndexContents {
  entries: IndexEntry[];
  /** The cache-tree's root tree id when the whole tree is valid (then it equals the staged tree), else null. */
  cachedRootTree: string | null;
}

/** Parses a v2/v3 sha1 index; returns null for anything else (callers then use isomorphic-git's slow path). */
export function parseIndexEntries(buffer: Buffer): IndexContents | null {
  if (buffer.length < 32 || buffer.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = buffer.readUInt32BE(4);
  if (version !== 2 && version !== 3) return null;
  const count = buffer.readUInt32BE(8);
  const end = buffer.length - 20;
  const entries: IndexEntry[] = [];
  let offset = 12;
  for (let index = 0; index < count; index++) {
    if (offset + 62 > end) return null;
    const start = offset;
    const flags = buffer.readUInt16BE(offset + 60);
    let extended = 0;
    offset += 62;
    if (version === 3 && flags & 0x4000) {
      extended = buffer.readUInt16BE(offset);
      offset += 2;
    }
    const nul = buffer.indexOf(0, offset);
    if (nul < 0 || nul > end) return null;
    entries.push({
      path: decodeName(buffer, offset, nul),
      mtimeSeconds: buffer.readUInt32BE(start + 8),
      mtimeNanoseconds: buffer.readUInt32BE(start + 12),
      mode: buffer.readUInt32BE(start + 24),
      size: buffer.readUInt32BE(start + 36),
      oid: buffer.toString('hex', start + 40, start + 60),
      stage: (flags >> 12) & 0x3,
      skipWorktree: Boolean(extended & 0x4000),
    });
    offset = start + ((nul - start + 8) & ~7);
  }
  let cachedRootTree: string | null = null;
  while (offset + 8 <= end) {
    const signature = buffer.toString('latin1', offset, offset + 4);
    const size = buffer.readUInt32BE(offset + 4);
    if (signature === 'TREE') cachedRootTree = readRootOfCacheTree(buffer.subarray(offset + 8, offset + 8 + size));
    offset += 8 + size;
  }
  return { entries, cachedRootTree };
}

/** The cache-tree's first record is the root: "\0<entry count> <subtrees>\n<oid>", count -1 when invalid. */
function readRootOfCacheTree(data: Buffer): string | null {
  if (data[0] !== 0) return null;
  const newline = data.indexOf(0x0a, 1);
  if (newline < 0) return null;
  const [entryCount] = data.toString('latin1', 1, newline).split(' ');
  if (Number(entryCount) < 0 || newline + 21 > data.length) return null;
  return data.toString('hex', newline + 1, newline + 21);
}
