import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { resolveGitDirs } from '../git/gitDirs';
import { isoCacheFor } from '../git/isoCache';
import { nativeGitVersion, runNativeGit } from '../git/nativeGit';
import { DEPENDENCY_FOLDERS } from '../git/dependencyLinks';
import { listRepoFiles } from '../git/listFiles';
import { whenMissing } from '../fsErrors';

export interface TemporaryCheckout {
  dir: string;
  /** What was put there, for the isolation detail. */
  description: string;
  /** The commit checked out in a git copy of its own (clean but for `links`); null for a plain copy. */
  commit: string | null;
  /** The dependency folders linked in (ignored in a git copy). */
  links: Map<string, string>;
  remove(): Promise<void>;
}

/**
 * The fallback when there is no sandbox: the tests run in a throwaway copy, so they cannot write
 * into the repository. With a commit: that commit's files in a repository of their own that borrows
 * the objects (`git init` + `objects/info/alternates` + `checkout --detach`), so a suite's own git
 * commands (stash, checkout, commit, config) land in the copy and never in the user's refs, index or
 * config; or isomorphic-git reading the tree. Without one: the work dir's current files, ignored ones aside.
 */
export async function makeTemporaryCheckout(workDir: string, commit: string | null): Promise<TemporaryCheckout> {
  const base = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'lathe-verify-'));
  const dir = path.join(base, 'checkout');
  try {
    const native = (await nativeGitVersion()) !== null;
    let description: string;
    let checkedOut: string | null = null;
    if (commit && native) {
      await borrowingCheckout(workDir, commit, dir);
      description = `a temporary checkout of ${commit.slice(0, 12)}`;
      checkedOut = commit;
    } else if (commit) {
      await exportTree(workDir, commit, dir);
      description = `a temporary export of ${commit.slice(0, 12)}`;
    } else {
      await copyWorkingFiles(workDir, dir);
      description = 'a temporary copy of the work folder (no commit given)';
    }
    const links = await linkDependencies(workDir, dir);
    return {
      dir,
      description,
      commit: checkedOut,
      links,
      remove: () => fs.promises.rm(base, { recursive: true, force: true }),
    };
  } catch (error) {
    await fs.promises.rm(base, { recursive: true, force: true });
    throw error;
  }
}

async function borrowingCheckout(workDir: string, commit: string, dest: string): Promise<void> {
  const { commonDir } = await resolveGitDirs(workDir);
  // No template: the copy needs no sample hooks, and copying them is most of what init costs.
  const init = await runNativeGit(path.dirname(dest), ['init', '--quiet', '--template=', dest]);
  if (init.code !== 0) throw new Error(`git init failed: ${init.stderr.trim().slice(0, 300)}`);
  await fs.promises.mkdir(path.join(dest, '.git', 'objects', 'info'), { recursive: true });
  await fs.promises.writeFile(
    path.join(dest, '.git', 'objects', 'info', 'alternates'),
    `${path.join(commonDir, 'objects')}\n`,
  );
  const checkout = await runNativeGit(dest, [
    '-c',
    'core.hooksPath=/dev/null',
    '-c',
    'advice.detachedHead=false',
    'checkout',
    '--quiet',
    '--detach',
    commit,
  ]);
  if (checkout.code !== 0)
    throw new Error(`git checkout of ${commit.slice(0, 12)} failed: ${checkout.stderr.trim().slice(0, 300)}`);
}

async function exportTree(workDir: string, commit: string, dest: string): Promise<void> {
  const dirs = await resolveGitDirs(workDir);
  const iso = { fs, gitdir: dirs.commonDir, cache: isoCacheFor(dirs.commonDir) };
  const write = async (treeOid: string, into: string): Promise<void> => {
    await fs.promises.mkdir(into, { recursive: true });
    for (const entry of (await git.readTree({ ...iso, oid: treeOid })).tree) {
      const target = path.join(into, entry.path);
      if (entry.type === 'tree') await write(entry.oid, target);
      else if (entry.type === 'blob') {
        const { blob } = await git.readBlob({ ...iso, oid: entry.oid });
        if (entry.mode === '120000') await fs.promises.symlink(Buffer.from(blob).toString('utf8'), target);
        else await fs.promises.writeFile(target, blob, { mode: entry.mode === '100755' ? 0o755 : 0o644 });
      }
    }
  };
  await write((await git.readCommit({ ...iso, oid: commit })).commit.tree, dest);
}

async function copyWorkingFiles(workDir: string, dest: string): Promise<void> {
  const { files } = await listRepoFiles(workDir, { limit: 200_000 });
  for (const file of files) {
    const target = path.join(dest, file);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.cp(path.join(workDir, file), target, { verbatimSymlinks: true });
  }
  await fs.promises.mkdir(dest, { recursive: true });
}

/** The tests need the project's installed dependencies; they are linked, never copied (and ignored in a git copy). */
async function linkDependencies(workDir: string, dest: string): Promise<Map<string, string>> {
  const linked = new Map<string, string>();
  for (const name of DEPENDENCY_FOLDERS) {
    const source = await fs.promises.realpath(path.join(workDir, name)).catch(whenMissing(null));
    if (!source || (await fs.promises.lstat(path.join(dest, name)).catch(whenMissing(null)))) continue;
    await fs.promises.symlink(source, path.join(dest, name), 'dir');
    linked.set(name, source);
  }
  if (linked.size > 0 && fs.existsSync(path.join(dest, '.git'))) {
    await fs.promises.mkdir(path.join(dest, '.git', 'info'), { recursive: true });
    await fs.promises.appendFile(
      path.join(dest, '.git', 'info', 'exclude'),
      [...linked.keys()].map((name) => `/${name}\n`).join(''),
    );
  }
  return linked;
}
