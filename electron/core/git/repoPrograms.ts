import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isMissing, unreadable } from '../fsErrors';

/**
 * Programs a repository's config can make git run, kept off for every git call Lathe makes: a
 * repository handed to Lathe is untrusted, and these would run outside the sandbox. Empty values
 * switch a program key off (checked per key in repoPrograms.test.ts on the installed git).
 */
export const PROGRAMS_OFF = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.pager=cat',
  'core.askPass=',
  'core.sshCommand=ssh',
  'core.alternateRefsCommand=',
  'diff.external=',
  // ext:: URLs run any command; a remote or an insteadOf could name one.
  'protocol.ext.allow=never',
  // A submodule has its own config, whose drivers this listing never saw.
  'submodule.recurse=false',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'gc.auto=0',
  'maintenance.auto=false',
  // Resets the helper list; the user's own helpers are named again after it (see programOverrides).
  'credential.helper=',
] as const;

/** Environment for every git call: no prompt, no pager, no askpass, no external diff of the caller's. */
export const PROGRAMS_OFF_ENV: Record<string, string | undefined> = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_ASKPASS: '',
  SSH_ASKPASS: undefined,
  GIT_PAGER: 'cat',
  GIT_EDITOR: 'true',
  GIT_EXTERNAL_DIFF: undefined,
};

export interface ConfigEntry {
  /** `system`, `global`, `local`, `worktree` or `command`. */
  scope: string;
  /** As git lists it: section and name lowercased, subsection as written. */
  key: string;
  value: string;
}

/** Parses `git config -z --list --show-scope`. */
export function parseConfigListing(stdout: string): ConfigEntry[] {
  const parts = stdout.split('\0');
  const entries: ConfigEntry[] = [];
  for (let index = 0; index + 1 < parts.length; index += 2) {
    const record = parts[index + 1] as string;
    const newline = record.indexOf('\n');
    entries.push({
      scope: parts[index] as string,
      key: newline < 0 ? record : record.slice(0, newline),
      value: newline < 0 ? '' : record.slice(newline + 1),
    });
  }
  return entries;
}

const DRIVER_KEY = /^(filter|diff)\.(.+)\.([a-z]+)$/;
const FILTER_PROGRAMS = ['clean', 'smudge', 'process'];
const DIFF_PROGRAMS = ['textconv', 'command'];
/** The scopes that are the user's own (their machine, their home): their credential helpers serve their pushes. */
const USER_SCOPES = new Set(['system', 'global', 'command']);

/** The filter drivers config defines (a `filter=` attribute naming anything else is a no-op for git too). */
export function filterDrivers(entries: readonly ConfigEntry[]): Set<string> {
  const names = new Set<string>();
  for (const entry of entries) {
    const match = DRIVER_KEY.exec(entry.key);
    if (match?.[1] === 'filter' && FILTER_PROGRAMS.includes(match[3] as string) && entry.value !== '')
      names.add(match[2] as string);
  }
  return names;
}

/**
 * The `-c` pairs that keep every program named in this config off: the fixed list, then each driver
 * the config defines (filters, diff textconv/command), then the user's own credential helpers named
 * again so a push still authenticates. A remote's receive-pack keeps its first value whatever comes
 * later, so the push names git's own on its command line (mergeRun.ts); merge drivers never run, as
 * Lathe's only merge is a fast-forward.
 */
export function programOverrides(entries: readonly ConfigEntry[]): string[] {
  const settings: string[] = [...PROGRAMS_OFF];
  const seen = new Set<string>();
  for (const entry of entries) {
    const match = DRIVER_KEY.exec(entry.key);
    if (!match) continue;
    const [, section, name] = match as unknown as [string, string, string];
    if (seen.has(`${section}.${name}`)) continue;
    seen.add(`${section}.${name}`);
    if (section === 'filter')
      settings.push(...FILTER_PROGRAMS.map((key) => `filter.${name}.${key}=`), `filter.${name}.required=false`);
    if (section === 'diff') settings.push(...DIFF_PROGRAMS.map((key) => `diff.${name}.${key}=`));
  }
  for (const entry of entries) {
    if (USER_SCOPES.has(entry.scope) && /^credential\.(.+\.)?helper$/.test(entry.key))
      settings.push(`${entry.key}=${entry.value}`);
  }
  return settings.flatMap((setting) => ['-c', setting]);
}

/** The config files git reads from `cwd` (the first repository found walking up, or `gitDirEnv`), to notice a change. */
export function configFilesFor(cwd: string, gitDirEnv: string | undefined): string[] {
  const home = os.homedir();
  const xdg = process.env.XDG_CONFIG_HOME || path.join(home, '.config');
  const user = [
    process.env.GIT_CONFIG_GLOBAL ?? path.join(home, '.gitconfig'),
    path.join(xdg, 'git', 'config'),
    process.env.GIT_CONFIG_SYSTEM ?? '/etc/gitconfig',
  ];
  const gitDir = gitDirEnv ? path.resolve(cwd, gitDirEnv) : findGitDir(cwd);
  if (!gitDir) return user;
  const common = readText(path.join(gitDir, 'commondir'))?.trim();
  const commonDir = common ? path.resolve(gitDir, common) : gitDir;
  return [path.join(commonDir, 'config'), path.join(gitDir, 'config.worktree'), ...user];
}

function findGitDir(start: string): string | null {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    const pointer = readText(dotGit);
    if (pointer !== null) {
      const target = /^gitdir: (.+)$/m.exec(pointer)?.[1]?.trim();
      if (target) return path.resolve(dir, target);
    } else if (fs.existsSync(dotGit)) return dotGit;
    else if (fs.existsSync(path.join(dir, 'HEAD')) && fs.existsSync(path.join(dir, 'objects'))) return dir;
    if (path.dirname(dir) === dir) return null;
  }
}

/** A small file's text, or null when it is missing or a folder (the caller then looks elsewhere). */
function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'EISDIR') return null;
    throw unreadable(file, error);
  }
}

/** What stands for "these files did not change": inode, size and mtime of each. */
export function stampOf(files: readonly string[]): string {
  return files
    .map((file) => {
      try {
        const stat = fs.statSync(file, { bigint: true });
        return `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
      } catch {
        // catch-ok: a memo stamp: without one the programs are read again
        return '-';
      }
    })
    .join('|');
}
