import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LatheError } from '../../../../shared/errors';
import { runNativeGit } from '../../git/nativeGit';
import { AUTO_SETUP, planInstall } from '../../setup/installCommand';
import { describeRestored, isLockfile, restoreTracked, setupChanges } from '../../setup/setupGuard';
import type { CorpusTask } from './corpusTasks';
import { materializeCorpusTask } from './materialize';
import { isMissing } from '../../fsErrors';

export interface PreparedRepo {
  /** The task's starting repository, set up (dependencies installed) as its user would have it. */
  dir: string;
  /** The cache folder holding `dir`, where results about the task can be kept beside it. */
  home: string;
  /** The starting commit on `main`. */
  commit: string;
  /** Whether this call materialised and set it up, or found it ready. */
  reused: boolean;
  setupMs: number;
  /** What the setup did that the task does not say: the install `auto` chose, lockfiles it rewrote and Lathe restored. */
  setupNote: string | null;
}

const RECORD = 'prepared.json';

interface PreparedRecord {
  task: string;
  commit: string;
  setup_command: string;
  setup_ms: number;
  node: string;
  setup_note?: string | null;
}

/** Where prepared task repositories are kept between runs: `LATHE_CORPUS_CACHE`, else a folder in the temp dir. */
export function defaultCorpusCache(env: NodeJS.ProcessEnv = process.env): string {
  return env.LATHE_CORPUS_CACHE
    ? path.resolve(env.LATHE_CORPUS_CACHE)
    : path.join(os.tmpdir(), `lathe-corpus-cache-${os.userInfo().uid}`);
}

function recordKey(task: CorpusTask): string {
  return crypto
    .createHash('sha256')
    .update(
      `${task.id}\0${task.fix_commit}\0${task.parent_commit}\0${task.revert_files.join('\0')}\0${task.setup_command ?? ''}`,
    )
    .digest('hex')
    .slice(0, 16);
}

/**
 * The task's repository, materialised and set up once per machine and reused after: runs make
 * branches (and undo them) but never change `main` or the checkout, so one prepared repository serves
 * every workflow and edit format. A checkout found dirty or moved is prepared again.
 */
export async function preparedTaskRepo(
  corpusDir: string,
  task: CorpusTask,
  options: { cacheDir?: string; setupTimeoutMs?: number; signal?: AbortSignal } = {},
): Promise<PreparedRepo> {
  const cacheDir = options.cacheDir ?? defaultCorpusCache();
  const home = path.join(cacheDir, `${task.id}-${recordKey(task)}`);
  fs.mkdirSync(cacheDir, { recursive: true });
  const release = await lock(`${home}.lock`, options.signal);
  try {
    return await prepareLocked(corpusDir, task, home, options);
  } finally {
    release();
  }
}

async function prepareLocked(
  corpusDir: string,
  task: CorpusTask,
  home: string,
  options: { setupTimeoutMs?: number; signal?: AbortSignal },
): Promise<PreparedRepo> {
  const dir = path.join(home, 'repo');
  const ready = await readyRecord(home, dir);
  if (ready)
    return {
      dir,
      home,
      commit: ready.commit,
      reused: true,
      setupMs: ready.setup_ms,
      setupNote: ready.setup_note ?? null,
    };

  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  const { commit } = await materializeCorpusTask(corpusDir, task, dir);
  const started = Date.now();
  const asked = (task.setup_command ?? '').trim();
  const auto = asked === AUTO_SETUP ? planInstall(dir) : null;
  if (auto?.manager && !auto.argv)
    throw new LatheError('CORPUS_SETUP_FAILED', `task ${task.id}: setup \`auto\`: ${auto.reason}`, { task: task.id });
  const setup = auto ? (auto.argv ?? []).join(' ') : asked;
  let setupNote = auto ? auto.reason : null;
  if (setup) {
    const log = path.join(home, 'setup.log');
    const result = await runShell(setup, dir, log, options.setupTimeoutMs ?? 15 * 60_000, options.signal);
    if (result !== 0) {
      const tail = fs.readFileSync(log, 'utf8').split('\n').slice(-20).join('\n');
      throw new LatheError(
        'CORPUS_SETUP_FAILED',
        `task ${task.id}: setup \`${setup}\` exited ${result}; last lines:\n${tail}`,
        { task: task.id, log },
      );
    }
    if (/\bnpm\b|\bpnpm\b|\byarn\b/.test(setup) && missingPackages(dir)) {
      throw new LatheError(
        'CORPUS_SETUP_FAILED',
        `task ${task.id}: setup \`${setup}\` exited 0 but installed no node_modules for the packages package.json declares (see ${path.join(home, 'setup.log')})`,
        { task: task.id },
      );
    }
    const restored = await ignoreSetupOutputs(dir, task, setup);
    if (restored) {
      setupNote = [setupNote, restored].filter(Boolean).join('; ');
      fs.appendFileSync(path.join(home, 'setup.log'), `\n[lathe] ${restored}\n`);
    }
  }
  const record: PreparedRecord = {
    task: task.id,
    commit,
    setup_command: asked,
    setup_ms: Date.now() - started,
    node: process.version,
    setup_note: setupNote,
  };
  fs.writeFileSync(path.join(home, RECORD), `${JSON.stringify(record, null, 2)}\n`);
  return { dir, home, commit, reused: false, setupMs: record.setup_ms, setupNote };
}

