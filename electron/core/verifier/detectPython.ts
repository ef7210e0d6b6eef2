import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { DetectedTestCommand } from './types';
import { exists, listEntries, readText } from './detectFiles';

type PythonRunner = 'pytest' | 'unittest' | 'nose2';

const TEST_FILE = /^(test_.*|.*_test)\.py$/;
const UNITTEST_FILE = /^test.*\.py$/;
/** Enough of a suite's files to tell its style without reading a large one whole. */
const STYLE_FILES = 40;
const STYLE_BYTES = 64 * 1024;

interface TestFolder {
  /** Relative to the repository, '' for its top. */
  folder: string;
  files: string[];
  /** Whether the folder is a package importable from the top (every folder on its way has `__init__.py`). */
  importable: boolean;
}

/**
 * A Python project's tests: pytest when its config says so; nose2 for a nose2 config; otherwise by
 * where test files are (the top, `tests/`, `test/`, or inside a package, as toolz keeps them) and
 * what runs them: tox.ini's or the Makefile's test command, pytest among the declared dependencies,
 * then the files themselves (all `unittest.TestCase` and never pytest: unittest). Runs from the top,
 * which `python -m` puts first on sys.path.
 */
export async function detectPython(dir: string): Promise<DetectedTestCommand | null> {
  const config = await pytestConfig(dir);
  const folders = await pythonTestFolders(dir);
  const where = describeFolders(folders);
  if (config) return pytestCommand(dir, [], [config, where].filter(Boolean).join('; '));
  for (const name of ['nose2.cfg', 'unittest.cfg']) {
    if (await exists(path.join(dir, name))) return command(dir, 'nose2', ['-v'], name);
  }
  if (folders.length === 0) return null;
  const declared = await declaredRunner(dir);
  const runner = declared?.runner ?? ((await unittestOnly(dir, folders)) ? 'unittest' : 'pytest');
  const why = declared?.reason ?? (runner === 'unittest' ? 'unittest.TestCase tests, no pytest config' : null);
  const reason = [where, why].filter(Boolean).join('; ');
  if (runner === 'pytest')
    return pytestCommand(
      dir,
      folders.some((entry) => entry.folder === '') ? [] : folders.map((entry) => entry.folder),
      reason,
    );
  if (runner === 'nose2') return command(dir, 'nose2', ['-v'], reason);
  const [first] = folders;
  const start = !first || first.folder === '' ? [] : ['-s', first.folder, ...(first.importable ? ['-t', '.'] : [])];
  return command(dir, 'unittest', ['discover', '-v', ...start], reason);
}

