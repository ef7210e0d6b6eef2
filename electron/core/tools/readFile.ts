import fs from 'node:fs';
import { LatheError } from '../../../shared/errors';
import { looksBinary } from '../edits/guardrails';
import { normalizeEditPath } from '../basics/editPath';
import { resolveInsideRepo } from '../edits/symlinks';
import { isMissing, unreadable } from '../fsErrors';

export const DEFAULT_READ_BYTES = 256 * 1024;

/** Resolves a repo-relative path for reading: inside the repo (symlinks too), never .git/ or .lathe/. */
export async function resolveReadable(root: string, raw: string): Promise<{ normalized: string; absolute: string }> {
  let normalized: string;
  try {
    normalized = normalizeEditPath(raw);
  } catch (error) {
    throw new LatheError('INVALID_PATH', (error as Error).message, {
      path: raw.slice(0, 300),
      rule: (error as LatheError).data?.rule ?? null,
    });
  }
  try {
    return {
      normalized,
      absolute: await resolveInsideRepo(await fs.promises.realpath(root), normalized, { forReading: true }),
    };
  } catch (error) {
    throw new LatheError('INVALID_PATH', (error as Error).message, {
      path: normalized,
      rule: (error as LatheError).data?.rule ?? null,
    });
  }
}

/** A text file's content up to `maxBytes` (cut at a line end when possible); binary files are refused. */
export async function readRepoFile(
  root: string,
  raw: string,
  maxBytes = DEFAULT_READ_BYTES,
): Promise<{ content: string; truncated: boolean }> {
  const { normalized, absolute } = await resolveReadable(root, raw);
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(absolute, 'r');
  } catch (error) {
    if (!isMissing(error)) throw unreadable(normalized, error);
    throw new LatheError('NOT_FOUND', `no such file: ${normalized}`, { path: normalized });
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new LatheError('NOT_FOUND', `not a file: ${normalized}`, { path: normalized });
    const want = Math.min(stat.size, Math.max(0, maxBytes));
    const buffer = Buffer.alloc(want);
    const { bytesRead } = await handle.read(buffer, 0, want, 0);
    const bytes = buffer.subarray(0, bytesRead);
    if (looksBinary(bytes))
      throw new LatheError('BINARY_FILE', `${normalized} is a binary file (${stat.size} bytes)`, {
        path: normalized,
        bytes: stat.size,
      });
    const truncated = stat.size > bytesRead;
    let content = bytes.toString('utf8');
    if (truncated) {
      const lastNewline = content.lastIndexOf('\n');
      if (lastNewline > content.length / 2) content = content.slice(0, lastNewline + 1);
      else content = content.replace(/\uFFFD$/, '');
    }
    return { content, truncated };
  } finally {
    await handle.close();
  }
}
