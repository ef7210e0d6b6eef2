import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IsolationLevel, VerifyRequest } from './types';
import { makeTemporaryCheckout, type TemporaryCheckout } from './checkout';
import { bwrapArgv, isLinkedWorktree, probeSandbox, readOnlyRootsFor, SANDBOX_TMP_BYTES } from './sandbox';
import { sandboxView, TOOLCHAIN_VARS } from './sandboxView';
import { guardOfFreshCheckout, guardWorkDir, type WorkDirGuard } from './workDirGuard';

/** Where and how the commands run. */
export interface IsolationPlan {
  level: IsolationLevel;
  detail: string;
  runDir: string;
  checkout: TemporaryCheckout | null;
  /** Set when the commands may write in `runDir`: the state to put back afterwards. */
  guard: WorkDirGuard | null;
  /** bubblewrap only: what is bound read-only, and whether the work dir is writable. */
  readOnly: string[];
  /** bubblewrap only: the user's extra read-only paths (`policies.sandbox.read_paths`). */
  readPaths: string[];
  /** bubblewrap only: the private /tmp's size, null when this bubblewrap cannot cap it. */
  tmpBytes: number | null;
}

function sandboxDetail(request: VerifyRequest, capsTmp: boolean): string {
  const tmp = capsTmp
    ? `a private /tmp of ${SANDBOX_TMP_BYTES / 1024 / 1024} MB`
    : 'a private /tmp (not size-capped: bubblewrap older than 0.5)';
  const paths = request.readPaths ?? [];
  const missing = paths.filter((entry) => !fs.existsSync(entry));
  const extra =
    paths.length > 0
      ? `; also shown read-only (policies.sandbox.read_paths): ${paths.join(', ')}${missing.length > 0 ? ` (not found: ${missing.join(', ')})` : ''}`
      : '';
  return `bubblewrap: only the system, the toolchains on PATH, the repository and the run are visible (no home folder, no host sockets), network cut, ${tmp} with an empty HOME, own PID namespace${extra}`;
}

async function writableWanted(request: VerifyRequest, workDir: string): Promise<{ wanted: boolean; why: string }> {
  if (request.writableWorkDir !== undefined) return { wanted: request.writableWorkDir, why: 'as requested' };
  if (isLinkedWorktree(workDir)) return { wanted: true, why: 'the run’s own worktree' };
  return { wanted: false, why: 'not a linked worktree (a main checkout is the user’s own and is never written)' };
}

/** Guards `dir` for writing; a reason instead when its state cannot be read or kept. */
async function guardFor(request: VerifyRequest, dir: string, artifactDir: string): Promise<WorkDirGuard | string> {
  const guard = await guardWorkDir(dir, [artifactDir], request.workTreeAt ? { vouchedHead: request.workTreeAt } : {});
  if (!guard) return 'git cannot read its state, so what the commands write could not be undone';
  if ('refused' in guard) return guard.refused;
  return guard;
}

/** Decides the isolation; for bubblewrap also whether the work dir is writable and what stays read-only. */
export async function planIsolation(
  request: VerifyRequest,
  workDir: string,
  artifactDir: string,
): Promise<IsolationPlan | { error: string; level: IsolationLevel }> {
  const wanted = request.isolation ?? 'auto';
  if (wanted === 'none') {
    const writable = await writableWanted(request, workDir);
    const guard = writable.wanted ? await guardFor(request, workDir, artifactDir) : null;
    const undo =
      guard && typeof guard !== 'string' ? '; what the commands write in the work tree is undone after the run' : '';
    return {
      level: 'none',
      detail: `no isolation (requested): ran directly in the work folder${undo}`,
      runDir: workDir,
      checkout: null,
      guard: typeof guard === 'string' ? null : guard,
      readOnly: [],
      readPaths: [],
      tmpBytes: null,
    };
  }
  let why = 'checkout isolation was requested';
  if (wanted === 'bwrap' || wanted === 'auto') {
    const probe = await probeSandbox();
    if (probe.available) return planSandbox(request, workDir, artifactDir, probe.capsTmp);
    if (wanted === 'bwrap') return { error: `the sandbox is not available: ${probe.detail}`, level: 'bwrap' };
    why = probe.detail;
  }
  let checkout: TemporaryCheckout;
  try {
    checkout = await makeTemporaryCheckout(workDir, request.commit ?? null);
  } catch (error) {
    return {
      error: `could not make a temporary checkout${request.commit ? ` of ${request.commit.slice(0, 12)}` : ''}: ${(error as Error).message}`,
      level: 'checkout',
    };
  }
  // The copy is thrown away; the guard only finds what the commands wrote there, for the same report.
  const guard = checkout.commit
    ? guardOfFreshCheckout(checkout.dir, checkout.commit, checkout.links, [artifactDir])
    : null;
  const detail = `reduced isolation (${why}): ran in ${checkout.description} of its own, so the repository, its git data and the candidate cannot be written; the network, $HOME and the rest of the file system are NOT cut off`;
  return {
    level: 'checkout',
    detail,
    runDir: checkout.dir,
    checkout,
    guard,
    readOnly: [],
    readPaths: [],
    tmpBytes: null,
  };
}

