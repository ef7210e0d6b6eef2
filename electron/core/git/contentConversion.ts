import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RepoContext } from './repoContext';

/**
 * Config that makes `git add` store something other than a file's raw bytes and mode: line-ending
 * conversion, attribute files named elsewhere, clean filters, a file mode or symlinks git ignores.
 */
const CONVERTING_KEYS = [/^core\.autocrlf=(?!false$)/, /^core\.eol=/, /^core\.attributesfile=/, /^filter\./, /^core\.filemode=false$/, /^core\.symlinks=false$/];

const configVerdicts = new Map<string, { stamp: string; converts: boolean }>();

function stampOf(file: string): string {
  try {
    const stat = fs.statSync(file, { bigint: true });
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
  } catch {
    return '-';
  }
}

function configFiles(context: RepoContext, gitDir: string): string[] {
  const home = os.homedir();
  const xdg = process.env.XDG_CONFIG_HOME || path.join(home, '.config');
  return [
    path.join(context.dirs.commonDir, 'config'),
    path.join(gitDir, 'config.worktree'),
    process.env.GIT_CONFIG_GLOBAL ?? path.join(home, '.gitconfig'),
    path.join(xdg, 'git', 'config'),
    process.env.GIT_CONFIG_SYSTEM ?? '/etc/gitconfig',
  ];
}

/** Attribute files outside the work tree that apply to every path (git's defaults; a custom one is caught by its config key). */
function globalAttributeFiles(context: RepoContext): string[] {
  const xdg = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return [path.join(context.dirs.commonDir, 'info', 'attributes'), path.join(xdg, 'git', 'attributes'), '/etc/gitattributes'];
}

/** Whether any config git reads for this work tree converts content (asked of git once, again only when a config file changes). */
async function configConverts(context: RepoContext, workDir: string, gitDir: string): Promise<boolean> {
  const files = configFiles(context, gitDir);
  const envStamp = Object.keys(process.env).filter((key) => key.startsWith('GIT_CONFIG')).map((key) => `${key}=${process.env[key]}`).join('\n');
  const stamp = `${files.map(stampOf).join('|')}\n${envStamp}`;
  const known = configVerdicts.get(gitDir);
  if (known?.stamp === stamp) return known.converts;
  const listed = await context.git(workDir, ['config', '-z', '--list'], { allowFailure: true });
  const entries = listed.code === 0 ? listed.stdout.split('\0').map((entry) => entry.replace('\n', '=').toLowerCase()) : [];
  // Unreadable config: assume the worst and let git stage the files itself.
  const converts = listed.code !== 0 || entries.some((entry) => CONVERTING_KEYS.some((key) => key.test(entry)));
  configVerdicts.set(gitDir, { stamp, converts });
  return converts;
}

/**
 * Whether `git add` might store these paths differently from their raw bytes and file mode: then the
 * step commit lets native git stage them instead of hashing them in process. Looks for attribute
 * files that could apply (the work tree's `.gitattributes` at the root and in every folder above a
 * path, `info/attributes`, the user's and the system's) and for converting config. Without native
 * git there is nothing better to ask, so the answer is no.
 */
export async function mayConvertContent(context: RepoContext, workDir: string, gitDir: string, paths: readonly string[]): Promise<boolean> {
  if (!context.native) return false;
  const folders = new Set<string>(['']);
  for (const file of paths) {
    if (path.posix.basename(file) === '.gitattributes') return true;
    const parts = file.split('/').slice(0, -1);
    for (let depth = 1; depth <= parts.length; depth++) folders.add(parts.slice(0, depth).join('/'));
  }
  for (const folder of folders) if (fs.existsSync(path.join(workDir, folder, '.gitattributes'))) return true;
  if (globalAttributeFiles(context).some((file) => fs.existsSync(file))) return true;
  return configConverts(context, workDir, gitDir);
}
