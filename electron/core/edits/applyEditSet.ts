import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { LatheError } from '../../../shared/errors';
import type { AppliedEditSet, EditPolicy, PlannedEditSet } from './types';
import type { ApplyOptions } from '../git/types';
import { PathPolicy } from './guardrails';
import { rejectEdit } from '../basics/rejection';
import { resolveInsideRepo } from './symlinks';
import { isMissing } from '../fsErrors';

/** The file operations the apply uses; replaceable so tests can fail one midway. */
export interface FileOps {
  /** `durable`: flushed to the disk before it is renamed in (the user's own files, decision 72). */
  writeFile(file: string, data: string, mode: number | undefined, durable: boolean): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  unlink(file: string): Promise<void>;
  mkdir(dir: string): Promise<void>;
  rmdir(dir: string): Promise<void>;
}

/**
 * Synchronous calls behind the async interface: an edit touches a few files of bounded size, and each
 * `fs.promises` call costs a thread-pool round trip (65–260 µs here) against a few µs (decision 65).
 */
export const realFileOps: FileOps = {
  async writeFile(file, data, mode, durable) {
    const handle = fs.openSync(file, 'wx', mode ?? 0o666);
    try {
      fs.writeFileSync(handle, data, 'utf8');
      if (mode !== undefined) fs.fchmodSync(handle, mode);
      if (durable) fs.fsyncSync(handle);
    } finally {
      fs.closeSync(handle);
    }
  },
  rename: async (from, to) => fs.renameSync(from, to),
  unlink: async (file) => fs.unlinkSync(file),
  mkdir: async (dir) => fs.mkdirSync(dir),
  rmdir: async (dir) => fs.rmdirSync(dir),
};

interface Step {
  path: string;
  absolute: string;
  after: string | null;
  existed: boolean;
  mode: number | undefined;
  temp: string | null;
  backup: string | null;
  committed: boolean;
}

export function applyEditSet(
  workDir: string,
  planned: PlannedEditSet,
  policy: EditPolicy,
  options: ApplyOptions = { durable: true },
): Promise<AppliedEditSet> {
  return applyEditSetWith(realFileOps, workDir, planned, policy, options);
}

/** Checks each change against the guardrails and the disk as it is now; the steps that will write it. */
async function checkedSteps(realRoot: string, planned: PlannedEditSet, policy: EditPolicy): Promise<Step[]> {
  const rules = new PathPolicy(policy);
  const seen = new Set<string>();
  const steps: Step[] = [];
  for (const change of planned.changes) {
    const normalized = rules.check(change.path);
    if (seen.has(normalized))
      throw rejectEdit('duplicate-path', normalized, 'the same file appears twice in one edit set');
    seen.add(normalized);
    if (change.after !== null) rules.checkContent(normalized, change.after);
    const absolute = await resolveInsideRepo(realRoot, normalized);
    const current = await readCurrent(absolute);
    if ((current?.content ?? null) !== change.before) {
      throw rejectEdit('patch-does-not-apply', normalized, 'the file changed on disk since the edit was planned');
    }
    steps.push({
      path: normalized,
      absolute,
      after: change.after,
      existed: current !== null,
      mode: current?.mode,
      temp: null,
      backup: null,
      committed: false,
    });
  }
  return steps;
}

/** New contents to temp files first, then originals renamed aside and temps renamed in; each step records how far it got. */
async function writeSteps(
  ops: FileOps,
  realRoot: string,
  steps: Step[],
  createdDirs: string[],
  options: ApplyOptions,
): Promise<void> {
  for (const step of steps) {
    if (step.after === null) continue;
    await makeParents(ops, realRoot, path.dirname(step.absolute), createdDirs);
    step.temp = siblingName(step.absolute, 'new');
    await ops.writeFile(step.temp, step.after, step.mode, options.durable);
  }
  for (const step of steps) {
    if (step.existed) {
      step.backup = siblingName(step.absolute, 'old');
      await ops.rename(step.absolute, step.backup);
    }
    step.committed = true;
    if (step.temp !== null) {
      await ops.rename(step.temp, step.absolute);
      step.temp = null;
    }
  }
}

