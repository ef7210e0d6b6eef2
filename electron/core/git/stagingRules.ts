import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RepoContext } from './repoContext';

/** Config that makes `git add` store something other than a file's raw bytes: line-ending conversion, attribute files named elsewhere, clean filters. */
const CONVERTING_KEYS = [/^core\.eol=/, /^core\.attributesfile=/, /^filter\./];

/**
 * How `git add` would store a work tree's files: `convertsContent` when it may change their bytes
 * (then git must stage them); `trustsExecutableBit`/`hasSymlinks` false as core.fileMode/core.symlinks
 * say (isomorphic-git's `init` writes both false), which the in-process staging follows itself.
 */
export interface StagingRules {
  convertsContent: boolean;
  trustsExecutableBit: boolean;
  hasSymlinks: boolean;
}

const NATIVE_RULES: StagingRules = { convertsContent: false, trustsExecutableBit: true, hasSymlinks: true };
const configVerdicts = new Map<string, { stamp: string; rules: StagingRules }>();

/** The last value of a key as `git config --list` gives it (later files win). */
function lastValue(entries: readonly string[], key: string): string | null {
  const found = entries.filter((entry) => entry.startsWith(`${key}=`)).pop();
  return found === undefined ? null : found.slice(key.length + 1);
}
const isFalse = (value: string | null) => value !== null && ['false', 'no', 'off', '0', ''].includes(value);

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

/** What the config git reads for this work tree says (asked of git once, again only when a config file changes). */
async function configRules(context: RepoContext, workDir: string, gitDir: string): Promise<StagingRules> {
  const files = configFiles(context, gitDir);
  const envStamp = Object.keys(process.env).filter((key) => key.startsWith('GIT_CONFIG')).map((key) => `${key}=${process.env[key]}`).join('\n');
  const stamp = `${files.map(stampOf).join('|')}\n${envStamp}`;
  const known = configVerdicts.get(gitDir);
  if (known?.stamp === stamp) return known.rules;
  const listed = await context.git(workDir, ['config', '-z', '--list'], { allowFailure: true });
  const entries = listed.code === 0 ? listed.stdout.split('\0').map((entry) => entry.replace('\n', '=').toLowerCase()) : [];
  const rules: StagingRules = {
    // Unreadable config: assume the worst and let git stage the files itself.
    convertsContent:
      listed.code !== 0 ||
      !['false', 'no', 'off', '0', null].includes(lastValue(entries, 'core.autocrlf')) ||
      entries.some((entry) => CONVERTING_KEYS.some((key) => key.test(entry))),
    trustsExecutableBit: !isFalse(lastValue(entries, 'core.filemode')),
    hasSymlinks: !isFalse(lastValue(entries, 'core.symlinks')),
  };
  configVerdicts.set(gitDir, { stamp, rules });
  return rules;
}

/**
 * How `git add` would store these paths. `convertsContent` when attribute files could apply (the
 * work tree's `.gitattributes` at the root and in every folder above a path, `info/attributes`, the
 * user's and the system's) or config converts: then the step commit lets native git stage them
 * instead of hashing them in process. Without native git there is nothing better to ask.
 */
export async function stagingRules(context: RepoContext, workDir: string, gitDir: string, paths: readonly string[]): Promise<StagingRules> {
  if (!context.native) return NATIVE_RULES;
  const rules = await configRules(context, workDir, gitDir);
  if (rules.convertsContent) return rules;
  const folders = new Set<string>(['']);
  for (const file of paths) {
    if (path.posix.basename(file) === '.gitattributes') return { ...rules, convertsContent: true };
    const parts = file.split('/').slice(0, -1);
    for (let depth = 1; depth <= parts.length; depth++) folders.add(parts.slice(0, depth).join('/'));
  }
  const attributeFiles = [...[...folders].map((folder) => path.join(workDir, folder, '.gitattributes')), ...globalAttributeFiles(context)];
  return attributeFiles.some((file) => fs.existsSync(file)) ? { ...rules, convertsContent: true } : rules;
}
