import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { LIMITS } from '../../../shared/schemas/agents/bounds';
import type { EditPolicy } from '../workspace/types';
import { rejectEdit } from './rejection';

function hasControlChar(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 32 || code === 127) return true;
  }
  return false;
}
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** `.git`, and the names Windows and macOS treat as `.git` (`.GIT`, `.git.`, `.git `). */
const GIT_SEGMENT = /^\.git[. ]*$/i;

/**
 * Lexical checks of one repo-relative path; returns it normalized (`a/./b` → `a/b`). The symlink
 * check needs the disk and lives in `symlinks.ts`.
 */
export function normalizeEditPath(raw: string): string {
  const shown = raw.slice(0, LIMITS.path);
  if (typeof raw !== 'string' || raw.length === 0) throw rejectEdit('invalid-path', shown, 'empty path');
  if (raw.length > LIMITS.path) throw rejectEdit('invalid-path', shown, `path longer than ${LIMITS.path} characters`);
  if (hasControlChar(raw)) throw rejectEdit('invalid-path', shown, 'control character in path');
  // `\udce9` in JSON is no character: on disk it would be U+FFFD, in the commit a raw byte (shared/gitPath.ts).
  if (LONE_SURROGATE.test(raw)) throw rejectEdit('invalid-path', shown, 'a lone \\uD800-\\uDFFF escape in path is not a character; write the name in plain UTF-8');
  if (raw.startsWith('/') || raw.startsWith('~') || /^[A-Za-z]:/.test(raw) || raw.startsWith('\\\\')) {
    throw rejectEdit('absolute-path', shown, 'absolute paths are not allowed; use a path relative to the repository');
  }
  if (raw.includes('\\')) throw rejectEdit('invalid-path', shown, 'backslash in path; use forward slashes');
  if (raw.endsWith('/')) throw rejectEdit('invalid-path', shown, 'path names a folder, not a file');
  const normalized = path.posix.normalize(raw).replace(/^(\.\/)+/, '');
  if (normalized === '..' || normalized.startsWith('../')) throw rejectEdit('escapes-repo', shown, 'path leaves the repository');
  if (normalized === '.' || normalized === '') throw rejectEdit('invalid-path', shown, 'path names the repository itself');
  const segments = normalized.split('/');
  if (segments.some((segment) => GIT_SEGMENT.test(segment))) throw rejectEdit('git-dir', normalized, 'nothing under .git/ may be written');
  if (segments[0]?.toLowerCase() === '.lathe') throw rejectEdit('lathe-dir', normalized, "nothing under .lathe/ (Lathe's run store) may be written");
  return normalized;
}

/** Compiled policy: artifact, test and protected-path rules answered per normalized path. */
export class PathPolicy {
  private readonly artifacts: Set<string> | null;
  private readonly artifactDirs: string[];
  private readonly tests: Ignore;
  private readonly protectedPaths: Set<string>;

  constructor(readonly policy: EditPolicy) {
    const artifacts = policy.artifacts?.map((entry) => path.posix.normalize(entry).replace(/^(\.\/)+/, '')) ?? null;
    this.artifacts = artifacts ? new Set(artifacts.filter((entry) => !entry.endsWith('/'))) : null;
    this.artifactDirs = artifacts?.filter((entry) => entry.endsWith('/')) ?? [];
    this.tests = ignore().add(policy.testPatterns);
    this.protectedPaths = new Set(policy.protectedPaths.map((entry) => path.posix.normalize(entry)));
  }

  isTestPath(normalized: string): boolean {
    return this.tests.ignores(normalized);
  }

  /** Throws EDIT_REJECTED for a path this policy forbids writing; returns the normalized path. */
  check(raw: string): string {
    const normalized = normalizeEditPath(raw);
    if (this.protectedPaths.has(normalized) || [...this.protectedPaths].some((entry) => normalized.startsWith(`${entry}/`))) {
      throw rejectEdit('protected-path', normalized, 'the user has uncommitted changes here; the run may not touch it');
    }
    if (this.artifacts && !this.artifacts.has(normalized) && !this.artifactDirs.some((dir) => normalized.startsWith(dir))) {
      throw rejectEdit('not-an-artifact', normalized, "not one of the task's artifacts", { artifacts: [...this.artifacts, ...this.artifactDirs] });
    }
    if (this.policy.testsReadOnly && this.isTestPath(normalized)) {
      throw rejectEdit('tests-read-only', normalized, 'tests are read-only for this step');
    }
    return normalized;
  }

  /** Size and binary checks of new content. */
  checkContent(normalized: string, content: string): void {
    const bytes = Buffer.byteLength(content, 'utf8');
    if (bytes > this.policy.maxFileBytes) {
      throw rejectEdit('too-large', normalized, `${bytes} bytes is over the ${this.policy.maxFileBytes}-byte limit per file`, { bytes });
    }
    if (looksBinary(content)) throw rejectEdit('binary-content', normalized, 'content looks binary (NUL or many control characters)');
  }
}

/** NUL anywhere, or more than 10% control characters (tabs, newlines, form feeds and ESC excepted) in the first 8000. */
export function looksBinary(content: string | Buffer): boolean {
  const sample = typeof content === 'string' ? content : content.subarray(0, 8000).toString('latin1');
  if (sample.includes('\u0000')) return true;
  const head = sample.slice(0, 8000);
  let control = 0;
  for (let index = 0; index < head.length; index++) {
    const code = head.charCodeAt(index);
    if (code < 32 && code !== 9 && code !== 10 && code !== 13 && code !== 12 && code !== 27 && code !== 11) control++;
  }
  return head.length > 0 && control / head.length > 0.1;
}
