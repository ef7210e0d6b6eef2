import type fs from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import { type LatheError } from '../../../shared/errors';
import { normalizeEditPath } from '../basics/editPath';
import { rejectEdit } from '../basics/rejection';
import type { RunWorkspace, StepCommit } from './types';
import { formatCommitMessage, LATHE_AUTHOR } from './commitMessage';
import { resolveGitDirs } from './gitDirs';
import { filteredPaths } from './filterAttributes';
import { gitError } from './gitErrors';
import { stagingRules } from './stagingRules';
import { updateIndexInProcess } from './indexUpdate';
import { resolveBranch, type RepoContext } from './repoContext';
import { serializeCommit, writeLooseObject } from './looseObjects';
import { readRunMetadata } from './runMetadata';
import { modeInTree, rememberCommitTree, stageFromDisk, treeOf, updateTree, type PathState } from './treeObjects';
import { syncFs } from './localFs';
import { diskPath } from './pathBytes';
import { hasRawBytes } from '../../../shared/gitPath';
import { whenMissing } from '../fsErrors';

/** Paths a run may commit: repo-relative, not protected, not through a symlink, not in a linked dependency folder. */
export async function checkCommitPaths(
  workspace: RunWorkspace,
  paths: string[],
  linkedFolders: readonly string[] = [],
): Promise<string[]> {
  const normalized = new Set<string>();
  for (const raw of paths) {
    let clean: string;
    try {
      clean = normalizeEditPath(raw);
    } catch (error) {
      const data = (error as LatheError).data ?? {};
      throw gitError('INVALID_PATH', `cannot commit ${raw.slice(0, 300)}: ${(error as Error).message}`, {
        path: raw.slice(0, 300),
        rule: data.rule ?? null,
      });
    }
    if (workspace.protectedPaths.includes(clean)) {
      throw gitError(
        'PROTECTED_PATH',
        `${clean} had uncommitted changes of the user's when the run started; Lathe will not commit it`,
        { path: clean },
      );
    }
    if (
      workspace.mode === 'worktree' &&
      linkedFolders.some((folder) => clean === folder || clean.startsWith(`${folder}/`))
    ) {
      throw gitError('INVALID_PATH', `${clean} is inside a dependency folder linked from the user's checkout`, {
        path: clean,
      });
    }
    const segments = clean.split('/');
    for (let depth = 1; depth < segments.length; depth++) {
      const folder = segments.slice(0, depth).join('/');
      const stat = await syncFs.lstat(diskPath(workspace.workDir, folder)).catch(whenMissing(null, folder));
      if (stat?.isSymbolicLink()) throw gitError('INVALID_PATH', `${clean} is beyond a symbolic link`, { path: clean });
    }
    normalized.add(clean);
  }
  return [...normalized].sort();
}

const identities = new Map<string, { stamp: string; identity: { name: string; email: string } }>();

/** The repository's own user when its config names one, else Lathe (read again only when the config file changes). */
export async function commitIdentity(context: RepoContext): Promise<{ name: string; email: string }> {
  // catch-ok: a memo stamp: without one the identity is read again (decision 75)
  const stat = await syncFs.stat(path.join(context.dirs.commonDir, 'config'), { bigint: true }).catch(() => null);
  const stamp = stat ? `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}` : 'none';
  const known = identities.get(context.dirs.commonDir);
  if (known?.stamp === stamp) return { ...known.identity };
  // catch-ok: a config that cannot be read names no identity, and the commit is authored as Lathe
  const name = await git
    .getConfig({ fs: context.iso.fs, gitdir: context.dirs.commonDir, path: 'user.name' })
    .catch(() => undefined);
  // catch-ok: a config that cannot be read names no identity, and the commit is authored as Lathe
  const email = await git
    .getConfig({ fs: context.iso.fs, gitdir: context.dirs.commonDir, path: 'user.email' })
    .catch(() => undefined);
  const identity =
    typeof name === 'string' && name.trim() && typeof email === 'string' && email.trim()
      ? { name: name.trim(), email: email.trim() }
      : { ...LATHE_AUTHOR };
  identities.set(context.dirs.commonDir, { stamp, identity });
  return { ...identity };
}

/**
 * Commits exactly `paths` as they are on disk onto the run branch: the new tree is the parent's with
 * only those entries replaced (never the index's staged state), the branch moves only if it still
 * points at the parent, and then the work tree's index learns those paths.
 */
