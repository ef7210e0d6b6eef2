import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { LatheError } from '../../../shared/errors';
import { isMissing, unreadable } from '../fsErrors';
import type { DetectedTestCommand } from '../workspace/types';

const NPM_PLACEHOLDER = /no test specified/;
const SHELL_SYNTAX = /[|&;<>()$`\\"'*?[\]{}~]/;

// A manifest that is there but cannot be read throws FILE_UNREADABLE: taken for absent, detection
// would fall through to the next runner and Lathe would run some other command as the repo's tests.
async function readText(file: string): Promise<string | null> {
  try {
    return await fs.promises.readFile(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    throw unreadable(file, error);
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.promises.access(file);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw unreadable(file, error);
  }
}

/**
 * The repository's own test command, in this order: package.json `scripts.test`, pytest, go, cargo,
 * make. docs/workspace.md documents the rules; a configured command always wins over this.
 * Throws FILE_UNREADABLE when a manifest exists but cannot be read (or package.json is not JSON):
 * which runner the repository uses cannot be told then, and guessing past it would pick the wrong one.
 */
export async function detectTestCommand(dir: string): Promise<DetectedTestCommand | null> {
  return (await detectNpm(dir)) ?? (await detectPytest(dir)) ?? (await detectSimple(dir));
}

async function detectNpm(dir: string): Promise<DetectedTestCommand | null> {
  const file = path.join(dir, 'package.json');
  const text = await readText(file);
  if (text === null) return null;
  let script: unknown;
  try {
    script = (JSON.parse(text) as { scripts?: { test?: unknown } } | null)?.scripts?.test;
  } catch (error) {
    // npm itself refuses this file; another runner found past it would not be the repository's.
    throw new LatheError('FILE_UNREADABLE', `${file} exists but could not be read as JSON: ${error instanceof Error ? error.message : String(error)}`, { path: file, errno: null });
  }
  if (typeof script !== 'string' || !script.trim() || NPM_PLACEHOLDER.test(script)) return null;
  const words = script.trim().split(/\s+/);
  // `node --test …` with no shell syntax runs directly, so the Verifier can add its JUnit reporter.
  if (words[0] === 'node' && words.includes('--test') && !SHELL_SYNTAX.test(script)) {
    return { argv: words, runner: 'node-test', reason: `package.json scripts.test is "${script}", run directly (no npm, no shell)` };
  }
  return { argv: ['npm', 'test', '--silent'], runner: 'npm', reason: `package.json has scripts.test ("${script.slice(0, 120)}")` };
}

async function detectPytest(dir: string): Promise<DetectedTestCommand | null> {
  const reasons: [string, () => Promise<boolean>][] = [
    ['pytest.ini', () => exists(path.join(dir, 'pytest.ini'))],
    ['pyproject.toml [tool.pytest]', async () => /^\[tool\.pytest/m.test((await readText(path.join(dir, 'pyproject.toml'))) ?? '')],
    ['setup.cfg [tool:pytest]', async () => /^\[tool:pytest\]/m.test((await readText(path.join(dir, 'setup.cfg'))) ?? '')],
    ['tox.ini [pytest]', async () => /^\[pytest\]/m.test((await readText(path.join(dir, 'tox.ini'))) ?? '')],
    ['conftest.py', () => exists(path.join(dir, 'conftest.py'))],
    ['test_*.py files', () => hasPythonTests(dir)],
  ];
  for (const [reason, check] of reasons) {
    if (await check()) {
      const python = pickPython(dir);
      return { argv: [python, '-m', 'pytest', '-q', '-p', 'no:cacheprovider'], runner: 'pytest', reason: `${reason} found; pytest via ${python}` };
    }
  }
  return null;
}

async function hasPythonTests(dir: string): Promise<boolean> {
  for (const folder of ['', 'tests', 'test']) {
    const names = await listNames(path.join(dir, folder));
    if (names.some((name) => /^test_.*\.py$/.test(name) || /_test\.py$/.test(name))) return true;
  }
  return false;
}

async function listNames(folder: string): Promise<string[]> {
  try {
    return await fs.promises.readdir(folder);
  } catch (error) {
    if (isMissing(error)) return [];
    throw unreadable(folder, error);
  }
}

/**
 * The project's virtualenv first, then the system python3 (distribution pytest), then whatever
 * python3 is on PATH; the first that can import pytest wins.
 */
export function pickPython(dir: string): string {
  const candidates = [path.join(dir, '.venv', 'bin', 'python'), path.join(dir, 'venv', 'bin', 'python'), '/usr/bin/python3', 'python3'];
  const present = candidates.filter((candidate) => !candidate.includes('/') || fs.existsSync(candidate));
  for (const candidate of present) {
    const probe = spawnSync(candidate, ['-c', 'import pytest'], { stdio: 'ignore', timeout: 10_000 });
    if (probe.status === 0) return candidate;
  }
  return present[0] ?? 'python3';
}

async function detectSimple(dir: string): Promise<DetectedTestCommand | null> {
  if (await exists(path.join(dir, 'go.mod'))) return { argv: ['go', 'test', './...'], runner: 'go', reason: 'go.mod found' };
  if (await exists(path.join(dir, 'Cargo.toml'))) return { argv: ['cargo', 'test'], runner: 'cargo', reason: 'Cargo.toml found' };
  for (const name of ['GNUmakefile', 'makefile', 'Makefile']) {
    const text = await readText(path.join(dir, name));
    if (text !== null && /^test\s*:/m.test(text)) return { argv: ['make', 'test'], runner: 'make', reason: `${name} has a test target` };
  }
  return null;
}
