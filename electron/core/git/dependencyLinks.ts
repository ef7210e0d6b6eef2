import fs from 'node:fs';
import path from 'node:path';
import type { RunWorkspace } from './types';
import { ensureExcluded } from './excludes';
import type { RepoContext } from './repoContext';
import { isInside } from './worktreeRoot';
import { whenErrno, whenMissing } from '../fsErrors';

/** Folder names a run worktree borrows from the user's checkout, wherever they sit, when git ignores them. */
export const DEPENDENCY_FOLDERS = [
  'node_modules',
  'bower_components',
  'jspm_packages',
  '.venv',
  'venv',
  'vendor',
] as const;

/** Caches tools write inside node_modules: each run keeps its own instead of writing into the user's. */
export const UNSHARED_NODE_ENTRIES: ReadonlySet<string> = new Set(['.cache', '.vite', '.vitest']);
const MAX_LINKED_FOLDERS = 200;
const DIR_LINK = process.platform === 'win32' ? 'junction' : 'dir';

/** The checkout's ignored folders named like dependency folders, repo-relative (git collapses an ignored folder, so none nests in another). */
async function ignoredDependencyFolders(
  context: RepoContext,
  repoRoot: string,
  names: readonly string[],
): Promise<string[]> {
  const listing = await context.git(
    repoRoot,
    ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'],
    { allowFailure: true },
  );
  if (listing.code !== 0) return [];
  const wanted = new Set(names);
  return listing.stdout
    .split('\0')
    .map((entry) => (entry.endsWith('/') ? entry.slice(0, -1) : entry))
    .filter((entry) => wanted.has(path.posix.basename(entry)))
    .sort()
    .slice(0, MAX_LINKED_FOLDERS);
}

/** The folder that will hold the link exists in the run as a real folder, with no symlink on the way (it could lead out). */
async function realFolderChain(workDir: string, relative: string): Promise<boolean> {
  let current = workDir;
  for (const segment of relative.split('/').filter((part) => part && part !== '.')) {
    current = path.join(current, segment);
    const stat = await fs.promises.lstat(current).catch(whenMissing(null));
    if (!stat?.isDirectory()) return false;
  }
  return true;
}

interface ShadowContext {
  checkoutReal: string;
  workDir: string;
  /** Real paths of the checkout's linked dependency folders: a link into them is a package, not the project's own source. */
  dependencyReals: string[];
}

/**
 * A link to a folder of the checkout that the project itself tracks (a workspace package such as
 * `node_modules/@scope/pkg -> ../../packages/pkg`) must land in the run's copy of that folder: Node
 * resolves modules by real path, so the checkout's link would run the user's code instead of the run's.
 */
async function linkTargetFor(source: string, shadow: ShadowContext): Promise<string> {
  const stat = await fs.promises.lstat(source);
  if (!stat.isSymbolicLink()) return source;
  // A dangling or looping link is linked as it is.
  const real = await fs.promises.realpath(source).catch(whenErrno(['ENOENT', 'ENOTDIR', 'ELOOP'], null));
  if (!real || !isInside(real, shadow.checkoutReal) || shadow.dependencyReals.some((dir) => isInside(real, dir)))
    return source;
  const inRun = path.join(shadow.workDir, path.relative(shadow.checkoutReal, real));
  return fs.existsSync(inRun) ? inRun : source;
}

async function linkEntry(source: string, target: string, shadow: ShadowContext): Promise<void> {
  if (await fs.promises.lstat(target).catch(whenMissing(null))) return;
  const destination = await linkTargetFor(source, shadow);
  const isDir =
    (await fs.promises.stat(destination).catch(whenErrno(['ENOENT', 'ENOTDIR', 'ELOOP'], null)))?.isDirectory() ??
    false;
  await fs.promises.symlink(destination, target, isDir ? DIR_LINK : 'file');
}

/**
 * node_modules becomes a real folder of links, one per package (scopes and `.bin` one level down),
 * rather than one link: packages still resolve to the checkout's installed files, while links to the
 * project's own packages point into the run and `.bin` links keep their relative targets. Entries the
 * checkout gained since are added on the next call.
 */
async function shadowNodeModules(source: string, target: string, shadow: ShadowContext): Promise<void> {
  await fs.promises.mkdir(target, { recursive: true });
  for (const entry of await fs.promises.readdir(source, { withFileTypes: true })) {
    if (UNSHARED_NODE_ENTRIES.has(entry.name)) continue;
    const from = path.join(source, entry.name);
    const to = path.join(target, entry.name);
    if (entry.isDirectory() && entry.name.startsWith('@')) {
      await fs.promises.mkdir(to, { recursive: true });
      for (const scoped of await fs.promises.readdir(from))
        await linkEntry(path.join(from, scoped), path.join(to, scoped), shadow);
    } else if (entry.isDirectory() && entry.name === '.bin') {
      await fs.promises.mkdir(to, { recursive: true });
      for (const bin of await fs.promises.readdir(from, { withFileTypes: true })) {
        const binTarget = path.join(to, bin.name);
        if (await fs.promises.lstat(binTarget).catch(whenMissing(null))) continue;
        const text = bin.isSymbolicLink() ? await fs.promises.readlink(path.join(from, bin.name)) : null;
        // `../pkg/bin/cli.js` resolves inside this shadow folder, so a workspace package's bin is the run's.
        await fs.promises.symlink(text && !path.isAbsolute(text) ? text : path.join(from, bin.name), binTarget, 'file');
      }
    } else {
      await linkEntry(from, to, shadow);
    }
  }
}

/**
 * Makes the checkout's ignored dependency folders (`node_modules`, `.venv`, … at any depth, e.g.
 * `packages/*\/node_modules`) resolve in the run worktree: node_modules is shadowed, the others are one
 * link each. Every link points outside the worktree, so the edit guardrails refuse writes through it;
 * links are excluded in info/exclude (a symlink does not match a `node_modules/` pattern).
 */
export async function linkDependencyFolders(
  context: RepoContext,
  workspace: RunWorkspace,
  names: readonly string[] = DEPENDENCY_FOLDERS,
): Promise<string[]> {
  const folders = await ignoredDependencyFolders(context, workspace.repoRoot, names);
  const checkoutReal = await fs.promises.realpath(workspace.repoRoot);
  const dependencyReals = await Promise.all(
    folders.map((folder) =>
      fs.promises.realpath(path.join(workspace.repoRoot, folder)).catch(() => path.join(checkoutReal, folder)),
    ),
  );
  const shadow: ShadowContext = { checkoutReal, workDir: workspace.workDir, dependencyReals };
  const linked: string[] = [];
  for (const folder of folders) {
    const source = path.join(workspace.repoRoot, folder);
    const target = path.join(workspace.workDir, folder);
    if (!(await fs.promises.stat(source).catch(whenMissing(null)))?.isDirectory()) continue;
    if (!(await realFolderChain(workspace.workDir, path.posix.dirname(folder)))) continue;
    const existing = await fs.promises.lstat(target).catch(whenMissing(null));
    if (path.posix.basename(folder) === 'node_modules') {
      if (existing && !existing.isDirectory()) continue;
      await shadowNodeModules(source, target, shadow);
    } else if (!existing) {
      await fs.promises.symlink(source, target, DIR_LINK);
    }
    await ensureExcluded(context.dirs.commonDir, [`/${folder}`]);
    linked.push(folder);
  }
  return linked;
}
