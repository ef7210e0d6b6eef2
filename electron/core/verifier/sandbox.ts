import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface SandboxProbe {
  available: boolean;
  detail: string;
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
  if (process.platform !== 'linux') return { available: false, detail: `bubblewrap is Linux-only (this is ${process.platform})` };
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--unshare-net', '--unshare-pid', '--die-with-parent', '--new-session', 'true'];
  return new Promise((resolve) => {
    let stderr = '';
    const child = spawn('bwrap', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ available: false, detail: 'bubblewrap did not answer within 5 s' });
    }, 5000);
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ available: false, detail: error.code === 'ENOENT' ? 'bubblewrap (bwrap) is not installed' : `bubblewrap failed to start: ${error.message}` });
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve({ available: true, detail: 'bubblewrap works: read-only root, private /tmp, no network, own PID namespace' });
      else resolve({ available: false, detail: `bubblewrap is refused here (exit ${code}): ${stderr.trim().slice(0, 300) || 'user namespaces may be disabled (AppArmor, sysctl)'}` });
    });
  });
}

export interface BwrapLayout {
  /** Folders bound read-only over the tmpfs (the run's work dir, the repo it belongs to, linked deps). */
  readOnly: string[];
  /** The only writable place: ARTIFACT_DIR. */
  writable: string;
  cwd: string;
  argv: string[];
}

/**
 * The bubblewrap command line. Order matters: `/` read-only first, then a private `/tmp` (which
 * hides a repo that lives under /tmp), then the repo bound read-only again on top, then ARTIFACT_DIR
 * writable last so it wins even when it sits inside the repo.
 */
export function bwrapArgv(layout: BwrapLayout): string[] {
  const args = ['bwrap', '--die-with-parent', '--new-session', '--unshare-net', '--unshare-pid', '--unshare-ipc', '--unshare-uts'];
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--dir', '/tmp/home');
  for (const dir of minimalRoots(layout.readOnly)) args.push('--ro-bind', dir, dir);
  args.push('--bind', layout.writable, layout.writable, '--chdir', layout.cwd, '--', ...layout.argv);
  return args;
}

/** Drops folders already inside another listed folder; parents first. */
function minimalRoots(dirs: string[]): string[] {
  const unique = [...new Set(dirs.map((dir) => path.resolve(dir)))].sort();
  return unique.filter((dir, index) => !unique.slice(0, index).some((parent) => dir.startsWith(`${parent}/`)));
}

/**
 * What must be visible read-only inside the sandbox for a work dir: itself, the repository that
 * owns it (found through the worktree's `.git` file, wherever the worktree lives), and what its top-level
 * symlinks (linked dependency folders) point to.
 */
export async function readOnlyRootsFor(workDir: string): Promise<string[]> {
  const roots = [await fs.promises.realpath(workDir)];
  const dotGit = path.join(workDir, '.git');
  const stat = await fs.promises.lstat(dotGit).catch(() => null);
  if (stat?.isFile()) {
    const pointer = /^gitdir: (.+)$/m.exec(await fs.promises.readFile(dotGit, 'utf8'))?.[1]?.trim();
    if (pointer) {
      const gitDir = path.resolve(workDir, pointer);
      const marker = `${path.sep}.git${path.sep}`;
      const at = gitDir.indexOf(marker);
      roots.push(at === -1 ? gitDir : gitDir.slice(0, at));
    }
  }
  for (const entry of await fs.promises.readdir(workDir, { withFileTypes: true }).catch(() => [])) {
    if (!entry.isSymbolicLink()) continue;
    const target = await fs.promises.realpath(path.join(workDir, entry.name)).catch(() => null);
    if (target) roots.push(target);
  }
  return roots;
}
