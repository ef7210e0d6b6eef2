import fs from 'node:fs';
import path from 'node:path';
import { findExecutableSync } from '../basics/commandLookup';
import { isMissing } from '../fsErrors';

/** `workspace.setup: auto` (and a corpus task's `setup_command: auto`): install the way the repository's lockfile says. */
export const AUTO_SETUP = 'auto';

export const isAutoSetup = (argv: readonly string[] | null | undefined): boolean =>
  argv?.length === 1 && argv[0] === AUTO_SETUP;

export interface InstallPlan {
  /** The install to run; null when there is nothing to install or nothing to install it with. */
  argv: string[] | null;
  manager: 'npm' | 'pnpm' | 'yarn' | null;
  /** The lockfile the install follows, when there is one. */
  lockfile: string | null;
  /** What was found and why this install, in words (logged and shown). */
  reason: string;
  /** Set when the repository's own package manager is missing and another one stands in. */
  fallback: string | null;
}

// Install scripts never run: the setup runs outside the sandbox, and a dependency's postinstall is
// code nobody reviewed (decision 95). What needs a build step gets `policies.build_command`.
const NPM_FLAGS = ['--ignore-scripts', '--no-audit', '--no-fund'];

interface Tools {
  /** Whether a program is on PATH. */
  has(program: string): boolean;
}

const pathTools = (env: NodeJS.ProcessEnv): Tools => ({
  has: (program) => findExecutableSync(program, process.cwd(), env.PATH ?? '') !== null,
});

/**
 * The install a JavaScript repository asks for by its lockfile: `npm ci` for package-lock.json or
 * npm-shrinkwrap.json, `pnpm install --frozen-lockfile` for pnpm-lock.yaml, `yarn install
 * --frozen-lockfile` (classic) or `--immutable` (berry) for yarn.lock, `npm install` with none;
 * package.json's `packageManager` picks among several lockfiles. A package manager that is not
 * installed is replaced by `npm install`, and `fallback` says so. A Python project has nothing to
 * install here: its tests run from the repository's top, with the interpreter's own packages.
 */
export function planInstall(dir: string, tools: Tools = pathTools(process.env)): InstallPlan {
  const manifest = readManifest(dir);
  if (!manifest) {
    const python = ['pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt'].find((name) =>
      fs.existsSync(path.join(dir, name)),
    );
    const reason = python
      ? `a Python project (${python}): nothing to install; its tests run from the repository's top folder`
      : 'no package.json: nothing to install';
    return { argv: null, manager: null, lockfile: null, reason, fallback: null };
  }
  const declared =
    Object.keys(manifest.dependencies ?? {}).length +
    Object.keys(manifest.devDependencies ?? {}).length +
    Object.keys(manifest.optionalDependencies ?? {}).length;
  if (declared === 0)
    return {
      argv: null,
      manager: null,
      lockfile: null,
      reason: 'package.json declares no dependencies: nothing to install',
      fallback: null,
    };
  const lockfile = pickLockfile(dir, manifest.packageManager);
  const wanted = lockfile ? lockfile.manager : 'npm';
  if (!tools.has(wanted)) {
    if (wanted === 'npm' || !tools.has('npm'))
      return {
        argv: null,
        manager: wanted,
        lockfile: lockfile?.file ?? null,
        reason: `${lockfile ? `${lockfile.file} asks for ${wanted}, which` : `${wanted}`} is not installed (not on PATH), nor is npm: nothing can install the dependencies`,
        fallback: null,
      };
    const fallback = `${lockfile?.file ?? 'the repository'} asks for ${wanted}, which is not installed (not on PATH): installing with \`npm install\` instead, which does not follow ${lockfile?.file ?? 'its lockfile'} (install ${wanted} for the locked versions)`;
    return {
      argv: ['npm', 'install', ...NPM_FLAGS],
      manager: 'npm',
      lockfile: lockfile?.file ?? null,
      reason: fallback,
      fallback,
    };
  }
  if (!lockfile)
    return {
      argv: ['npm', 'install', ...NPM_FLAGS],
      manager: 'npm',
      lockfile: null,
      reason: 'package.json and no lockfile: npm install',
      fallback: null,
    };
  return {
    argv: lockfile.argv,
    manager: lockfile.manager,
    lockfile: lockfile.file,
    reason: `${lockfile.file}: ${lockfile.argv.join(' ')}`,
    fallback: null,
  };
}

interface Manifest {
  dependencies?: Record<string, unknown>;
  devDependencies?: Record<string, unknown>;
  optionalDependencies?: Record<string, unknown>;
  packageManager?: unknown;
}

function readManifest(dir: string): Manifest | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Manifest) : {};
  } catch (error) {
    if (!(isMissing(error) || error instanceof SyntaxError)) throw error;
    return null;
  }
}

interface Lockfile {
  file: string;
  manager: 'npm' | 'pnpm' | 'yarn';
  argv: string[];
}

function lockfiles(dir: string): Lockfile[] {
  const present = (file: string) => fs.existsSync(path.join(dir, file));
  const found: Lockfile[] = [];
  for (const file of ['npm-shrinkwrap.json', 'package-lock.json'])
    if (present(file)) found.push({ file, manager: 'npm', argv: ['npm', 'ci', ...NPM_FLAGS] });
  if (present('pnpm-lock.yaml'))
    found.push({
      file: 'pnpm-lock.yaml',
      manager: 'pnpm',
      argv: ['pnpm', 'install', '--frozen-lockfile', '--ignore-scripts'],
    });
  if (present('yarn.lock')) {
    // Yarn 2+ (berry) writes `__metadata` into its lockfile and keeps its settings in .yarnrc.yml; `--mode=skip-build` is its --ignore-scripts.
    const berry =
      present('.yarnrc.yml') ||
      /^__metadata:/m.test(fs.readFileSync(path.join(dir, 'yarn.lock'), 'utf8').slice(0, 4096));
    found.push({
      file: 'yarn.lock',
      manager: 'yarn',
      argv: berry
        ? ['yarn', 'install', '--immutable', '--mode=skip-build']
        : ['yarn', 'install', '--frozen-lockfile', '--ignore-scripts', '--non-interactive'],
    });
  }
  return found;
}

function pickLockfile(dir: string, packageManager: unknown): Lockfile | null {
  const found = lockfiles(dir);
  const named = typeof packageManager === 'string' ? packageManager.split('@')[0] : null;
  return found.find((lock) => lock.manager === named) ?? found[0] ?? null;
}
