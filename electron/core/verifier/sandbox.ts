import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SandboxView } from './sandboxView';

export interface SandboxProbe {
  available: boolean;
  detail: string;
  /** Whether this bubblewrap can cap a tmpfs's size (`--size`, bubblewrap 0.5 and later). */
  capsTmp: boolean;
}

let probed: Promise<SandboxProbe> | undefined;

/** Whether bubblewrap works here (installed, and user namespaces allowed); probed once per process. */
export function probeSandbox(): Promise<SandboxProbe> {
  probed ??= runProbe();
  return probed;
}

/** Forgets the probe (tests, or after the user installed bubblewrap). */
export function resetSandboxProbe(): void {
  probed = undefined;
}

async function runProbe(): Promise<SandboxProbe> {
  if (process.platform !== 'linux')
    return { available: false, detail: `bubblewrap is Linux-only (this is ${process.platform})`, capsTmp: false };
  const capped = await tryBwrap(true);
  if (capped.ok)
    return {
      available: true,
      detail:
        'bubblewrap works: only the system, toolchains and the run are visible, private capped /tmp, no network, own PID namespace',
      capsTmp: true,
    };
  if (!/size/i.test(capped.detail)) return { available: false, detail: capped.detail, capsTmp: false };
  const plain = await tryBwrap(false);
  if (!plain.ok) return { available: false, detail: plain.detail, capsTmp: false };
  return {
    available: true,
    detail: 'bubblewrap works, but this version cannot cap the private /tmp (--size needs bubblewrap 0.5 or later)',
    capsTmp: false,
  };
}

function tryBwrap(withSize: boolean): Promise<{ ok: boolean; detail: string }> {
  const args = [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    ...(withSize ? ['--size', '1048576'] : []),
    '--tmpfs',
    '/tmp',
    '--unshare-net',
    '--unshare-pid',
    '--die-with-parent',
    '--new-session',
    'true',
  ];
  return new Promise((resolve) => {
    let stderr = '';
    const child = spawn('bwrap', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ ok: false, detail: 'bubblewrap did not answer within 5 s' });
    }, 5000);
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({
        ok: false,
        detail:
          error.code === 'ENOENT'
            ? 'bubblewrap (bwrap) is not installed'
            : `bubblewrap failed to start: ${error.message}`,
      });
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(
        code === 0
          ? { ok: true, detail: '' }
          : {
              ok: false,
              detail: `bubblewrap is refused here (exit ${code}): ${stderr.trim().slice(0, 300) || 'user namespaces may be disabled (AppArmor, sysctl)'}`,
            },
      );
    });
  });
}

export interface BwrapLayout {
  /** Folders bound read-only (the work dir or its repository, git data, linked deps). */
  readOnly: string[];
  /** The run's own work tree, bound writable over them; null keeps it read-only. */
  writableWorkDir: string | null;
  /** Absolute paths inside the writable work dir bound read-only again (git data, uncommitted files, dependency folders). */
  protect: string[];
  /** Absolute paths inside `protect` bound writable again (a dependency folder's own caches). */
  writableInside?: string[];
  /** ARTIFACT_DIR, writable. */
  writable: string;
  /** The system, /etc and toolchains the command is shown (sandboxView.ts). */
  view: SandboxView;
  /** The private /tmp's size; null when this bubblewrap cannot cap it (before 0.5). */
  tmpBytes: number | null;
  cwd: string;
  argv: string[];
}

/** The private /tmp (HOME lives in it) and /dev/shm: memory, so capped. */
export const SANDBOX_TMP_BYTES = 512 * 1024 * 1024;
export const SANDBOX_SHM_BYTES = 64 * 1024 * 1024;

/**
 * The bubblewrap command line. Nothing of the host is there unless named: the system and its /etc
 * (read-only), a private /dev, /proc of the sandbox's own PID namespace, a private capped /tmp with an
 * empty HOME, then the toolchains, the user's read paths and the repo's folders read-only (after
 * /tmp, which would hide any under it), then the run's work tree writable, what inside it must stay
 * read-only, ARTIFACT_DIR writable last so it wins even inside the repo; the root itself read-only.
 */
