import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitError } from './gitErrors';
import { isMissing } from '../fsErrors';

/** Where a root came from, for the run's metadata and for error messages. */
export type WorktreeRootSource = 'setting' | 'env' | 'default';

export interface WorktreeRootChoice {
  root: string;
  source: WorktreeRootSource;
}

export interface WorktreeRootInputs {
  /** `workspace.worktree_root` from the run's configuration. */
  configured?: string | null;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  homedir?: string;
  uid?: number;
}

export const WORKTREE_ROOT_ENV = 'LATHE_WORKTREE_ROOT';

/**
 * True when a segment of `absolute` starts with '.' (`.git`, `.local`, `..`): static-file servers
 * (express's send) and test collectors refuse or skip such paths, so a run folder must have none.
 */
export function hasDotSegment(absolute: string): boolean {
  return absolute.split(/[\\/]+/).some((segment) => segment.startsWith('.'));
}

/** Whitespace breaks unquoted shell scripts and Makefiles; a default avoids it, an explicit choice may not. */
function hasWhitespace(absolute: string): boolean {
  return /\s/.test(absolute);
}

/** The real path of `dir`, or of its nearest existing ancestor with the rest appended. */
export function realPathOfNearest(dir: string): string {
  const missing: string[] = [];
  let current = path.resolve(dir);
  for (;;) {
    try {
      return path.join(fs.realpathSync(current), ...missing.reverse());
    } catch (error) {
      if (!isMissing(error)) throw error;
      const parent = path.dirname(current);
      if (parent === current) return path.resolve(dir);
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

export function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The defaults in order of preference; each is used only when it is safe for this repository. */
function defaultCandidates(
  inputs: Required<Pick<WorktreeRootInputs, 'platform' | 'homedir' | 'uid'>> & { env: NodeJS.ProcessEnv },
): string[] {
  const { env, platform, homedir, uid } = inputs;
  const visibleHome = path.join(homedir, 'lathe-worktrees');
  if (platform === 'win32') {
    const localAppData = env.LOCALAPPDATA || path.join(homedir, 'AppData', 'Local');
    return [path.join(localAppData, 'Lathe', 'worktrees'), visibleHome, path.join(os.tmpdir(), 'lathe-worktrees')];
  }
  // XDG_DATA_HOME's own default (~/.local/share) and macOS's Application Support have a dot-segment or a space.
  const xdg =
    platform !== 'darwin' && env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME)
      ? [path.join(env.XDG_DATA_HOME, 'lathe', 'worktrees')]
      : [];
  return [...xdg, visibleHome, `/var/tmp/lathe-worktrees-${uid}`];
}

/**
 * Where run worktrees of `repoRoot` live: the setting, else `LATHE_WORKTREE_ROOT`, else the first
 * default without a dot-segment (nor whitespace, if any has none) that is outside the checkout and its
 * git dir. An explicit root that breaks those rules is refused (GIT_INVALID_WORKTREE_ROOT), never bent.
 */
export function chooseWorktreeRoot(
  repoRoot: string,
  commonDir: string,
  inputs: WorktreeRootInputs = {},
): WorktreeRootChoice {
  const env = inputs.env ?? process.env;
  const forbidden = [realPathOfNearest(repoRoot), realPathOfNearest(commonDir)];
  const problem = (root: string): string | null => {
    if (!path.isAbsolute(root)) return 'it is not an absolute path';
    if (hasDotSegment(root) || hasDotSegment(realPathOfNearest(root)))
      return 'a folder on its path starts with "." (tools such as express refuse such paths)';
    const real = realPathOfNearest(root);
    if (forbidden.some((dir) => isInside(real, dir) || isInside(dir, real)))
      return "it is inside the repository (the user's own tools would see the run's files) or contains it";
    return null;
  };
  const explicit: [string | null | undefined, WorktreeRootSource, string][] = [
    [inputs.configured, 'setting', 'workspace.worktree_root'],
    [env[WORKTREE_ROOT_ENV], 'env', WORKTREE_ROOT_ENV],
  ];
  const homedir = inputs.homedir ?? os.homedir();
  for (const [value, source, name] of explicit) {
    if (!value) continue;
    const root = /^~(?=$|[\\/])/.test(value) ? path.join(homedir, value.slice(1)) : value;
    const reason = problem(root);
    if (reason)
      throw gitError('INVALID_WORKTREE_ROOT', `${name} (${value}) cannot hold run worktrees: ${reason}`, {
        root: value,
        source,
      });
    return { root: path.resolve(root), source };
  }
  const candidates = defaultCandidates({
    env,
    platform: inputs.platform ?? process.platform,
    homedir,
    uid: inputs.uid ?? os.userInfo().uid,
  });
  const usable = candidates.filter((candidate) => problem(candidate) === null);
  const chosen = usable.find((candidate) => !hasWhitespace(candidate)) ?? usable[0];
  if (!chosen) {
    throw gitError(
      'INVALID_WORKTREE_ROOT',
      `no default folder for run worktrees is usable here (${candidates.join(', ')}); set ${WORKTREE_ROOT_ENV} to a folder without "." segments`,
      {
        root: null,
        source: 'default',
      },
    );
  }
  return { root: chosen, source: 'default' };
}

/** `<name>-<8 hex>`: readable, and unique per repository (the hash of its real git dir). */
export function repoFolderName(repoRoot: string, commonDir: string): string {
  const name =
    path
      .basename(repoRoot)
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^[-_]+/, '')
      .slice(0, 40) || 'repo';
  const hash = crypto.createHash('sha256').update(realPathOfNearest(commonDir)).digest('hex').slice(0, 8);
  return `${name}-${hash}`;
}

export const REPO_FOLDER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}-[0-9a-f]{8}$/;
