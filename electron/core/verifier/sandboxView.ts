import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findExecutableSync } from '../basics/commandLookup';

/**
 * What a sandboxed command sees of this machine besides its work tree, the repository and
 * ARTIFACT_DIR: the system's programs and libraries, the part of /etc programs need, the toolchains
 * it resolves, and the user's own additions. Nothing else of the home folder, no /run, no /var.
 */
export interface SandboxView {
  /** Bound read-only at the same path. */
  readOnly: string[];
  /** Recreated as symlinks (merged-/usr `/bin`, `/etc/localtime`): a link never shows its target's host content. */
  links: { path: string; target: string }[];
  /** Files inside bound folders hidden behind an empty file (a registry token in a toolchain's home). */
  masked: string[];
}

/** The system's own programs and libraries. */
const SYSTEM_ROOTS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * The /etc that programs need: the dynamic linker, user and name lookups, time and locale, CA
 * certificates, alternatives and toolchains' own config. Not shadow, sudoers, ssh, ssl/private,
 * machine-id, network or package-index credentials (npmrc, pip.conf).
 */
const ETC_ENTRIES = [
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'ld.so.preload',
  'nsswitch.conf',
  'passwd',
  'group',
  'hosts',
  'host.conf',
  'resolv.conf',
  'gai.conf',
  'services',
  'protocols',
  'networks',
  'mtab',
  'localtime',
  'timezone',
  'locale.alias',
  'locale.conf',
  'default/locale',
  'terminfo',
  'inputrc',
  'shells',
  'profile',
  'bash.bashrc',
  'ssl/certs',
  'ssl/openssl.cnf',
  'ca-certificates',
  'ca-certificates.conf',
  'pki/tls/certs',
  'pki/ca-trust',
  'crypto-policies',
  'alternatives',
  'gitconfig',
  'mime.types',
  'magic',
  'magic.mime',
  'fonts',
  'matplotlibrc',
  'os-release',
  'lsb-release',
  'debian_version',
  'redhat-release',
];
/** /etc folders named per version (`python3.11`, `java-17-openjdk`). */
const ETC_PATTERNS = [/^python3(\.\d+)?$/, /^java-[\w.-]+$/, /^perl$/];

/** Folders that mark a `bin` folder's parent as a toolchain of its own (a node, pyenv, cargo, go or conda install). */
const TOOLCHAIN_MARKS = [
  'lib',
  'lib64',
  'libexec',
  'include',
  'versions',
  'plugins',
  'registry',
  'toolchains',
  'pkg',
  'src',
];
/** Tokens a toolchain's home may hold beside its binaries (cargo's registry token, a netrc). */
const SECRET_FILES = ['credentials', 'credentials.toml', '.netrc', '.npmrc', '.pypirc', '.git-credentials'];

/** What decides the view: the command's environment and programs, and the user's additions. */
export interface ViewInputs {
  /** PATH and the toolchain variables the command gets. */
  env: Record<string, string | undefined>;
  /** The commands that will run (the build, the tests): their programs and interpreters are toolchains too. */
  commands: string[][];
  cwd: string;
  /** `policies.sandbox.read_paths`. */
  readPaths: readonly string[];
  /** Folders already shown otherwise (the work tree, the repository): no toolchain inside them is bound again. */
  shown: readonly string[];
  /** The user's real home (default: os.homedir()): never shown whole. */
  home?: string;
}

/** Version managers' homes a toolchain on PATH needs; the command gets them (isolation.ts) and the sandbox shows them. */
export const TOOLCHAIN_VARS = [
  'RUSTUP_HOME',
  'CARGO_HOME',
  'RUSTUP_TOOLCHAIN',
  'PYENV_ROOT',
  'NVM_DIR',
  'VOLTA_HOME',
  'ASDF_DIR',
  'ASDF_DATA_DIR',
  'GOROOT',
  'GOMODCACHE',
  'JAVA_HOME',
] as const;

export function sandboxView(inputs: ViewInputs): SandboxView {
  const home = path.resolve(inputs.home ?? os.homedir());
  const readOnly: string[] = [];
  const links: SandboxView['links'] = [];
  for (const root of SYSTEM_ROOTS) addEntry(root, readOnly, links);
  for (const entry of etcEntries()) addEntry(path.join('/etc', entry), readOnly, links);
  readOnly.push(...existing(['/sys/devices/system/cpu']));
  const toolchains = toolchainRoots(inputs, home);
  const extra = existing(inputs.readPaths.flatMap(bothPaths));
  const masked = toolchains.flatMap((root) => existing(SECRET_FILES.map((name) => path.join(root, name))));
  return { readOnly: [...new Set([...readOnly, ...toolchains, ...extra])], links, masked };
}

