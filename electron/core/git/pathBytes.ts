import path from 'node:path';
import { decodeGitPath, encodeGitPath, hasRawBytes } from '../../../shared/gitPath';

/**
 * The Node side of shared/gitPath.ts: names read from git objects, the index, git's output and the
 * disk as lossless strings, and back to bytes for the disk and for git. Node's own `toString('utf8')`
 * and string paths turn each byte that is not UTF-8 into U+FFFD, which renamed `caf\xe9.txt` in a
 * run's commit.
 */

/** `buffer[start, end)` as a name; plain ASCII (nearly every name) takes the fast path. */
export function decodeName(buffer: Buffer, start = 0, end = buffer.length): string {
  for (let index = start; index < end; index++)
    if ((buffer[index] as number) >= 0x80) return decodeGitPath(buffer.subarray(start, end));
  return buffer.toString('latin1', start, end);
}

export function encodeName(name: string): Buffer {
  const bytes = encodeGitPath(name);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * `root/relative` for fs calls: a string as before, or, when the name holds bytes that are not UTF-8,
 * a Buffer of the exact bytes (Node's fs takes both).
 */
export function diskPath(root: string, relative: string): string | Buffer {
  if (!hasRawBytes(relative)) return path.join(root, relative);
  return Buffer.concat([Buffer.from(`${path.resolve(root)}${path.sep}`), encodeName(relative)]);
}
