import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { EditPolicy } from './types';
import { normalizeEditPath } from '../basics/editPath';
import { rejectEdit } from '../basics/rejection';

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
    if (
      this.protectedPaths.has(normalized) ||
      [...this.protectedPaths].some((entry) => normalized.startsWith(`${entry}/`))
    ) {
      throw rejectEdit('protected-path', normalized, 'the user has uncommitted changes here; the run may not touch it');
    }
    if (
      this.artifacts &&
      !this.artifacts.has(normalized) &&
      !this.artifactDirs.some((dir) => normalized.startsWith(dir))
    ) {
      throw rejectEdit('not-an-artifact', normalized, "not one of the task's artifacts", {
        artifacts: [...this.artifacts, ...this.artifactDirs],
      });
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
      throw rejectEdit(
        'too-large',
        normalized,
        `${bytes} bytes is over the ${this.policy.maxFileBytes}-byte limit per file`,
        { bytes },
      );
    }
    if (looksBinary(content))
      throw rejectEdit('binary-content', normalized, 'content looks binary (NUL or many control characters)');
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
