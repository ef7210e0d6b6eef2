import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** A test suite may run this many processes at once; a fork bomb stops here. */
export const DEFAULT_MAX_PROCESSES = 512;

export interface ProcessCap {
  /** How the cap is enforced, for the result's isolation detail. */
  detail: string;
  /** argv that runs `argv` under the cap. */
  wrap(argv: string[]): string[];
  /** Kills whatever is left inside the cap and removes it. */
  release(): Promise<void>;
}

const CGROUP_ROOTS = ['/sys/fs/cgroup/pids', '/sys/fs/cgroup'];

/** A pids cgroup Lathe may create children in (root on Linux, v1 `pids` or v2 with the pids controller). */
function writablePidsRoot(): string | null {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return null;
  for (const root of CGROUP_ROOTS) {
    const hasPids = fs.existsSync(path.join(root, 'pids.max')) || (fs.existsSync(path.join(root, 'cgroup.subtree_control')) && fs.readFileSync(path.join(root, 'cgroup.subtree_control'), 'utf8').includes('pids'));
    const isV1Pids = root.endsWith('/pids') && fs.existsSync(path.join(root, 'tasks'));
    if (!hasPids && !isV1Pids) continue;
    try {
      fs.accessSync(root, fs.constants.W_OK);
      return root;
    } catch {
      // Read-only here.
    }
  }
  return null;
}

function countProcessesOf(uid: number): number {
  let count = 0;
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = fs.readFileSync(`/proc/${name}/status`, 'utf8');
      if (new RegExp(`^Uid:\\s+${uid}\\s`, 'm').test(status)) count++;
    } catch {
      // Gone meanwhile.
    }
  }
  return count;
}

let prlimitPath: Promise<string | null> | undefined;
function findPrlimit(): Promise<string | null> {
  prlimitPath ??= new Promise((resolve) => execFile('prlimit', ['--version'], (error) => resolve(error ? null : 'prlimit')));
  return prlimitPath;
}

/**
 * Caps how many processes a test run can make. As root (CI, containers) RLIMIT_NPROC does not apply,
 * so a pids cgroup does it; as a user, `prlimit --nproc` counts the user's processes, so the limit is
 * set above what the user already runs. Without either, the run is not capped, and says so.
 */
export async function createProcessCap(id: string, maxProcesses = DEFAULT_MAX_PROCESSES): Promise<ProcessCap> {
  const root = writablePidsRoot();
  if (root) {
    const dir = path.join(root, `lathe-${id}`);
    try {
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'pids.max'), String(maxProcesses));
      return {
        detail: `at most ${maxProcesses} processes (pids cgroup)`,
        // The wrapper enters the cgroup before exec, so nothing forks outside it.
        wrap: (argv) => ['/bin/sh', '-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', dir, ...argv],
        release: () => releaseCgroup(dir),
      };
    } catch {
      fs.rmSync(dir, { recursive: false, force: true });
    }
  }
  const uid = process.getuid?.();
  if (uid !== undefined && uid !== 0 && process.platform === 'linux' && (await findPrlimit())) {
    const limit = countProcessesOf(uid) + maxProcesses;
    return { detail: `at most ${maxProcesses} more processes (prlimit --nproc=${limit})`, wrap: (argv) => ['prlimit', `--nproc=${limit}`, '--', ...argv], release: async () => {} };
  }
  return { detail: 'no process cap on this platform', wrap: (argv) => argv, release: async () => {} };
}

async function releaseCgroup(dir: string): Promise<void> {
  for (let round = 0; round < 50; round++) {
    const pids = fs.existsSync(path.join(dir, 'cgroup.procs')) ? fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number) : [];
    if (pids.length === 0) break;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  try {
    fs.rmdirSync(dir);
  } catch {
    // A process still exiting; the empty cgroup is harmless and named by its run.
  }
}
