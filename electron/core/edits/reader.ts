import fs from 'node:fs';
import { isMissing, unreadable } from '../fsErrors';
import { listRepoFiles } from '../git/listFiles';
import type { WorkspaceReader } from './types';
import { looksBinary } from './guardrails';
import { normalizeEditPath } from '../basics/editPath';
import { rejectEdit } from '../basics/rejection';
import { resolveInsideRepo } from './symlinks';

/** Largest file a format will read to plan an edit; past it the edit is refused, not truncated. */
const MAX_PLANNED_READ_BYTES = 8 * 1024 * 1024;
/** Files a plan compares a wrong or new path with; past it the rest are not suggested. */
const MAX_LISTED_FILES = 20_000;

/**
 * The reader formats plan against: repo-relative, never outside the repo (symlinks included), null
 * for a missing file, and a refusal for binary or huge files (an edit to them cannot be planned).
 */
export function createWorkspaceReader(workDir: string): WorkspaceReader {
  let realRoot: string | undefined;
  let listing: Promise<string[]> | undefined;
  return {
    async read(raw: string): Promise<string | null> {
      const normalized = normalizeEditPath(raw);
      realRoot ??= fs.realpathSync(workDir);
      const absolute = await resolveInsideRepo(realRoot, normalized);
      let stat: fs.Stats;
      try {
        stat = fs.statSync(absolute);
      } catch (error) {
        if (isMissing(error)) return null;
        throw unreadable(normalized, error);
      }
      if (stat.size > MAX_PLANNED_READ_BYTES)
        throw rejectEdit('too-large', normalized, `the current file is ${stat.size} bytes; too large to edit`);
      const bytes = fs.readFileSync(absolute);
      if (looksBinary(bytes))
        throw rejectEdit('binary-content', normalized, 'the current file is binary and cannot be edited as text');
      return bytes.toString('utf8');
    },
    listFiles(): Promise<string[]> {
      // Listed as the agents see the repository (gitignore honoured), once: a plan asks for each wrong or new path.
      listing ??= listRepoFiles(workDir, { limit: MAX_LISTED_FILES }).then((listed) => listed.files);
      return listing;
    },
  };
}

/** A reader over an in-memory map (tests, previews): same path rules, no disk. */
export function createMemoryReader(files: Record<string, string>): WorkspaceReader {
  return {
    async read(raw: string) {
      return files[normalizeEditPath(raw)] ?? null;
    },
    async listFiles() {
      return Object.keys(files).sort();
    },
  };
}