function etcEntries(): string[] {
  let names: string[] = [];
  try {
    names = fs.readdirSync('/etc');
  } catch {
    // catch-ok: No /etc to read (not Linux): nothing of it to show.
  }
  return [...ETC_ENTRIES, ...names.filter((name) => ETC_PATTERNS.some((pattern) => pattern.test(name)))];
}

/** A symlink is recreated as one; a folder or file is bound; what is missing is left out. */
function addEntry(entry: string, readOnly: string[], links: SandboxView['links']): void {
  const stat = lstatOrNull(entry);
  if (!stat) return;
  if (stat.isSymbolicLink()) links.push({ path: entry, target: fs.readlinkSync(entry) });
  else readOnly.push(entry);
}

/**
 * The toolchains the commands resolve: each PATH folder outside the system's (or, when it is a
 * toolchain's `bin`/`shims`, the toolchain's whole folder), the toolchain variables' folders, each
 * command's program and the interpreter its `#!` line names. Never the home folder itself or a folder
 * above it, never one the work tree already shows.
 */
function toolchainRoots(inputs: ViewInputs, home: string): string[] {
  const sources: string[] = [];
  for (const dir of (inputs.env.PATH ?? '').split(path.delimiter)) if (path.isAbsolute(dir)) sources.push(dir);
  for (const name of TOOLCHAIN_VARS) {
    const value = inputs.env[name];
    if (value && path.isAbsolute(value)) sources.push(value);
  }
  for (const argv of inputs.commands) {
    const program = argv[0] ? findExecutableSync(argv[0], inputs.cwd, inputs.env.PATH ?? '') : null;
    if (!program) continue;
    sources.push(path.dirname(program), path.dirname(realpathOr(program)));
    const interpreter = shebangOf(program);
    if (interpreter) sources.push(path.dirname(interpreter), path.dirname(realpathOr(interpreter)));
  }
  const shown = inputs.shown.map((dir) => path.resolve(dir));
  const candidates = sources
    .flatMap(bothPaths)
    .map((dir) => (TOOLCHAIN_VARS.some((name) => inputs.env[name] === dir) ? dir : toolchainOf(dir, home)));
  return [...new Set(candidates)].filter(
    (dir) =>
      fs.existsSync(dir) &&
      !isInsideAny(dir, SYSTEM_ROOTS) &&
      !isInsideAny(dir, shown) &&
      // The home folder, or a folder holding it, would show `.ssh` and everything else.
      !isInsideAny(home, [dir]) &&
      !isInsideAny(realpathOr(home), [dir]),
  );
}

/** A path as written and as it resolves: a PATH entry through a symlink (`/home` → `/var/home`) must exist at both. */
function bothPaths(entry: string): string[] {
  const given = path.resolve(entry);
  const real = realpathOr(given);
  return real === given ? [given] : [given, real];
}

/** `…/node-v20/bin` → `…/node-v20` when that holds a toolchain (lib, versions, …); otherwise the folder itself. */
function toolchainOf(dir: string, home: string): string {
  if (!['bin', 'sbin', 'shims'].includes(path.basename(dir))) return dir;
  const parent = path.dirname(dir);
  if (isInsideAny(home, [parent])) return dir;
  return TOOLCHAIN_MARKS.some((mark) => fs.existsSync(path.join(parent, mark))) ? parent : dir;
}

/** The absolute interpreter of a `#!` line (`/usr/bin/env python3` names env itself, which PATH already covers). */
function shebangOf(program: string): string | null {
  const head = readHead(program);
  const match = head === null ? null : /^#!\s*(\/\S+)/.exec(head);
  return match ? (match[1] as string) : null;
}

/** A program's first bytes, or null when it cannot be read (execute-only, gone meanwhile): then no interpreter is shown. */
function readHead(program: string): string | null {
  try {
    const fd = fs.openSync(program, 'r');
    try {
      const buffer = Buffer.alloc(256);
      return buffer.subarray(0, fs.readSync(fd, buffer, 0, 256, 0)).toString('latin1');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // catch-ok: a program that cannot be read has no interpreter line to follow
    return null;
  }
}

function isInsideAny(dir: string, roots: readonly string[]): boolean {
  return roots.some((root) => dir === root || dir.startsWith(root === '/' ? '/' : `${root}/`));
}

function existing(paths: string[]): string[] {
  return paths.filter((entry) => fs.existsSync(entry));
}

function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch {
    // catch-ok: display of what the sandbox shows: an entry that cannot be looked at is left out
    return null;
  }
}

function realpathOr(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    // catch-ok: a path that cannot be resolved is shown as given
    return path.resolve(file);
  }
}
