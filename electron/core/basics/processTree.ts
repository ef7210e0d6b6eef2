import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { OutputCapture } from './outputCapture';

export interface RunProcessOptions {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  capBytes: number;
  logFile: string | null;
  logCapBytes: number;
  /** Every process started carries `LATHE_PROCESS_MARK=<marker>`, so escaped descendants can be found. */
  marker: string;
  signal?: AbortSignal;
  /** How long SIGTERM has before SIGKILL. */
  graceMs?: number;
  /** A command that writes more than this is killed: a flood, not a test report. */
  outputLimitBytes?: number;
  /**
   * Look for marked processes left behind after the command exited (default true). A caller whose
   * command cannot leave any (bubblewrap's PID namespace dies with it) skips the /proc scan.
   */
  sweepAfterExit?: boolean;
}

export interface RunProcessResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
  output: string;
  outputBytes: number;
  spawnError: string | null;
  /** Killed for writing more than `outputLimitBytes`. */
  flooded: boolean;
}

export const PROCESS_MARK_VAR = 'LATHE_PROCESS_MARK';

/** Pids of every process whose environment carries the marker (Linux /proc; elsewhere none). */
export async function markedPids(marker: string): Promise<number[]> {
  if (process.platform !== 'linux') return [];
  const needle = Buffer.from(`${PROCESS_MARK_VAR}=${marker}\0`);
  const pids: number[] = [];
  // catch-ok: no /proc to list means no processes to find by their mark; the group kill still applies
  for (const name of await fs.promises.readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    // catch-ok: a process that exited meanwhile, or is not ours to read, is not one of ours to kill
    const environ = await fs.promises.readFile(`/proc/${name}/environ`).catch(() => null);
    if (environ?.includes(needle)) pids.push(Number(name));
  }
  return pids;
}

function signalAll(pgid: number | undefined, pids: number[], signal: NodeJS.Signals): void {
  if (pgid !== undefined) {
    try {
      process.kill(-pgid, signal);
    } catch {
      // catch-ok: The group is already gone.
    }
  }
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // catch-ok: Already exited.
    }
  }
}

/** Process groups of the commands running now, with their markers: what a process that must exit at once kills first. */
const liveTrees = new Map<number, string>();

/**
 * SIGKILL to every command this process started and is still running, synchronously: for an exit
 * that cannot wait (a second Ctrl-C), so no test suite goes on writing in a run's worktree after Lathe.
 */
export function killLiveTreesNow(): void {
  for (const [pgid, marker] of liveTrees) {
    const needle = Buffer.from(`${PROCESS_MARK_VAR}=${marker}\0`);
    const marked =
      process.platform !== 'linux'
        ? []
        : fs
            .readdirSync('/proc')
            .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid && readEnviron(name)?.includes(needle))
            .map(Number);
    signalAll(pgid, marked, 'SIGKILL');
  }
  liveTrees.clear();
}

function readEnviron(pid: string): Buffer | null {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`);
  } catch {
    // catch-ok: The process has exited, or is not ours to read.
    return null;
  }
}

/** Kills the process group and every marked descendant (setsid escapes the group, not the marker). */
export async function killTree(
  pgid: number | undefined,
  marker: string,
  graceMs: number,
  leaderExited: () => boolean,
): Promise<void> {
  signalAll(pgid, await markedPids(marker), 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (leaderExited() && (await markedPids(marker)).length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  for (let round = 0; round < 20; round++) {
    const left = await markedPids(marker);
    signalAll(pgid, left, 'SIGKILL');
    if (left.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Runs argv (never a shell) in its own process group with a timeout. Finishes on `exit`, not on
 * `close`: a child that escaped with setsid may hold the pipes open forever.
 */
export function runProcess(options: RunProcessOptions): Promise<RunProcessResult> {
  const started = Date.now();
  const graceMs = options.graceMs ?? 2000;
  const log = options.logFile ? fs.createWriteStream(options.logFile) : null;
  // A log that cannot be written (a full disk) loses its tail; unheard, its 'error' would end the process.
  log?.on('error', () => undefined);
  const capture = new OutputCapture(options.capBytes, log, options.logCapBytes);
  const env = { ...options.env, [PROCESS_MARK_VAR]: options.marker };
  return new Promise((resolve) => {
    let timedOut = false;
    let cancelled = false;
    let flooded = false;
    let exited = false;
    let settled = false;
    const finish = async (exitCode: number | null, signal: string | null, spawnError: string | null) => {
      if (settled) return;
      settled = true;
      if (child.pid !== undefined) liveTrees.delete(child.pid);
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      // Give the pipes a moment to drain, then stop reading: an escaped child may never close them.
      if (child.stdout && !child.stdout.readableEnded) {
        await Promise.race([
          new Promise((done) => child.stdout?.once('end', done)),
          new Promise((done) => setTimeout(done, 150)),
        ]);
      }
      child.stdout?.destroy();
      child.stderr?.destroy();
      // Whatever the command left behind in the background dies with it.
      if (options.sweepAfterExit ?? true) await killTree(child.pid, options.marker, 0, () => true);
      else signalAll(child.pid, [], 'SIGKILL');
      if (log) await new Promise((done) => log.end(done));
      resolve({
        exitCode,
        signal,
        timedOut,
        cancelled,
        durationMs: Date.now() - started,
        output: capture.text(),
        outputBytes: capture.totalBytes,
        spawnError,
        flooded,
      });
    };
    const child = spawn(options.argv[0] as string, options.argv.slice(1), {
      cwd: options.cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (child.pid !== undefined) liveTrees.set(child.pid, options.marker);
    const onData = (chunk: Buffer) => {
      capture.push(chunk);
      if (!flooded && options.outputLimitBytes !== undefined && capture.totalBytes > options.outputLimitBytes) {
        flooded = true;
        stop();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on(
      'error',
      (error: NodeJS.ErrnoException) => void finish(null, null, `${error.code ?? 'ERROR'}: ${error.message}`),
    );
    child.on('exit', (code, signal) => {
      exited = true;
      void finish(code, signal, null);
    });
    const stop = () => void killTree(child.pid, options.marker, graceMs, () => exited);
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    const onAbort = () => {
      cancelled = true;
      stop();
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