/** The error a failed write is reported as, naming every file the roll-back could not put back. */
function applyFailure(
  error: unknown,
  steps: Step[],
  unrestored: { path: string; backup: string | null }[],
): LatheError {
  const failed = steps.find((step) => step.temp !== null || (step.committed && step.backup === null)) ?? steps[0];
  const outcome =
    unrestored.length === 0
      ? 'every file was restored'
      : unrestored
          .map((file) =>
            file.backup
              ? `${file.path} could not be put back (the original is at ${file.backup})`
              : `${file.path} could not be removed again`,
          )
          .join('; ');
  return new LatheError(
    'EDIT_APPLY_FAILED',
    `writing the edit set failed and ${outcome}: ${(error as Error).message}`,
    {
      path: failed?.path ?? null,
      cause: (error as NodeJS.ErrnoException).code ?? null,
      unrestored,
    },
  );
}

function appliedFiles(steps: Step[]): AppliedEditSet {
  const byKind = (kind: 'changed' | 'created' | 'deleted') =>
    steps
      .filter((step) =>
        kind === 'deleted'
          ? step.after === null
          : kind === 'created'
            ? step.after !== null && !step.existed
            : step.after !== null && step.existed,
      )
      .map((step) => step.path);
  return { changed: byKind('changed'), created: byKind('created'), deleted: byKind('deleted') };
}

/**
 * Re-checks every guardrail against the disk as it is now, then writes all files or none: each new
 * content goes to a temp file beside its target, originals are renamed aside, temps renamed in,
 * and any failure renames everything back and removes what was created.
 */
export async function applyEditSetWith(
  ops: FileOps,
  workDir: string,
  planned: PlannedEditSet,
  policy: EditPolicy,
  options: ApplyOptions = { durable: true },
): Promise<AppliedEditSet> {
  const realRoot = fs.realpathSync(workDir);
  const steps = await checkedSteps(realRoot, planned, policy);
  const createdDirs: string[] = [];
  try {
    await writeSteps(ops, realRoot, steps, createdDirs, options);
  } catch (error) {
    throw applyFailure(error, steps, await rollBack(ops, steps, createdDirs));
  }
  for (const step of steps) {
    // catch-ok: the edits are in place; a backup left behind only takes space
    if (step.backup !== null) await ops.unlink(step.backup).catch(() => undefined);
  }
  return appliedFiles(steps);
}

async function readCurrent(absolute: string): Promise<{ content: string; mode: number } | null> {
  try {
    const stat = fs.statSync(absolute);
    return { content: fs.readFileSync(absolute, 'utf8'), mode: stat.mode & 0o7777 };
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

async function makeParents(ops: FileOps, realRoot: string, dir: string, created: string[]): Promise<void> {
  if (dir === realRoot) return;
  try {
    const stat = fs.statSync(dir);
    if (stat.isDirectory()) return;
  } catch (error) {
    if (!isMissing(error)) throw error;
    await makeParents(ops, realRoot, path.dirname(dir), created);
    await ops.mkdir(dir);
    created.push(dir);
  }
}

function siblingName(absolute: string, kind: 'new' | 'old'): string {
  return path.join(
    path.dirname(absolute),
    `.${path.basename(absolute)}.lathe-${kind}-${crypto.randomBytes(4).toString('hex')}`,
  );
}

/**
 * Puts every committed file back; returns those it could not. A leftover temp file or folder is only
 * clutter, but a user's file left under its backup name must be named, never reported as restored.
 */
async function rollBack(
  ops: FileOps,
  steps: Step[],
  createdDirs: string[],
): Promise<{ path: string; backup: string | null }[]> {
  const unrestored: { path: string; backup: string | null }[] = [];
  for (const step of [...steps].reverse()) {
    // catch-ok: cleanup during a rollback: the failure that caused it is the one reported
    if (step.temp !== null) await ops.unlink(step.temp).catch(() => undefined);
    if (!step.committed) continue;
    if (step.backup !== null) {
      const backup = step.backup;
      await ops.rename(backup, step.absolute).catch(() => unrestored.push({ path: step.path, backup }));
    } else if (step.after !== null && step.temp === null) {
      await ops.unlink(step.absolute).catch(() => unrestored.push({ path: step.path, backup: null }));
    }
  }
  // catch-ok: cleanup during a rollback: a folder left behind is empty or holds what the rollback could not restore, named in unrestored
  for (const dir of [...createdDirs].reverse()) await ops.rmdir(dir).catch(() => undefined);
  return unrestored.reverse();
}
