import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A test suite may run this many processes at once; a fork bomb stops here. */
export const DEFAULT_MAX_PROCESSES = 512;

export interface ProcessCap {
  /** How the cap is enforced, for the result's isolation detail. */
  detail: string;
  /** Whether `wrap` applies to the command inside the sandbox rather than around the sandbox. */
  inside: boolean;
  /** Whether every descendant stays inside the cap (a cgroup: setsid does not leave it), so `release` kills them all. */
  contains: boolean;
  /** argv that runs `argv` under the cap. */
  wrap(argv: string[]): string[];
  /** Kills whatever is left inside the cap and removes it. */
  release(): Promise<void>;
}

const CGROUP_ROOTS = ['/sys/fs/cgroup/pids', '/sys/fs/cgroup'];

let pidsRoot: string | null | undefined;
/** A pids cgroup Lathe may create children in (root on Linux, v1 `pids` or v2 with the pids controller); looked up once. */
function writablePidsRoot(): string | null {
  pidsRoot ??= findPidsRoot();
  return pidsRoot;
}

function findPidsRoot(): string | null {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return null;
  for (const root of CGROUP_ROOTS) {
    const hasPids =
      fs.existsSync(path.join(root, 'pids.max')) ||
      (fs.existsSync(path.join(root, 'cgroup.subtree_control')) &&
        fs.readFileSync(path.join(root, 'cgroup.subtree_control'), 'utf8').includes('pids'));
    const isV1Pids = root.endsWith('/pids') && fs.existsSync(path.join(root, 'tasks'));
    if (!hasPids && !isV1Pids) continue;
    try {
      fs.accessSync(root, fs.constants.W_OK);
      return root;
    } catch {
      // catch-ok: read-only here, so the next cgroup root is tried
    }
  }
  return null;
}

/** The user's tasks: RLIMIT_NPROC counts threads, so a desktop's many-threaded apps count too. */
export function countTasksOf(uid: number): number {
  let count = 0;
  const owner = new RegExp(`^Uid:\\s+${uid}\\s`, 'm');
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = fs.readFileSync(`/proc/${name}/status`, 'utf8');
      if (owner.test(status)) count += Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 1);
    } catch {
      // catch-ok: gone meanwhile; a process that exited has no threads to count
    }
  }
  return count;
}

/**
 * Since Linux 5.14 RLIMIT_NPROC is counted per user namespace: set inside bubblewrap's own namespace
 * (a user's bwrap always makes one unless it is setuid), the limit counts only the sandbox's tasks.
 */
function nprocCountsPerNamespace(release = os.release()): boolean {
  const [major = 0, minor = 0] = release.split(/[.-]/).map(Number);
  return major > 5 || (major === 5 && minor >= 14);
}

let bwrapSetuid: boolean | undefined;
function bwrapIsSetuid(pathVariable = process.env.PATH ?? ''): boolean {
  bwrapSetuid ??= pathVariable.split(path.delimiter).some((dir) => {
    try {
      return (fs.statSync(path.join(dir, 'bwrap')).mode & 0o4000) !== 0;
    } catch {
      // catch-ok: no bwrap in this PATH folder is no setuid bwrap in it
      return false;
    }
  });
  return bwrapSetuid;
}

let prlimitPath: Promise<string | null> | undefined;
function findPrlimit(): Promise<string | null> {
  prlimitPath ??= new Promise((resolve) =>
    execFile('prlimit', ['--version'], (error) => resolve(error ? null : 'prlimit')),
  );
  return prlimitPath;
}

/**
 * Caps how many processes a test run can make. As root (CI, containers) RLIMIT_NPROC does not apply,
 * so a pids cgroup does it; as a user, `prlimit --nproc` counts the user's processes, so the limit is
 * set above what the user already runs. Without either, the run is not capped, and says so.
 */
export async function createProcessCap(
  id: string,
  maxProcesses = DEFAULT_MAX_PROCESSES,
  options: { sandboxed?: boolean } = {},
): Promise<ProcessCap> {
  const root = writablePidsRoot();
  if (root) {
    const dir = path.join(root, `lathe-${id}`);
    try {
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'pids.max'), String(maxProcesses));
      return {
        detail: `at most ${maxProcesses} processes (pids cgroup)`,
        inside: false,
        contains: true,
        // The wrapper enters the cgroup before exec, so nothing forks outside it. On cgroup v1 it moves
        // itself through `tasks` with pid 0 (a single-threaded shell: the whole process), which spares
        // the global threadgroup lock `cgroup.procs` takes — an RCU grace period, ~20 ms on a busy machine.
        wrap: (argv) => ['/bin/sh', '-c', `echo ${enterCgroup(dir)} && exec "$@"`, dir, ...argv],
        release: () => releaseCgroup(dir),
      };
    } catch {
      // catch-ok: a cgroup that cannot be set up is no cap of this kind: the next kind is tried, and the cap chosen is reported
      fs.rmSync(dir, { recursive: false, force: true });
    }
  }
  const uid = process.getuid?.();
  if (uid !== undefined && uid !== 0 && process.platform === 'linux' && (await findPrlimit())) {
    if (options.sandboxed && nprocCountsPerNamespace() && !bwrapIsSetuid()) {
      // No scan of /proc: inside the sandbox's namespace only its own tasks count.
      return {
        detail: `at most ${maxProcesses} processes (prlimit inside the sandbox)`,
        inside: true,
        contains: false,
        wrap: (argv) => ['prlimit', `--nproc=${maxProcesses}`, '--', ...argv],
        release: async () => {},
      };
    }
    const limit = countTasksOf(uid) + maxProcesses;
    return {
      detail: `at most ${maxProcesses} more processes (prlimit --nproc=${limit})`,
      inside: false,
      contains: false,
      wrap: (argv) => ['prlimit', `--nproc=${limit}`, '--', ...argv],
      release: async () => {},
    };
  }
  return {
    detail: 'no process cap on this platform',
    inside: false,
    contains: false,
    wrap: (argv) => argv,
    release: async () => {},
  };
}

function enterCgroup(dir: string): string {
  return fs.existsSync(path.join(dir, 'tasks')) ? '0 > "$0/tasks"' : '$$ > "$0/cgroup.procs"';
}

/**
 * Kills what is left in the cgroup and removes it. Right after the command exits its tasks may still be
 * leaving the cgroup (rmdir says EBUSY), so it looks again after 1, 2, 4, 8, 16, then every 20 ms.
 */
async function releaseCgroup(dir: string): Promise<void> {
  for (let round = 0; round < 60; round++) {
    const pids = fs.existsSync(path.join(dir, 'cgroup.procs'))
      ? fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number)
      : [];
    if (pids.length === 0) {
      try {
        fs.rmdirSync(dir);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        // EBUSY: a task still on its way out.
      }
    }
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // catch-ok: already gone (ESRCH); a process not ours cannot be killed by us either
      }
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(20, 2 ** round)));
  }
  // Still busy after ~1 s: the empty cgroup is harmless and named by its run.
}
