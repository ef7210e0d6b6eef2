import fs from 'node:fs';
import path from 'node:path';
import { isMissing, unreadable, whenMissing } from '../fsErrors';

export interface IndexFormat {
  /** null when there is no index file yet (a fresh repository). */
  version: number | null;
  entries: number;
  /** `link` extension or `sharedindex.*` files: the entries live in a second file. */
  split: boolean;
  /** `sdir` extension: a sparse index with folder entries. */
  sparse: boolean;
  extensions: string[];
  /** Gitlink (submodule) entries seen. */
  gitlinks: number;
}

/** Hash size by object format: sha1 repositories use 20 bytes, sha256 ones 32. */
const HASH_BYTES = { sha1: 20, sha256: 32 } as const;

/**
 * Reads the index header and walks its entries to reach the extensions, without trusting any
 * library: isomorphic-git silently misreads split indexes and refuses v4, so Lathe must know first.
 */
export async function readIndexFormat(gitDir: string, objectFormat: 'sha1' | 'sha256' = 'sha1'): Promise<IndexFormat> {
  const sharedIndexFiles = (await fs.promises.readdir(gitDir).catch(whenMissing([] as string[]))).some((name) =>
    name.startsWith('sharedindex.'),
  );
  let buffer: Buffer;
  try {
    buffer = await fs.promises.readFile(path.join(gitDir, 'index'));
  } catch (error) {
    // No index yet (a fresh repository); one that cannot be read must not pass for a safe, empty one.
    if (!isMissing(error)) throw unreadable(path.join(gitDir, 'index'), error);
    return { version: null, entries: 0, split: sharedIndexFiles, sparse: false, extensions: [], gitlinks: 0 };
  }
  return parseIndexBuffer(buffer, HASH_BYTES[objectFormat], sharedIndexFiles);
}

export function parseIndexBuffer(buffer: Buffer, hashBytes: number, sharedIndexFiles = false): IndexFormat {
  if (buffer.length < 12 || buffer.toString('latin1', 0, 4) !== 'DIRC') {
    return { version: -1, entries: 0, split: sharedIndexFiles, sparse: false, extensions: [], gitlinks: 0 };
  }
  const version = buffer.readUInt32BE(4);
  const entries = buffer.readUInt32BE(8);
  const end = buffer.length - hashBytes;
  let offset = 12;
  let gitlinks = 0;
  let previousPath = Buffer.alloc(0);
  for (let index = 0; index < entries && offset < end; index++) {
    const start = offset;
    const mode = buffer.readUInt32BE(offset + 24);
    if ((mode & 0o170000) === 0o160000) gitlinks++;
    offset += 40 + hashBytes;
    const flags = buffer.readUInt16BE(offset);
    offset += 2;
    if (version >= 3 && flags & 0x4000) offset += 2;
    if (version === 4) {
      const { value: strip, next } = readOffsetVarint(buffer, offset);
      const nul = buffer.indexOf(0, next);
      if (nul < 0) break;
      previousPath = Buffer.concat([
        previousPath.subarray(0, Math.max(0, previousPath.length - strip)),
        buffer.subarray(next, nul),
      ]);
      offset = nul + 1;
    } else {
      const nul = buffer.indexOf(0, offset);
      if (nul < 0) break;
      const length = nul - start;
      offset = start + ((length + 8) & ~7);
    }
  }
  const extensions: string[] = [];
  while (offset + 8 <= end) {
    const signature = buffer.toString('latin1', offset, offset + 4);
    const size = buffer.readUInt32BE(offset + 4);
    extensions.push(signature);
    offset += 8 + size;
  }
  return {
    version,
    entries,
    split: sharedIndexFiles || extensions.includes('link'),
    sparse: extensions.includes('sdir'),
    extensions,
    gitlinks,
  };
}

/** Git's "offset" varint (index v4 path prefix lengths): each continuation adds one before shifting. */
function readOffsetVarint(buffer: Buffer, offset: number): { value: number; next: number } {
  let byte = buffer[offset++] ?? 0;
  let value = byte & 0x7f;
  while (byte & 0x80) {
    byte = buffer[offset++] ?? 0;
    value = ((value + 1) << 7) | (byte & 0x7f);
  }
  return { value, next: offset };
}

/** Why isomorphic-git must not read or write this index, or null when it may. */
export function isomorphicUnsafeReason(format: IndexFormat, objectFormat: 'sha1' | 'sha256'): string | null {
  if (objectFormat !== 'sha1') return 'the repository uses sha256 object names, which isomorphic-git does not support';
  if (format.split)
    return 'the index is split (core.splitIndex); isomorphic-git would read only part of it and could drop entries';
  if (format.version === 4)
    return 'the index is version 4 (index.version=4 or feature.manyFiles); isomorphic-git cannot read it';
  if (format.sparse) return 'the index is sparse (sparse-checkout with sparse index); isomorphic-git cannot read it';
  if (format.version === -1) return 'the index file is not a valid git index';
  if (format.version !== null && format.version !== 2 && format.version !== 3)
    return `index version ${format.version} is unknown to isomorphic-git`;
  return null;
}
