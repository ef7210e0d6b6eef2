import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

export const LATHE_BIN = path.resolve(import.meta.dirname, '..', 'bin', 'lathe.mjs');

export interface CliOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `lathe` bin in a child process and collects its output. */
export function runLathe(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; closeStdin?: boolean } = {},
): Promise<CliOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawnLathe(args, options);
    // Nobody at the keyboard: a question on the terminal gets end-of-input.
    if (options.closeStdin) child.stdin.end();
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      // Let the pipes drain after exit.
      setImmediate(() => resolve({ code, signal, stdout, stderr }));
    });
  });
}

export function spawnLathe(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [LATHE_BIN, ...args], {
    cwd: options.cwd ?? process.cwd(),
    env: { ...process.env, ...options.env },
    stdio: 'pipe',
  });
}

/** Resolves with the first stdout line matching `pattern`. */
export function waitForLine(
  child: ChildProcessWithoutNullStreams,
  pattern: RegExp,
  timeoutMs = 30_000,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; stderr: ${stderr}`)), timeoutMs);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((candidate) => pattern.test(candidate));
      if (line !== undefined) {
        clearTimeout(timer);
        resolve(line.trim());
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ${pattern}; stderr: ${stderr}`));
    });
  });
}
