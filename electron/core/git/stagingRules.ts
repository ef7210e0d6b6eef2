import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configOf } from './nativeGit';
import type { ConfigEntry } from './repoPrograms';
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
/** Keyed by the listing itself: configOf hands back the same array until a config file changes. */
const configVerdicts = new Map<string, { stamp: readonly ConfigEntry[] | null; rules: StagingRules }>();

/** The last value of a key as `git config --list` gives it (later files win). */
function lastValue(entries: readonly string[], key: string): string | null {
  const found = entries.filter((entry) => entry.startsWith(`${key}=`)).pop();
  return found === undefined ? null : found.slice(key.length + 1);
}
const isFalse = (value: string | null) => value !== null && ['false', 'no', 'off', '0', ''].includes(value);

/** Attribute files outside the work tree that apply to every path (git's defaults; a custom one is caught by its config key). */
function globalAttributeFiles(context: RepoContext): string[] {
  const xdg = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return [
    path.join(context.dirs.commonDir, 'info', 'attributes'),
    path.join(xdg, 'git', 'attributes'),
    '/etc/gitattributes',
  ];
}

/** What the config git reads for this work tree says (listed once, again only when a config file changes). */
async function configRules(workDir: string, gitDir: string): Promise<StagingRules> {
  const listed = await configOf(workDir);
  const stamp = 'entries' in listed ? listed.entries : null;
  const known = configVerdicts.get(gitDir);
  if (known && known.stamp === stamp) return known.rules;
  const entries = 'entries' in listed ? listed.entries.map((entry) => `${entry.key}=${entry.value}`.toLowerCase()) : [];
  const rules: StagingRules = {
    // Unreadable config: assume the worst and let git stage the files itself.
    convertsContent:
      !('entries' in listed) ||
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
export async function stagingRules(
  context: RepoContext,
  workDir: string,
  gitDir: string,
  paths: readonly string[],
): Promise<StagingRules> {
  if (!context.native) return NATIVE_RULES;
  const rules = await configRules(workDir, gitDir);
  if (rules.convertsContent) return rules;
  const folders = new Set<string>(['']);
  for (const file of paths) {
    if (path.posix.basename(file) === '.gitattributes') return { ...rules, convertsContent: true };
    const parts = file.split('/').slice(0, -1);
    for (let depth = 1; depth <= parts.length; depth++) folders.add(parts.slice(0, depth).join('/'));
  }
  const attributeFiles = [
    ...[...folders].map((folder) => path.join(workDir, folder, '.gitattributes')),
    ...globalAttributeFiles(context),
  ];
  return attributeFiles.some((file) => fs.existsSync(file)) ? { ...rules, convertsContent: true } : rules;
}
