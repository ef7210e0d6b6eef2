import type fs from 'node:fs';
import path from 'node:path';
import { LatheError } from '../../../shared/errors';
import { isMissing, unreadable } from '../fsErrors';
import { syncFs } from './localFs';

export interface GitDirs {
  /** The work tree's top folder. */
  workTree: string;
  /** This work tree's own git dir (HEAD, index): `.git`, or `.git/worktrees/<name>` for a linked one. */
  gitDir: string;
  /** Objects, refs and config, shared by every work tree. */
  commonDir: string;
  objectFormat: 'sha1' | 'sha256';
}

/** Reads `.git` (folder or `gitdir:` file) and `commondir` the way git does, without running git. */
export async function resolveGitDirs(workTree: string): Promise<GitDirs> {
  const dotGit = path.join(workTree, '.git');
  let stat: fs.Stats;
  try {
    stat = await syncFs.stat(dotGit);
  } catch (error) {
    if (!isMissing(error)) throw unreadable(dotGit, error);
    throw new LatheError('NOT_A_REPO', `no .git in ${workTree}`, { path: workTree });
  }
  let gitDir = dotGit;
  if (stat.isFile()) {
    const text = await syncFs.readFile(dotGit, 'utf8');
    const match = /^gitdir: (.+)$/m.exec(text);
    if (!match) throw new LatheError('NOT_A_REPO', `unreadable .git file in ${workTree}`, { path: workTree });
    gitDir = path.resolve(workTree, (match[1] as string).trim());
  }
  let commonDir = gitDir;
  try {
    const pointer = (await syncFs.readFile(path.join(gitDir, 'commondir'), 'utf8')).trim();
    commonDir = path.resolve(gitDir, pointer);
  } catch (error) {
    // No commondir: this is the main work tree. One that cannot be read would send objects to the wrong place.
    if (!isMissing(error)) throw unreadable(path.join(gitDir, 'commondir'), error);
  }
  // No config is git's default, sha1. One that cannot be read may name sha256: taken for sha1, objects and
  // refs would be written in the wrong format into the user's repository.
  const configFile = path.join(commonDir, 'config');
  const config = await syncFs.readFile(configFile, 'utf8').catch((error: unknown) => {
    if (isMissing(error)) return '';
    throw unreadable(configFile, error);
  });
  const objectFormat = /^\s*objectformat\s*=\s*sha256\s*$/im.test(config) ? 'sha256' : 'sha1';
  return { workTree, gitDir, commonDir, objectFormat };
}