/**
 * One preparer per task at a time, across processes (parallel eval jobs, several test files): a lock
 * folder holding the owner's pid; a lock whose owner is gone is taken over.
 */
async function lock(lockDir: string, signal?: AbortSignal): Promise<() => void> {
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      return () => fs.rmSync(lockDir, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // The pid is written just after the folder is made: an unreadable one means "being taken", so wait.
    const owner = readOwner(lockDir);
    if (owner !== null && !isAlive(owner)) {
      fs.rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (signal?.aborted) throw new LatheError('ABORTED', 'stopped while waiting for another preparation of the task');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function readOwner(lockDir: string): number | null {
  try {
    const pid = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch (error) {
    // No pid written yet: the lock's owner is still starting, or died before it wrote one.
    if (isMissing(error)) return null;
    throw error;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readyRecord(home: string, dir: string): Promise<PreparedRecord | null> {
  let record: PreparedRecord;
  try {
    record = JSON.parse(fs.readFileSync(path.join(home, RECORD), 'utf8')) as PreparedRecord;
  } catch (error) {
    // Never prepared, or a record cut off by a kill: prepare again.
    if (isMissing(error) || error instanceof SyntaxError) return null;
    throw error;
  }
  if (record.node !== process.version) return null;
  // catch-ok: git that cannot start means not prepared; preparing again reports it
  const head = await runNativeGit(dir, ['rev-parse', '-q', '--verify', 'refs/heads/main']).catch(() => null);
  if (head?.code !== 0 || head.stdout.trim() !== record.commit) return null;
  // catch-ok: git that cannot start means not prepared; preparing again reports it
  const status = await runNativeGit(dir, ['status', '--porcelain']).catch(() => null);
  if (record.setup_command && /\bnpm\b|\bpnpm\b|\byarn\b|^auto$/.test(record.setup_command) && missingPackages(dir))
    return null;
  return status?.code === 0 && status.stdout.trim() === '' ? record : null;
}

/**
 * Files the setup wrote that the repository does not ignore (a lock file npm creates) are what a
 * user would ignore or commit; here they go to `.git/info/exclude`, so the checkout starts clean.
 * A tracked lockfile the installer rewrote (`npm install` on a repository with package-lock.json) is
 * put back and named in the returned note: the installed packages stay, the starting tree is the
 * task's. Any other tracked file changed is refused: the starting state would no longer be the task's,
 * and what a setup meant by changing source cannot be told.
 */
async function ignoreSetupOutputs(dir: string, task: CorpusTask, setup: string): Promise<string | null> {
  const { tracked, untracked } = await setupChanges(dir);
  const others = tracked.filter((file) => !isLockfile(file));
  if (others.length > 0)
    throw new LatheError(
      'CORPUS_SETUP_FAILED',
      `task ${task.id}: the setup changed tracked files that are not lockfiles: ${others.slice(0, 5).join(', ')}`,
      { task: task.id, files: others },
    );
  await restoreTracked(dir, tracked);
  if (untracked.length > 0) {
    const exclude = path.join(dir, '.git', 'info', 'exclude');
    fs.mkdirSync(path.dirname(exclude), { recursive: true });
    fs.appendFileSync(
      exclude,
      `\n# written by the corpus setup (${setup})\n${untracked.map((entry) => `/${entry}`).join('\n')}\n`,
    );
  }
  return tracked.length > 0 ? describeRestored(tracked) : null;
}

/**
 * The caller's environment without what changes what a package manager installs: an eval started from
 * a `NODE_ENV=production` shell, or an npm script with `omit=dev`, prepared ufo with no dev dependencies
 * at all (its test runner among them), and the cached repository then failed every run.
 */
export function setupEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept = Object.fromEntries(
    Object.entries(env).filter(
      ([name]) => !/^(NODE_ENV|npm_config_(omit|only|production|dry_run|include|global|prefix))$/i.test(name),
    ),
  );
  return { ...kept, npm_config_update_notifier: 'false' };
}

/** A JavaScript repository that declares packages must have them installed once its setup ran. */
function missingPackages(dir: string): boolean {
  let manifest: { dependencies?: object; devDependencies?: object };
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as typeof manifest;
  } catch (error) {
    // No manifest, or one npm would refuse too: no packages to miss.
    if (isMissing(error) || error instanceof SyntaxError) return false;
    throw error;
  }
  const declares =
    Object.keys(manifest.dependencies ?? {}).length + Object.keys(manifest.devDependencies ?? {}).length > 0;
  return declares && !fs.existsSync(path.join(dir, 'node_modules'));
}

function runShell(
  command: string,
  cwd: string,
  logFile: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<number> {
  return new Promise((resolve) => {
    const log = fs.openSync(logFile, 'w');
    const child = spawn('sh', ['-c', command], {
      cwd,
      stdio: ['ignore', log, log],
      detached: true,
      env: setupEnv(process.env),
    });
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // catch-ok: ESRCH, already gone; this runs from a timer, where a throw would end the process
      }
    };
    const timer = setTimeout(kill, timeoutMs);
    signal?.addEventListener('abort', kill, { once: true });
    child.on('error', () => resolve(127));
    child.on('exit', (code, killedBy) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', kill);
      fs.closeSync(log);
      resolve(code ?? (killedBy ? 128 : 1));
    });
  });
}
