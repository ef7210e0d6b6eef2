import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { whenMissing } from '../fsErrors';

/** Seed 004 retention: the last 20 runs or 14 days; stuck-report artifacts until released. */
export const RETENTION = { keepRuns: 20, keepDays: 14 } as const;
const RETAINED_MARK = 'RETAINED.json';
const RUN_DIR = /^v\d{8}T\d{9}Z-[0-9a-f]{6}$/;

/** A folder name the Verifier makes for one of its runs (`v20260102T030405678Z-1a2b3c`). */
export function isVerifyRunDirName(name: string): boolean {
  return RUN_DIR.test(name);
}

/** Sortable by time: `v20260102T030405678Z-1a2b3c`. */
export function newVerifyRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('.', '');
  return `v${stamp}-${crypto.randomBytes(3).toString('hex')}`;
}

/**
 * ARTIFACT_DIR with the seed's writable layout: logs/, build/, cache/, tmp/. Synchronous on purpose:
 * a handful of tiny calls, where a thread-pool round trip each costs more than the call on a busy machine.
 */
export function createArtifactDir(artifactRoot: string, verifyRunId: string): string {
  const dir = path.join(path.resolve(artifactRoot), verifyRunId);
  fs.mkdirSync(path.join(dir, 'tmp', 'home'), { recursive: true });
  for (const sub of ['logs', 'build', 'cache']) fs.mkdirSync(path.join(dir, sub));
  return fs.realpathSync(dir);
}

/** Keeps a run's artifacts past retention (a stuck report refers to them) until released. */
export async function markArtifactsRetained(artifactDir: string, reason = 'stuck report'): Promise<void> {
  await fs.promises.writeFile(
    path.join(artifactDir, RETAINED_MARK),
    `${JSON.stringify({ reason, retained_at: new Date().toISOString() })}\n`,
  );
}

/** The stuck report was resolved: the run's artifacts fall under normal retention again. */
export async function releaseRetainedArtifacts(artifactDir: string): Promise<void> {
  await fs.promises.rm(path.join(artifactDir, RETAINED_MARK), { force: true });
}

export async function isRetained(artifactDir: string): Promise<boolean> {
  return fs.promises.access(path.join(artifactDir, RETAINED_MARK)).then(
    () => true,
    () => false,
  );
}

/** Releases a retained artifact folder; true when it was retained. */
export async function releaseIfRetained(dir: string): Promise<boolean> {
  const held = await isRetained(dir);
  if (held) await releaseRetainedArtifacts(dir);
  return held;
}

/**
 * Deletes verifier runs that are both older than 14 days and not among the 20 newest, unless
 * retained. Only folders named like verifier runs are considered; returns the deleted ids.
 */
export async function pruneArtifacts(
  artifactRoot: string,
  now = Date.now(),
  keep: { keepRuns: number; keepDays: number } = RETENTION,
): Promise<string[]> {
  const names = (await fs.promises.readdir(artifactRoot).catch(whenMissing([] as string[])))
    .filter((name) => RUN_DIR.test(name))
    .sort()
    .reverse();
  const deleted: string[] = [];
  for (const [index, name] of names.entries()) {
    if (index < keep.keepRuns) continue;
    const ageDays = (now - runTime(name)) / 86_400_000;
    if (ageDays <= keep.keepDays) continue;
    const dir = path.join(artifactRoot, name);
    if (await isRetained(dir)) continue;
    await fs.promises.rm(dir, { recursive: true, force: true });
    deleted.push(name);
  }
  return deleted;
}

/** Retention is about days: a root is pruned at most once an hour per process, not on every verify. */
export const PRUNE_INTERVAL_MS = 60 * 60 * 1000;
const lastPruned = new Map<string, number>();

/** Prunes `artifactRoot` unless this process did so within the last hour. */
export async function pruneArtifactsOccasionally(artifactRoot: string, now = Date.now()): Promise<string[]> {
  const root = path.resolve(artifactRoot);
  const last = lastPruned.get(root);
  if (last !== undefined && now - last < PRUNE_INTERVAL_MS) return [];
  lastPruned.set(root, now);
  return pruneArtifacts(root, now);
}

function runTime(name: string): number {
  const match = /^v(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z/.exec(name);
  if (!match) return 0;
  const [, y, mo, d, h, mi, s, ms] = match.map(Number) as number[];
  return Date.UTC(y as number, (mo as number) - 1, d, h, mi, s, ms);
}

export interface VerifyManifest {
  run_id: string;
  status: string;
  started_at: string;
  finished_at: string | null;
  commit: string | null;
  argv: string[];
  requested_argv: string[];
  build_argv: string[] | null;
  cwd: string;
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  duration_ms: number | null;
  reason: string | null;
  isolation: { level: string; detail: string };
  platform: { os: string; release: string; arch: string; node: string };
  counts: unknown;
  /** Where the counts were read from; null when no runner's results could be read. */
  results_from?: string | null;
  /** `tests.json` beside it, when the runner's output named every test (the test inventory). */
  tests_file?: string | null;
  output_bytes: number | null;
  log: string;
  build: {
    argv: string[];
    status: string;
    exit_code: number | null;
    timed_out: boolean;
    duration_ms: number;
    reason: string | null;
    log: string;
  } | null;
  /** What the commands wrote inside the work folder and how it was undone (null: it was read-only). */
  work_dir_writes: unknown;
}

/** A few kilobytes, written synchronously (see createArtifactDir). */
export function writeManifest(file: string, manifest: VerifyManifest): void {
  fs.writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}

export interface ArtifactUsage {
  root: string;
  /** Verifier run folders. */
  runs: number;
  /** Of those, kept past retention for a stuck report. */
  retained: number;
  bytes: number;
}

/** The bytes of the files under `dir` (links counted as themselves, never followed). */
export async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  // catch-ok: a usage figure for the doctor: a folder that cannot be listed counts as empty
  for (const entry of await fs.promises.readdir(dir, { withFileTypes: true }).catch(() => [] as fs.Dirent[])) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await folderBytes(full);
    // catch-ok: a usage figure for the doctor: a file that cannot be looked at counts as empty
    else total += (await fs.promises.lstat(full).catch(() => null))?.size ?? 0;
  }
  return total;
}

/** What the Verifier's artifacts take on disk (`lathe doctor` shows it beside the retention rule). */
export async function artifactUsage(artifactRoot: string): Promise<ArtifactUsage> {
  const names = (await fs.promises.readdir(artifactRoot).catch(whenMissing([] as string[]))).filter((name) =>
    RUN_DIR.test(name),
  );
  let retained = 0;
  let bytes = 0;
  for (const name of names) {
    const dir = path.join(artifactRoot, name);
    if (await isRetained(dir)) retained++;
    bytes += await folderBytes(dir);
  }
  return { root: artifactRoot, runs: names.length, retained, bytes };
}
