import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isMissing } from '../fsErrors';
import { resolveGitDirs } from './gitDirs';
import { decodeName, diskPath } from './pathBytes';

interface RuleSet {
  /** Folder (repo-relative, '' for the root) the patterns are relative to. */
  base: string;
  rules: Ignore;
}

export interface ListedFiles {
  files: string[];
  truncated: boolean;
  /**
   * Folders (repo-relative, `.` for the root) that exist but could not be listed (EACCES, EIO…). They
   * are skipped, as `git status` skips them, and named so a caller can say so, as git warns.
   */
  unreadable: string[];
}

/** Never listed: git's own folder anywhere, Lathe's run store at the top. */
function skipped(relative: string, name: string): boolean {
  return name === '.git' || (relative === '' && name === '.lathe');
}

async function rootRules(root: string): Promise<RuleSet[]> {
  const sets: RuleSet[] = [];
  try {
    const dirs = await resolveGitDirs(root);
    const exclude = await fs.promises.readFile(path.join(dirs.commonDir, 'info', 'exclude'), 'utf8');
    sets.push({ base: '', rules: ignore().add(exclude) });
  } catch {
    // catch-ok: Not a git work tree, or no info/exclude: .gitignore files alone decide.
  }
  return sets;
}

function isIgnored(relative: string, isDir: boolean, sets: RuleSet[]): boolean {
  let ignored = false;
  for (const set of sets) {
    const inside =
      set.base === '' ? relative : relative.startsWith(`${set.base}/`) ? relative.slice(set.base.length + 1) : null;
    if (inside === null) continue;
    const result = set.rules.test(isDir ? `${inside}/` : inside);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

/**
 * Repo-relative files, sorted, honouring every .gitignore (nested ones included) and
 * .git/info/exclude the way git does; symlinks are listed, never followed.
 */
export async function listRepoFiles(
  root: string,
  options: { under?: string; limit?: number } = {},
): Promise<ListedFiles> {
  const limit = options.limit ?? 10_000;
  const files: string[] = [];
  const unreadable: string[] = [];
  let truncated = false;
  // Names as bytes, decoded losslessly (shared/gitPath.ts): a name that is not UTF-8 is listed as itself, not as another.
  const list = async (
    absolute: string | Buffer,
    relative: string,
  ): Promise<{ name: string; isFile(): boolean; isDirectory(): boolean }[]> => {
    try {
      return (await fs.promises.readdir(absolute, { withFileTypes: true, encoding: 'buffer' })).map((entry) => ({
        name: decodeName(entry.name),
        isFile: () => entry.isFile(),
        isDirectory: () => entry.isDirectory(),
      }));
    } catch (error) {
      // Gone meanwhile (or `under` names no folder) is simply nothing to list; anything else is said.
      if (!isMissing(error)) unreadable.push(relative || '.');
      return [];
    }
  };
  const walk = async (relative: string, inherited: RuleSet[]): Promise<void> => {
    if (truncated) return;
    const entries = await list(diskPath(root, relative), relative);
    let sets = inherited;
    if (entries.some((entry) => entry.name === '.gitignore' && entry.isFile())) {
      // catch-ok: an unreadable .gitignore counts as empty: its files are listed, never written (decision 77)
      const text = await fs.promises
        .readFile(diskPath(root, relative ? `${relative}/.gitignore` : '.gitignore'), 'utf8')
        .catch(() => '');
      sets = [...inherited, { base: relative, rules: ignore().add(text) }];
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (skipped(relative, entry.name)) continue;
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      const isDir = entry.isDirectory();
      if (isIgnored(child, isDir, sets)) continue;
      if (isDir) {
        await walk(child, sets);
        if (truncated) return;
      } else {
        if (files.length >= limit) {
          truncated = true;
          return;
        }
        files.push(child);
      }
    }
  };
  const sets = await rootRules(root);
  const under = options.under ? options.under.replace(/^\.?\/+/, '').replace(/\/+$/, '') : '';
  if (under) {
    // Rules of the folders above `under` still apply to it.
    const parts = under.split('/');
    let inherited = sets;
    for (let depth = 0; depth < parts.length; depth++) {
      const folder = parts.slice(0, depth).join('/');
      // catch-ok: an absent or unreadable .gitignore counts as none: its files are listed, never written (decision 77)
      const text = await fs.promises.readFile(path.join(root, folder, '.gitignore'), 'utf8').catch(() => null);
      if (text !== null) inherited = [...inherited, { base: folder, rules: ignore().add(text) }];
      if (isIgnored(parts.slice(0, depth + 1).join('/'), true, inherited))
        return { files: [], truncated: false, unreadable: [] };
    }
    await walk(under, inherited);
  } else {
    await walk('', sets);
  }
  return { files, truncated, unreadable };
}
