import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { runNativeGit } from '../../git/nativeGit';
import { createArtifactDir, newVerifyRunId } from '../../verifier/artifacts';
import type { VerifyRequest, VerifyResult } from '../../verifier/types';

type Verify = (request: VerifyRequest) => Promise<VerifyResult>;

export interface VerificationCacheStats {
  /** Verifications answered from an earlier one of the same tree and command. */
  reused: number;
  /** Verifications the tests really ran for. */
  ran: number;
}

/**
 * `lathe eval --corpus --reuse-verifications` (decision 98): a fault matrix runs one task a hundred
 * times, and most of those runs verify the same few trees (the start, the gold fix, the gold fix
 * with one unrelated hunk). A verification of a work tree whose every file — tracked, changed or
 * new — is identical to one already verified in this process, with the same command and settings,
 * is answered from that result and a copy of its artifacts. Only eval uses it: a user's run always
 * runs its tests. Timed-out, infrastructure and disk-full results are never reused (they say nothing
 * stable about the tree), and nothing outlives the process, so a reader changed by a later build of
 * Lathe never sees an old result.
 */
export class VerificationCache {
  private readonly results = new Map<string, { result: VerifyResult; artifacts: string }>();
  private readonly bareRuns = new Map<string, unknown>();

  constructor(private readonly storeDir: string) {}

  /** `verify` with reuse, and the counts of one run's calls through it. */
  wrap(verify: Verify): { verify: Verify; stats: VerificationCacheStats } {
    const stats: VerificationCacheStats = { reused: 0, ran: 0 };
    const cached: Verify = async (request) => {
      const key = await verificationKey(request, this.storeDir);
      const hit = key === null ? undefined : this.results.get(key);
      if (hit && fs.existsSync(hit.artifacts)) {
        stats.reused++;
        return reusedResult(hit.result, hit.artifacts, request.artifactRoot);
      }
      const result = await verify(request);
      stats.ran++;
      if (key !== null && isStable(result)) {
        const artifacts = path.join(this.storeDir, crypto.createHash('sha256').update(key).digest('hex').slice(0, 24));
        fs.rmSync(artifacts, { recursive: true, force: true });
        fs.cpSync(result.artifactDir, artifacts, { recursive: true });
        this.results.set(key, { result, artifacts });
      }
      return result;
    };
    return { verify: cached, stats };
  }

  async bare<T extends { timed_out: boolean }>(key: string, run: () => Promise<T>): Promise<T> {
    const known = this.bareRuns.get(key) as T | undefined;
    if (known) return known;
    const result = await run();
    if (!result.timed_out) this.bareRuns.set(key, result);
    return result;
  }
}

/** The judge's bare run of a tree (`key`: repository, tree id and command) run once per process; a timed-out one is not kept. */
export async function reusedBareRun<T extends { timed_out: boolean }>(
  cache: VerificationCache | undefined,
  key: string | null,
  run: () => Promise<T>,
): Promise<T> {
  return cache && key !== null ? cache.bare(key, run) : run();
}

function isStable(result: VerifyResult): boolean {
  return (
    (result.status === 'PASS' || result.status === 'FAIL') &&
    !result.timedOut &&
    !result.diskFull &&
    result.signal === null
  );
}

/**
 * The work tree's content as a git tree id (the run's index copied, so only changed files are hashed;
 * untracked files added, deleted ones dropped), plus the repository it belongs to and every request
 * setting that changes what runs. Null when git cannot say, or when the request names a commit the
 * work tree is not at (the checkout fallback would test that commit instead).
 */
export async function verificationKey(request: VerifyRequest, scratchRoot: string): Promise<string | null> {
  const dir = request.workDir;
  const git = async (args: string[], env?: NodeJS.ProcessEnv) => {
    const result = await runNativeGit(dir, args, env ? { env } : {});
    return result.code === 0 ? result.stdout.trim() : null;
  };
  const [head, indexFile, commonDir] = await Promise.all([
    git(['rev-parse', 'HEAD']),
    git(['rev-parse', '--path-format=absolute', '--git-path', 'index']),
    git(['rev-parse', '--path-format=absolute', '--git-common-dir']),
  ]);
  if (!head || !indexFile || !commonDir) return null;
  if (request.commit && request.commit !== head) return null;
  fs.mkdirSync(scratchRoot, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(scratchRoot, 'tree-key-'));
  try {
    const tempIndex = path.join(scratch, 'index');
    if (fs.existsSync(indexFile)) {
      fs.copyFileSync(indexFile, tempIndex);
      // git re-reads an entry written in the same second as its index ("racily clean"): the copy keeps the
      // index's own time, else a file rewritten at the same size that second would be taken as unchanged.
      const { atime, mtime } = fs.statSync(indexFile);
      fs.utimesSync(tempIndex, atime, mtime);
    }
    const env = { GIT_INDEX_FILE: tempIndex };
    if ((await git(['add', '-A', '--', '.'], env)) === null) return null;
    const tree = await git(['write-tree'], env);
    if (!tree) return null;
    const settings = {
      argv: request.argv,
      buildArgv: request.buildArgv ?? null,
      env: request.env ?? null,
      timeoutMs: request.timeoutMs,
      isolation: request.isolation ?? 'auto',
      readPaths: request.readPaths ?? null,
      coverageFor: request.coverageFor ?? null,
      writableWorkDir: request.writableWorkDir ?? null,
      maxProcesses: request.maxProcesses ?? null,
    };
    return JSON.stringify({ repo: commonDir, tree, settings });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The earlier result under a new verify run id, its artifacts copied to where this request keeps them. */
function reusedResult(result: VerifyResult, artifacts: string, artifactRoot: string): VerifyResult {
  const verifyRunId = newVerifyRunId();
  const artifactDir = createArtifactDir(artifactRoot, verifyRunId);
  fs.cpSync(artifacts, artifactDir, { recursive: true });
  const moved = (file: string) =>
    file.startsWith(result.artifactDir) ? path.join(artifactDir, path.relative(result.artifactDir, file)) : file;
  return {
    ...result,
    verifyRunId,
    artifactDir,
    logPath: moved(result.logPath),
    manifestPath: moved(result.manifestPath),
    build: result.build && { ...result.build, logPath: moved(result.build.logPath) },
  };
}