export async function commitStepIn(
  context: RepoContext,
  workspace: RunWorkspace,
  paths: string[],
  commit: StepCommit,
): Promise<string | null> {
  const linked =
    workspace.mode === 'worktree'
      ? ((await readRunMetadata(context.dirs.commonDir, workspace.runId))?.linked_dependencies ?? [])
      : [];
  const clean = await checkCommitPaths(workspace, paths, linked);
  if (clean.length === 0) return null;
  const [filtered, ...moreFiltered] = await filteredPaths(context, workspace.workDir, clean);
  if (filtered) {
    const others =
      moreFiltered.length > 0
        ? ` (and ${moreFiltered
            .map((entry) => entry.path)
            .join(', ')
            .slice(0, 300)})`
        : '';
    throw rejectEdit(
      'needs-filter',
      filtered.path,
      `git stores this file through the "${filtered.filter}" filter its attributes name, a program Lathe never runs, so it cannot commit the file as git would${others}; leave it unchanged`,
      { filter: filtered.filter, paths: [filtered, ...moreFiltered].map((entry) => entry.path) },
    );
  }
  const ref = `refs/heads/${workspace.branch}`;
  const parent = await resolveBranch(context, workspace.branch);
  if (!parent)
    throw gitError('RUN_BRANCH_MISSING', `the run branch ${workspace.branch} no longer exists`, {
      branch: workspace.branch,
    });
  const changes = new Map<string, PathState>();
  const statsBefore = new Map<string, fs.BigIntStats>();
  const rules = await stagingRules(context, workspace.workDir, (await resolveGitDirs(workspace.workDir)).gitDir, clean);
  const stagedByGit = rules.convertsContent;
  const parentTree = await treeOf(context, parent);
  if (stagedByGit)
    for (const [file, state] of await stageWithGit(context, workspace.workDir, clean)) changes.set(file, state);
  else {
    for (const file of clean) {
      const stat = await syncFs
        .lstat(diskPath(workspace.workDir, file), { bigint: true })
        .catch(whenMissing(null, file));
      if (stat) statsBefore.set(file, stat);
      const known = rules.trustsExecutableBit && rules.hasSymlinks ? null : await modeInTree(context, parentTree, file);
      changes.set(file, await stageFromDisk(context, workspace.workDir, file, { ...rules, knownMode: known }));
    }
  }
  const tree =
    (await updateTree(context, parentTree, changes)) ?? (await writeLooseObject(context, 'tree', Buffer.alloc(0)));
  if (tree === parentTree) return null;
  const identity = await commitIdentity(context);
  const now = { timestamp: Math.floor(Date.now() / 1000), timezoneOffset: new Date().getTimezoneOffset() };
  const sha = await writeLooseObject(
    context,
    'commit',
    serializeCommit({
      tree,
      parent: [parent],
      author: { ...identity, ...now },
      committer: { ...identity, ...now },
      message: formatCommitMessage(commit),
    }),
  );
  rememberCommitTree(context, sha, tree);
  if ((await resolveBranch(context, workspace.branch)) !== parent) {
    throw gitError('CONCURRENT_UPDATE', `the run branch ${workspace.branch} moved while committing`, {
      branch: workspace.branch,
    });
  }
  await git.writeRef({ ...context.iso, ref, value: sha, force: true });
  if (!stagedByGit) await refreshIndex(context, workspace, changes, statsBefore);
  return sha;
}

/**
 * The paths as `git add` stores them (filters, line endings, core.fileMode and core.symlinks
 * applied), read back from the index git has just updated: for content git may convert, which the
 * in-process hashing must not guess at.
 */
async function stageWithGit(context: RepoContext, workDir: string, paths: string[]): Promise<Map<string, PathState>> {
  await context.git(workDir, ['update-index', '--add', '--remove', '-z', '--stdin'], {
    input: `${paths.join('\0')}\0`,
  });
  // A name that is not UTF-8 cannot be an argument: then the whole index is listed and filtered.
  const listed = await context.git(workDir, [
    'ls-files',
    '--stage',
    '-z',
    ...(paths.some(hasRawBytes) ? [] : ['--', ...paths]),
  ]);
  const states = new Map<string, PathState>(paths.map((file) => [file, null]));
  for (const entry of listed.stdout.split('\0')) {
    const match = /^(100644|100755|120000) ([0-9a-f]{40,64}) 0\t(.+)$/s.exec(entry);
    if (match && states.has(match[3] as string))
      states.set(match[3] as string, { oid: match[2] as string, mode: match[1] as '100644' | '100755' | '120000' });
  }
  return states;
}

/**
 * Brings the work tree's index in line with the new HEAD for the changed paths (their disk content is
 * what was committed): in this process when the index is a plain one, else through git.
 */
export async function refreshIndex(
  context: RepoContext,
  workspace: RunWorkspace,
  changes: ReadonlyMap<string, PathState>,
  statsBefore?: ReadonlyMap<string, fs.BigIntStats>,
): Promise<void> {
  const paths = [...changes.keys()];
  if (paths.length === 0) return;
  const dir = workspace.workDir;
  if (await updateIndexInProcess((await resolveGitDirs(dir)).gitDir, dir, changes, statsBefore)) return;
  if (context.native) {
    await context.git(dir, ['update-index', '--add', '--remove', '-z', '--stdin'], { input: `${paths.join('\0')}\0` });
    return;
  }
  for (const file of paths) {
    const exists = await syncFs.lstat(diskPath(dir, file)).catch(whenMissing(null, file));
    if (exists) await git.add({ ...context.iso, dir, gitdir: context.dirs.gitDir, filepath: file, force: true });
    else await git.remove({ ...context.iso, dir, gitdir: context.dirs.gitDir, filepath: file });
  }
}
