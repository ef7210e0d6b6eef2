import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LatheError } from '../../../../shared/errors';
import { runNativeGit } from '../../git/nativeGit';
import { runProcess } from '../../basics/processTree';
import { parseSummaryLines } from '../../verifier/summaryLines';
import type { TestCounts } from '../../verifier/types';

/** A test command run the way its user runs it: a shell in their checkout, nothing added, nothing isolated. */
export interface BareTestResult {
  commit: string;
  exit_code: number | null;
  timed_out: boolean;
  /** From the command's own output (Lathe's parsers); null when no runner summary was recognised. */
  counts: TestCounts | null;
  duration_ms: number;
}

/** What a bare run printed, kept so its counts are read by the parsers of the Lathe reading it (a cached run stays current). */
export interface BareRun extends Omit<BareTestResult, 'counts'> {
  output: string;
}

export function bareResult(run: BareRun): BareTestResult {
  const { output, ...rest } = run;
  return { ...rest, counts: parseSummaryLines(output)?.counts ?? null };
}

async function git(dir: string, args: string[]): Promise<string> {
  const result = await runNativeGit(dir, args);
  if (result.code !== 0)
    throw new LatheError(
      'CORPUS_GIT_FAILED',
      `git ${args.join(' ')} in ${dir}: ${result.stderr.trim().slice(0, 400)}`,
      { args },
    );
  return result.stdout.trim();
}

/**
 * The fixed tree: the starting commit with the gold patch applied, as a commit of its own (fixed
 * identity, so the same id every time) under `refs/lathe-corpus/fixed`, never a branch.
 */
export async function fixedCommit(
  repoDir: string,
  start: string,
  goldPatch: string,
  scratchDir: string,
): Promise<string> {
  const existing = await runNativeGit(repoDir, ['rev-parse', '-q', '--verify', 'refs/lathe-corpus/fixed^{commit}']);
  if (existing.code === 0 && (await git(repoDir, ['rev-parse', 'refs/lathe-corpus/fixed^'])) === start)
    return existing.stdout.trim();
  fs.mkdirSync(scratchDir, { recursive: true });
  const index = path.join(scratchDir, `fixed-index-${process.pid}`);
  const patch = path.join(scratchDir, `gold-${process.pid}.patch`);
  fs.writeFileSync(patch, goldPatch.endsWith('\n') ? goldPatch : `${goldPatch}\n`);
  const env = {
    GIT_INDEX_FILE: index,
    GIT_AUTHOR_NAME: 'lathe-corpus',
    GIT_AUTHOR_EMAIL: 'corpus@lathe.invalid',
    GIT_COMMITTER_NAME: 'lathe-corpus',
    GIT_COMMITTER_EMAIL: 'corpus@lathe.invalid',
    GIT_AUTHOR_DATE: '2000-01-01T00:00:00+0000',
    GIT_COMMITTER_DATE: '2000-01-01T00:00:00+0000',
  };
  try {
    const run = async (args: string[]) => {
      const result = await runNativeGit(repoDir, args, { env });
      if (result.code !== 0)
        throw new LatheError(
          'CORPUS_GOLD_PATCH',
          `the gold patch does not apply to ${start.slice(0, 12)}: ${result.stderr.trim().slice(0, 400)}`,
          { args },
        );
      return result.stdout.trim();
    };
    await run(['read-tree', start]);
    await run(['apply', '--cached', patch]);
    const tree = await run(['write-tree']);
    const commit = await run([
      '-c',
      'commit.gpgSign=false',
      'commit-tree',
      tree,
      '-p',
      start,
      '-m',
      'gold patch (the fixed tree)',
    ]);
    await git(repoDir, ['update-ref', 'refs/lathe-corpus/fixed', commit]);
    return commit;
  } finally {
    fs.rmSync(index, { force: true });
    fs.rmSync(patch, { force: true });
  }
}

/**
 * The one thing a bare run adds, in the environment rather than the command: `go test` without `-v`
 * prints only `ok <package>`, so the fixed tree's bare run had no counts to hold Lathe's (which adds
 * `-v`) against. GOFLAGS applies a flag only to go commands that know it and changes what go prints,
 * never which tests run.
 */
export function bareEnvironment(base: NodeJS.ProcessEnv): Record<string, string> {
  const env = Object.fromEntries(
    Object.entries(base).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
  const goFlags = (env.GOFLAGS ?? '').split(/\s+/).filter(Boolean);
  return {
    ...env,
    GOFLAGS: [...goFlags.filter((flag) => !/^-v(=|$)/.test(flag)), '-v'].join(' '),
    CI: 'true',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
  };
}

/** Changes when what a bare run prints changes, so a cached bare run from before is measured again. */
export const BARE_RUN_FORM = 'goflags-v';

/** Top-level dependency folders a bare run borrows from the checkout, as one plain link each. */
const BARE_DEPENDENCIES = ['node_modules', '.venv', 'venv'];

/**
 * Runs `command` bare at `commit`: `sh -c COMMAND` in a plain detached worktree of the prepared
 * checkout (in the temp dir, so no dot-segment in its path), with the checkout's installed dependency
 * folders linked in as they are — nothing added to the command, nothing isolated. The checkout itself
 * is never moved: runs and tests may start from it at the same time.
 */
export async function runBareTests(
  repoDir: string,
  commit: string,
  command: string,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<BareRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-bare-'));
  await git(repoDir, ['worktree', 'add', '-q', '--detach', dir, commit]);
  try {
    for (const name of BARE_DEPENDENCIES) {
      if (fs.existsSync(path.join(repoDir, name)) && !fs.existsSync(path.join(dir, name)))
        fs.symlinkSync(path.join(repoDir, name), path.join(dir, name), 'dir');
    }
    const run = await runProcess({
      argv: ['sh', '-c', command],
      cwd: dir,
      env: bareEnvironment(process.env),
      timeoutMs: options.timeoutMs ?? 300_000,
      capBytes: 8 * 1024 * 1024,
      logFile: null,
      logCapBytes: 0,
      marker: `corpus-bare-${process.pid}`,
      signal: options.signal,
    });
    return {
      commit,
      exit_code: run.exitCode,
      timed_out: run.timedOut,
      duration_ms: run.durationMs,
      output: run.output,
    };
  } finally {
    await runNativeGit(repoDir, ['worktree', 'remove', '--force', dir]);
    fs.rmSync(dir, { recursive: true, force: true });
    await runNativeGit(repoDir, ['worktree', 'prune']);
  }
}

/** Same tree, same result: a run whose head holds exactly the fixed tree needs no second bare run. */
export async function sameTree(repoDir: string, a: string, b: string): Promise<boolean> {
  return (await git(repoDir, ['rev-parse', `${a}^{tree}`])) === (await git(repoDir, ['rev-parse', `${b}^{tree}`]));
}