async function planSandbox(
  request: VerifyRequest,
  workDir: string,
  artifactDir: string,
  capsTmp: boolean,
): Promise<IsolationPlan> {
  const writable = await writableWanted(request, workDir);
  const guard = writable.wanted ? await guardFor(request, workDir, artifactDir) : null;
  const sandbox = {
    level: 'bwrap' as const,
    runDir: workDir,
    checkout: null,
    readPaths: request.readPaths ?? [],
    tmpBytes: capsTmp ? SANDBOX_TMP_BYTES : null,
  };
  const shown = sandboxDetail(request, capsTmp);
  if (guard && typeof guard !== 'string') {
    const detail = `${shown}; the run's work tree is writable (${writable.why}) and what the commands write there is undone after the run; its git data, uncommitted files and the repository are read-only`;
    return { ...sandbox, detail, guard, readOnly: guard.readOnlyRoots };
  }
  const because = typeof guard === 'string' ? guard : writable.why;
  const detail = `${shown}; the work folder is read-only (${because}); only ARTIFACT_DIR is writable`;
  return { ...sandbox, detail, guard: null, readOnly: readOnlyRootsFor(workDir) };
}

/** The command line that runs `argv` under the plan (and the process cap, inside or around the sandbox). */
export function commandLine(
  plan: IsolationPlan,
  argv: string[],
  artifactDir: string,
  env: Record<string, string>,
  cap: { inside: boolean; wrap(argv: string[]): string[] },
): string[] {
  if (plan.level !== 'bwrap') return cap.wrap(argv);
  const inner = cap.inside ? cap.wrap(argv) : argv;
  const view = sandboxView({
    env,
    commands: [argv],
    cwd: plan.runDir,
    readPaths: plan.readPaths,
    shown: [plan.runDir, ...plan.readOnly, artifactDir],
  });
  const sandboxed = bwrapArgv({
    readOnly: plan.readOnly,
    writableWorkDir: plan.guard ? plan.runDir : null,
    protect: plan.guard?.protect ?? [],
    writableInside: plan.guard?.writableInside ?? [],
    writable: artifactDir,
    view,
    tmpBytes: plan.tmpBytes,
    cwd: plan.runDir,
    argv: inner,
  });
  return cap.inside ? sandboxed : cap.wrap(sandboxed);
}

/** Where version managers live by default, under the real home (which the tests never see). */
const TOOLCHAIN_DEFAULTS: Partial<Record<(typeof TOOLCHAIN_VARS)[number], string>> = {
  RUSTUP_HOME: '.rustup',
  CARGO_HOME: '.cargo',
  PYENV_ROOT: '.pyenv',
  NVM_DIR: '.nvm',
  GOMODCACHE: 'go/pkg/mod',
};

/**
 * rustup's `cargo` and pyenv's `python3` are shims that find their toolchain under the user's home;
 * with the tests' HOME replaced they would stop working, so their homes are named explicitly (and
 * shown read-only in the sandbox, sandboxView.ts).
 */
export function toolchainEnv(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): Record<string, string> {
  const found: Record<string, string> = {};
  for (const name of TOOLCHAIN_VARS) {
    const value =
      env[name] ??
      (TOOLCHAIN_DEFAULTS[name] && fs.existsSync(path.join(home, TOOLCHAIN_DEFAULTS[name]))
        ? path.join(home, TOOLCHAIN_DEFAULTS[name])
        : undefined);
    if (value) found[name] = value;
  }
  return found;
}

/** The environment every command gets: nothing of the user's but PATH, caches and HOME pointed at private places. */
export function cleanEnv(
  request: VerifyRequest,
  artifactDir: string,
  level: IsolationLevel,
  extra: Record<string, string>,
): Record<string, string> {
  const home = level === 'bwrap' ? '/tmp/home' : path.join(artifactDir, 'tmp', 'home');
  return {
    ...toolchainEnv(),
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    TMPDIR: level === 'bwrap' ? '/tmp' : path.join(artifactDir, 'tmp'),
    LANG: 'C.UTF-8',
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONUNBUFFERED: '1',
    CI: 'true',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    XDG_CACHE_HOME: path.join(artifactDir, 'cache'),
    npm_config_cache: path.join(artifactDir, 'cache', 'npm'),
    npm_config_update_notifier: 'false',
    ARTIFACT_DIR: artifactDir,
    ...extra,
    ...request.env,
  };
}