export function bwrapArgv(layout: BwrapLayout): string[] {
  // --cap-drop ALL: bwrap run by root makes no user namespace and would leave the command every
  // capability, enough to mount over anything; a user's bwrap drops them anyway. The network
  // namespace also takes away the host's abstract Unix sockets (they belong to a network namespace).
  const args = [
    'bwrap',
    '--die-with-parent',
    '--new-session',
    '--unshare-net',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--cap-drop',
    'ALL',
  ];
  const { view } = layout;
  const underTmp = (dir: string) => dir === '/tmp' || dir.startsWith('/tmp/');
  for (const dir of minimalRoots(view.readOnly.filter((dir) => !underTmp(dir)))) args.push('--ro-bind-try', dir, dir);
  for (const link of view.links) args.push('--symlink', link.target, link.path);
  args.push('--dev', '/dev', '--proc', '/proc');
  args.push(...sized(layout.tmpBytes === null ? null : SANDBOX_SHM_BYTES), '--tmpfs', '/dev/shm');
  args.push(...sized(layout.tmpBytes), '--tmpfs', '/tmp', '--dir', '/tmp/home', '--symlink', '/tmp', '/var/tmp');
  const shown = [...view.readOnly.filter(underTmp), ...layout.readOnly, ...lathesOwnFiles()];
  for (const dir of minimalRoots(shown)) args.push('--ro-bind', dir, dir);
  for (const file of view.masked) args.push('--ro-bind', '/dev/null', file);
  if (layout.writableWorkDir) {
    args.push('--bind', layout.writableWorkDir, layout.writableWorkDir);
    for (const entry of minimalRoots(layout.protect)) args.push('--ro-bind', entry, entry);
    for (const entry of layout.writableInside ?? []) args.push('--bind', entry, entry);
  }
  args.push(
    '--bind',
    layout.writable,
    layout.writable,
    '--remount-ro',
    '/',
    '--chdir',
    layout.cwd,
    '--',
    ...layout.argv,
  );
  return args;
}

function sized(bytes: number | null): string[] {
  return bytes === null ? [] : ['--size', String(bytes)];
}

let ownRoot: string | undefined;

/**
 * Lathe's own folder, read-only: the runners it ships (its mocha, jest) may be what the command
 * runs. It holds Lathe's code and packages, nothing of the user's.
 */
export function lathesOwnFiles(): string[] {
  if (ownRoot === undefined) {
    let dir = path.dirname(fileURLToPath(import.meta.url));
    while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
    ownRoot = realpathOr(dir);
  }
  return [ownRoot];
}

/** Drops folders already inside another listed folder; parents first. */
function minimalRoots(dirs: string[]): string[] {
  const unique = [...new Set(dirs.map((dir) => path.resolve(dir)))].sort();
  return unique.filter((dir, index) => !unique.slice(0, index).some((parent) => dir.startsWith(`${parent}/`)));
}

function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch {
    // catch-ok: a git root that cannot be looked at is not bound writable: the sandbox fails closed (decision 75)
    return null;
  }
}

function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    // catch-ok: a git pointer that cannot be read is not followed: the sandbox fails closed (decision 75)
    return null;
  }
}

function realpathOr(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    // catch-ok: a path that cannot be resolved is bound as given; bubblewrap refuses one that is not there
    return file;
  }
}

// The helpers below make a few tiny synchronous calls: on a busy machine a thread-pool round trip
// each would cost more than the calls themselves, and they sit on every verify's fixed cost.
export function gitDirsOf(workDir: string): { gitDir: string; commonDir: string; dotGitIsFile: boolean } | null {
  const dotGit = path.join(workDir, '.git');
  const stat = lstatOrNull(dotGit);
  if (!stat) return null;
  let gitDir = dotGit;
  if (stat.isFile()) {
    const pointer = /^gitdir: (.+)$/m.exec(readOrNull(dotGit) ?? '')?.[1]?.trim();
    if (!pointer) return null;
    gitDir = path.resolve(workDir, pointer);
  }
  const commonPointer = readOrNull(path.join(gitDir, 'commondir'));
  const commonDir = commonPointer ? path.resolve(gitDir, commonPointer.trim()) : gitDir;
  return { gitDir, commonDir, dotGitIsFile: stat.isFile() };
}

/**
 * The folders that hold a work tree's git data, found from its `.git` (folder or `gitdir:` file) and
 * `commondir` the way git does: its own git dir, the common dir, and the main checkout when the common
 * dir is a `.git` folder. Wherever the work tree lives, these are what must stay read-only.
 */
export function gitRootsFor(workDir: string): string[] {
  const dirs = gitDirsOf(workDir);
  if (!dirs) return [];
  const roots = [dirs.gitDir, dirs.commonDir];
  if (path.basename(dirs.commonDir) === '.git') roots.push(path.dirname(dirs.commonDir));
  return [...new Set(roots)].map(realpathOr);
}

/** Whether `workDir` is a linked git worktree: a `.git` file pointing at a git dir that has a `commondir`. */
export function isLinkedWorktree(workDir: string): boolean {
  const dirs = gitDirsOf(workDir);
  return dirs !== null && dirs.dotGitIsFile && dirs.gitDir !== dirs.commonDir;
}

/**
 * What must be visible read-only inside the sandbox for a work dir kept read-only: itself, the
 * repository it belongs to, and what its top-level symlinks (linked dependency folders) point to.
 */
export function readOnlyRootsFor(workDir: string): string[] {
  const roots = [realpathOr(workDir), ...gitRootsFor(workDir)];
  let entries: fs.Dirent[] = [];
  try {
    entries = fs.readdirSync(workDir, { withFileTypes: true });
  } catch {
    // catch-ok: Not readable: nothing linked to show.
  }
  for (const entry of entries) {
    if (!entry.isSymbolicLink()) continue;
    const target = realpathOr(path.join(workDir, entry.name));
    if (target !== path.join(workDir, entry.name)) roots.push(target);
  }
  return roots;
}
