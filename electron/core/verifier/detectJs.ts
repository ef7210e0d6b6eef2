import path from 'node:path';
import { LatheError } from '../../../shared/errors';
import type { DetectedTestCommand } from './types';
import { exists, listEntries, readText } from './detectFiles';

const NPM_PLACEHOLDER = /no test specified/;
const SHELL_SYNTAX = /[|&;<>()$`\\"'*?[\]{}~]/;
const JS_FILE = /\.(c|m)?(j|t)sx?$/;

interface PackageManifest {
  scripts?: Record<string, unknown>;
  dependencies?: Record<string, unknown>;
  devDependencies?: Record<string, unknown>;
  [key: string]: unknown;
}

type JsRunner = Extract<
  DetectedTestCommand['runner'],
  'vitest' | 'jest' | 'mocha' | 'ava' | 'jasmine' | 'tape' | 'uvu'
>;

interface RunnerRule {
  runner: JsRunner;
  configs: string[];
  /** The key of package.json that configures it, where it has one. */
  manifestKey?: string;
  argv(testDir: string | null): string[];
}

const ext = (base: string, exts: string[]) => exts.map((extension) => `${base}.${extension}`);
const SCRIPT_EXTS = ['js', 'cjs', 'mjs', 'ts', 'cts', 'mts'];

// A config file names the runner more surely than a dependency, which may be a leftover: all
// configs are tried before any dependency, each list in this order.
const RULES: RunnerRule[] = [
  {
    runner: 'vitest',
    configs: [...ext('vitest.config', SCRIPT_EXTS), ...ext('vitest.workspace', [...SCRIPT_EXTS, 'json'])],
    argv: () => ['npx', 'vitest', 'run'],
  },
  {
    runner: 'jest',
    configs: ext('jest.config', [...SCRIPT_EXTS, 'json']),
    manifestKey: 'jest',
    argv: () => ['npx', 'jest'],
  },
  {
    runner: 'mocha',
    configs: ext('.mocharc', ['js', 'cjs', 'mjs', 'json', 'jsonc', 'yaml', 'yml']),
    manifestKey: 'mocha',
    argv: () => ['npx', 'mocha'],
  },
  { runner: 'ava', configs: ext('ava.config', ['js', 'cjs', 'mjs']), manifestKey: 'ava', argv: () => ['npx', 'ava'] },
  {
    runner: 'jasmine',
    configs: ext('spec/support/jasmine', ['json', 'js', 'mjs', 'cjs']),
    argv: () => ['npx', 'jasmine'],
  },
  // tape has no default files: it is given the test folder's files (tape expands the glob itself).
  { runner: 'tape', configs: [], argv: (testDir) => ['npx', 'tape', `${testDir ?? 'test'}/**/*.js`] },
  { runner: 'uvu', configs: [], argv: (testDir) => ['npx', 'uvu', ...(testDir ? [testDir] : [])] },
];

/**
 * A JavaScript project's tests: package.json `scripts.test` first; without one, the runner its
 * config files, package.json keys or dependencies name; without any, `node --test` when it has test
 * files. Throws FILE_UNREADABLE for a package.json that cannot be read or is not JSON.
 */
export async function detectJavaScript(dir: string): Promise<DetectedTestCommand | null> {
  const file = path.join(dir, 'package.json');
  const text = await readText(file);
  if (text === null) return null;
  let manifest: PackageManifest | null;
  try {
    manifest = JSON.parse(text) as PackageManifest | null;
  } catch (error) {
    // npm itself refuses this file; another runner found past it would not be the repository's.
    throw new LatheError(
      'FILE_UNREADABLE',
      `${file} exists but could not be read as JSON: ${error instanceof Error ? error.message : String(error)}`,
      { path: file, errno: null },
    );
  }
  const fromScript = scriptCommand(manifest?.scripts?.test);
  if (fromScript) return fromScript;
  const testDir = await jsTestDir(dir);
  for (const rule of RULES) {
    for (const config of rule.configs)
      if (await exists(path.join(dir, config)))
        return { argv: rule.argv(testDir), runner: rule.runner, reason: `${config}; no scripts.test` };
    if (rule.manifestKey && manifest && typeof manifest[rule.manifestKey] === 'object')
      return {
        argv: rule.argv(testDir),
        runner: rule.runner,
        reason: `package.json "${rule.manifestKey}" settings; no scripts.test`,
      };
  }
  for (const rule of RULES) {
    const field =
      manifest?.devDependencies?.[rule.runner] !== undefined
        ? 'devDependencies'
        : manifest?.dependencies?.[rule.runner] !== undefined
          ? 'dependencies'
          : null;
    if (field)
      return {
        argv: rule.argv(testDir),
        runner: rule.runner,
        reason: `${rule.runner} in package.json ${field}; no scripts.test`,
      };
  }
  const testFile = await nodeTestFile(dir, testDir);
  if (testFile)
    return { argv: ['node', '--test'], runner: 'node-test', reason: `${testFile} and no test runner in package.json` };
  return null;
}

function scriptCommand(script: unknown): DetectedTestCommand | null {
  if (typeof script !== 'string' || !script.trim() || NPM_PLACEHOLDER.test(script)) return null;
  const words = script.trim().split(/\s+/);
  // `node --test …` with no shell syntax runs directly, so the Verifier can add its JUnit reporter.
  if (words[0] === 'node' && words.includes('--test') && !SHELL_SYNTAX.test(script)) {
    return {
      argv: words,
      runner: 'node-test',
      reason: `package.json scripts.test "${script}", run directly (no npm, no shell)`,
    };
  }
  return {
    argv: ['npm', 'test', '--silent'],
    runner: 'npm',
    reason: `package.json scripts.test "${script.length > 120 ? `${script.slice(0, 119)}…` : script}"`,
  };
}

/** The folder the tests live in by the usual names, when it holds script files. */
async function jsTestDir(dir: string): Promise<string | null> {
  for (const name of ['test', 'tests', '__tests__', 'spec']) {
    const entries = await listEntries(path.join(dir, name));
    if (entries.some((entry) => entry.isDirectory() || JS_FILE.test(entry.name))) return name;
  }
  return null;
}

/** A file node's test runner finds by itself: in a test folder, or named `*.test.js`, `test-*.js`, `*_test.js` at the top. */
async function nodeTestFile(dir: string, testDir: string | null): Promise<string | null> {
  if (testDir === 'test' || testDir === 'tests') {
    const files = (await listEntries(path.join(dir, testDir))).filter(
      (entry) => entry.isFile() && /\.(c|m)?js$/.test(entry.name),
    );
    if (files[0]) return `${testDir}/${files[0].name}`;
  }
  const top = (await listEntries(dir)).find(
    (entry) => entry.isFile() && /(^test-.*|[._-]test)\.(c|m)?js$/.test(entry.name),
  );
  return top ? top.name : null;
}
