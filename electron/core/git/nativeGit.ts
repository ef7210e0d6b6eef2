import { execFile } from 'node:child_process';
import { decodeName, encodeName } from './pathBytes';
import {
  configFilesFor,
  parseConfigListing,
  programOverrides,
  PROGRAMS_OFF_ENV,
  stampOf,
  type ConfigEntry,
} from './repoPrograms';

export interface NativeGitResult {
  code: number;
  stdout: string;
  stderr: string;
}

interface GitOptions {
  input?: string;
  maxBuffer?: number;
  env?: NodeJS.ProcessEnv;
}

let cachedVersion: Promise<string | null> | undefined;

/** The installed git's version, or null when there is none; probed once per process. */
export function nativeGitVersion(): Promise<string | null> {
  cachedVersion ??= spawnGit(process.cwd(), ['--version']).then(
    (result) => (result.code === 0 ? result.stdout.trim().replace(/^git version /, '') : null),
    () => null,
  );
  return cachedVersion;
}

/**
 * Runs git without a shell, with every program the repository's config could name switched off
 * (hooks, fsmonitor, filters, textconv, external diff, pager, askpass, credential helpers of the
 * repository's own): a missing binary rejects, a git error resolves with its code. Output is decoded
 * losslessly (shared/gitPath.ts): a name that is not UTF-8 comes back as the same bytes when given to
 * git again on stdin. An argument cannot carry such bytes (Node writes argv as UTF-8), so names go on
 * stdin (`-z --stdin`) or are filtered from a whole listing.
 */
export async function runNativeGit(
  cwd: string,
  args: readonly string[],
  options: GitOptions = {},
): Promise<NativeGitResult> {
  const config = await configOf(cwd, options.env);
  if ('failed' in config) return config.failed;
  return spawnGit(cwd, [...programOverrides(config.entries), ...args], options);
}

/** The config git reads from `cwd`, listed by git (includes resolved); listed again only when a config file changes. */
export async function configOf(
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ entries: ConfigEntry[] } | { failed: NativeGitResult }> {
  const gitDirEnv = env.GIT_DIR ?? process.env.GIT_DIR;
  const key = `${cwd}\0${gitDirEnv ?? ''}`;
  const stamp = `${stampOf(configFilesFor(cwd, gitDirEnv))}\n${Object.keys(process.env)
    .filter((name) => name.startsWith('GIT_CONFIG'))
    .map((name) => `${name}=${process.env[name]}`)
    .join('\n')}`;
  const known = listings.get(key);
  if (known?.stamp === stamp) return known.listing;
  const listing = listConfig(cwd, env);
  listings.set(key, { stamp, listing });
  if (listings.size > 256) listings.delete(listings.keys().next().value as string);
  return listing;
}

/**
 * `--show-scope` needs git 2.26; an older git lists without it (then no credential helper is named
 * again, as none can be told to be the user's). A config git cannot read stops the call, which
 * would have failed on the same file.
 */
async function listConfig(
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ entries: ConfigEntry[] } | { failed: NativeGitResult }> {
  const scoped = await spawnGit(cwd, ['config', '-z', '--list', '--show-scope'], { env });
  if (scoped.code === 0) return { entries: parseConfigListing(scoped.stdout) };
  if (scoped.stderr.includes('show-scope')) {
    const plain = await spawnGit(cwd, ['config', '-z', '--list'], { env });
    if (plain.code === 0)
      return {
        entries: parseConfigListing(
          plain.stdout
            .split('\0')
            .flatMap((record) => (record ? ['unknown', record] : []))
            .join('\0') + '\0',
        ),
      };
  }
  return { failed: { ...scoped, stderr: `git could not read its config, so Lathe ran nothing: ${scoped.stderr}` } };
}

const listings = new Map<
  string,
  { stamp: string; listing: Promise<{ entries: ConfigEntry[] } | { failed: NativeGitResult }> }
>();

function spawnGit(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<NativeGitResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, ...PROGRAMS_OFF_ENV, LC_ALL: 'C' };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      args,
      { cwd, maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024, encoding: 'buffer', env },
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
