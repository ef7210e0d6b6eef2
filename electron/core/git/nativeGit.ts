import { execFile } from 'node:child_process';
import { decodeName, encodeName } from './pathBytes';

export interface NativeGitResult {
  code: number;
  stdout: string;
  stderr: string;
}

let cachedVersion: Promise<string | null> | undefined;

/** The installed git's version, or null when there is none; probed once per process. */
export function nativeGitVersion(): Promise<string | null> {
  cachedVersion ??= runNativeGit(process.cwd(), ['--version']).then(
    (result) => (result.code === 0 ? result.stdout.trim().replace(/^git version /, '') : null),
    () => null,
  );
  return cachedVersion;
}

/**
 * Runs git without a shell; a missing binary rejects, a git error resolves with its code. Output is
 * decoded losslessly (shared/gitPath.ts): a name that is not UTF-8 comes back as the same bytes when
 * given to git again on stdin. An argument cannot carry such bytes (Node writes argv as UTF-8), so
 * names go on stdin (`-z --stdin`) or are filtered from a whole listing.
 */
export function runNativeGit(
  cwd: string,
  args: readonly string[],
  options: { input?: string; maxBuffer?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<NativeGitResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      args,
      {
        cwd,
        maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024,
        encoding: 'buffer',
        env: { ...process.env, ...options.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code === 'string') {
          reject(error);
          return;
        }
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout: decodeName(stdout), stderr: decodeName(stderr) });
      },
    );
    if (options.input !== undefined) child.stdin?.end(encodeName(options.input));
  });
}