async function pytestConfig(dir: string): Promise<string | null> {
  if (await exists(path.join(dir, 'pytest.ini'))) return 'pytest.ini';
  if (/^\[tool\.pytest/m.test((await readText(path.join(dir, 'pyproject.toml'))) ?? ''))
    return 'pyproject.toml [tool.pytest]';
  if (/^\[tool:pytest\]/m.test((await readText(path.join(dir, 'setup.cfg'))) ?? '')) return 'setup.cfg [tool:pytest]';
  if (/^\[pytest\]/m.test((await readText(path.join(dir, 'tox.ini'))) ?? '')) return 'tox.ini [pytest]';
  if (await exists(path.join(dir, 'conftest.py'))) return 'conftest.py';
  return null;
}

function pytestCommand(dir: string, folders: string[], reason: string): DetectedTestCommand {
  return command(dir, 'pytest', ['-q', '-p', 'no:cacheprovider', ...folders], reason);
}

function command(dir: string, runner: PythonRunner, args: string[], reason: string): DetectedTestCommand {
  const python = pickPython(dir, runner === 'unittest' ? null : runner);
  return { argv: [python, '-m', runner, ...args], runner, reason: `${reason}; via ${python}` };
}

/** The top, `tests/`, `test/`, and each top-level package's (also under `src/`) own `tests/` or `test/`. */
async function pythonTestFolders(dir: string): Promise<TestFolder[]> {
  const candidates: { folder: string; importable: boolean }[] = [
    { folder: '', importable: true },
    { folder: 'tests', importable: await exists(path.join(dir, 'tests', '__init__.py')) },
    { folder: 'test', importable: await exists(path.join(dir, 'test', '__init__.py')) },
  ];
  for (const parent of ['', 'src']) {
    for (const entry of await listEntries(path.join(dir, parent))) {
      if (
        !entry.isDirectory() ||
        entry.name.startsWith('.') ||
        /^(tests?|docs?|examples?|bench(marks?)?|build|dist|node_modules|venv|\.venv)$/.test(entry.name)
      )
        continue;
      const pkg = path.posix.join(parent, entry.name);
      if (!(await exists(path.join(dir, pkg, '__init__.py')))) continue;
      for (const sub of ['tests', 'test'])
        candidates.push({
          folder: `${pkg}/${sub}`,
          importable: parent === '' && (await exists(path.join(dir, pkg, sub, '__init__.py'))),
        });
    }
  }
  const found: TestFolder[] = [];
  for (const candidate of candidates) {
    const files = (await listEntries(path.join(dir, candidate.folder)))
      .filter((entry) => entry.isFile() && TEST_FILE.test(entry.name))
      .map((entry) => entry.name);
    if (files.length > 0) found.push({ ...candidate, files });
  }
  return found;
}

function describeFolders(folders: TestFolder[]): string {
  if (folders.length === 0) return '';
  const [first] = folders;
  const named = folders.map((entry) => (entry.folder === '' ? 'the top folder' : `${entry.folder}/`)).join(', ');
  if (first && folders.length === 1 && first.folder.includes('/')) return `tests inside ${first.folder.split('/')[0]}/`;
  return `tests in ${named}`;
}

/** The runner a project names for its tests: tox.ini's commands, the Makefile's test recipe, then pytest among its dependencies. */
async function declaredRunner(dir: string): Promise<{ runner: PythonRunner; reason: string } | null> {
  const tox = (await readText(path.join(dir, 'tox.ini'))) ?? '';
  const toxCommands = [...tox.matchAll(/^commands\s*=([^\n]*(?:\n[ \t]+[^\n]*)*)/gm)]
    .map((match) => match[1] ?? '')
    .join('\n');
  const fromTox = runnerNamed(toxCommands);
  if (fromTox)
    return {
      runner: fromTox,
      reason: `tox.ini runs ${fromTox === 'pytest' && /py\.test/.test(toxCommands) ? 'py.test' : fromTox}`,
    };
  for (const name of ['GNUmakefile', 'makefile', 'Makefile']) {
    const make = await readText(path.join(dir, name));
    const recipe = make?.match(/^test\s*:[^\n]*\n((?:\t[^\n]*\n?)*)/m)?.[1] ?? '';
    const fromMake = runnerNamed(recipe);
    if (fromMake) return { runner: fromMake, reason: `${name}'s test target runs ${fromMake}` };
  }
  for (const name of [
    'pyproject.toml',
    'setup.cfg',
    'setup.py',
    'requirements-dev.txt',
    'requirements_dev.txt',
    'dev-requirements.txt',
    'requirements/testing.txt',
    'requirements/test.txt',
    'tox.ini',
  ]) {
    const text = await readText(path.join(dir, name));
    if (text && /["'\s=]pytest\b(?![-_]?(cov|mock|xdist|asyncio|benchmark|timeout|runner))/m.test(text))
      return { runner: 'pytest', reason: `${name} lists pytest` };
  }
  return null;
}

function runnerNamed(text: string): PythonRunner | null {
  if (/\b(pytest|py\.test)\b/.test(text)) return 'pytest';
  if (/\bnose2\b/.test(text)) return 'nose2';
  if (/-m\s+unittest\b/.test(text)) return 'unittest';
  return null;
}

/** Every test file a `unittest.TestCase` module that never uses pytest and has no module-level test function. */
async function unittestOnly(dir: string, folders: TestFolder[]): Promise<boolean> {
  const files = folders
    .flatMap((entry) =>
      entry.files.filter((name) => UNITTEST_FILE.test(name)).map((name) => path.join(dir, entry.folder, name)),
    )
    .slice(0, STYLE_FILES);
  if (files.length === 0) return false;
  for (const file of files) {
    const text = ((await readText(file)) ?? '').slice(0, STYLE_BYTES);
    if (/^\s*(import|from)\s+pytest\b/m.test(text) || /^(async\s+)?def\s+test/m.test(text)) return false;
    if (!/\bTestCase\b/.test(text)) return false;
  }
  return true;
}

/**
 * The project's virtualenv first, then the system python3 (distribution packages), then whatever
 * python3 is on PATH; the first that can import the runner's module wins (any, for unittest).
 */
export function pickPython(dir: string, module: string | null = 'pytest'): string {
  const candidates = [
    path.join(dir, '.venv', 'bin', 'python'),
    path.join(dir, 'venv', 'bin', 'python'),
    '/usr/bin/python3',
    'python3',
  ];
  const present = candidates.filter((candidate) => !candidate.includes('/') || fs.existsSync(candidate));
  if (module === null) return present[0] ?? 'python3';
  for (const candidate of present) {
    const probe = spawnSync(candidate, ['-c', `import ${module}`], { stdio: 'ignore', timeout: 10_000 });
    if (probe.status === 0) return candidate;
  }
  return present[0] ?? 'python3';
}
