import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../test-support/tempRepo';
import { detectionLabel, detectTestCommand } from './detect';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A generated repository layout: files by path. */
function layout(files: Record<string, string>): string {
  const dir = makeTempDir('lathe-layout-');
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

const pkg = (fields: object) => JSON.stringify({ name: 'p', version: '1.0.0', ...fields });
const TEST_JS = { 'test/a.test.js': "require('assert').ok(true);\n" };

describe('JavaScript layouts', () => {
  it.each([
    [
      'a config file',
      { 'package.json': pkg({}), 'jest.config.js': 'module.exports = {};\n', ...TEST_JS },
      'jest',
      ['npx', 'jest'],
      'jest.config.js; no scripts.test',
    ],
    [
      "package.json's own settings key",
      { 'package.json': pkg({ jest: { testEnvironment: 'node' } }), ...TEST_JS },
      'jest',
      ['npx', 'jest'],
      'package.json "jest" settings; no scripts.test',
    ],
    [
      'vitest.config.ts',
      { 'package.json': pkg({}), 'vitest.config.ts': 'export default {};\n', ...TEST_JS },
      'vitest',
      ['npx', 'vitest', 'run'],
      'vitest.config.ts; no scripts.test',
    ],
    [
      '.mocharc.yml',
      { 'package.json': pkg({}), '.mocharc.yml': 'spec: test\n', ...TEST_JS },
      'mocha',
      ['npx', 'mocha'],
      '.mocharc.yml; no scripts.test',
    ],
    [
      'a mocha devDependency',
      { 'package.json': pkg({ devDependencies: { mocha: '^10' } }), ...TEST_JS },
      'mocha',
      ['npx', 'mocha'],
      'mocha in package.json devDependencies; no scripts.test',
    ],
    [
      'an ava devDependency',
      { 'package.json': pkg({ devDependencies: { ava: '^6' } }), ...TEST_JS },
      'ava',
      ['npx', 'ava'],
      'ava in package.json devDependencies; no scripts.test',
    ],
    [
      'a tape devDependency',
      { 'package.json': pkg({ devDependencies: { tape: '^5' } }), 'tests/a.js': '' },
      'tape',
      ['npx', 'tape', 'tests/**/*.js'],
      'tape in package.json devDependencies; no scripts.test',
    ],
    [
      "jasmine's spec/support config",
      { 'package.json': pkg({}), 'spec/support/jasmine.json': '{}', 'spec/a.spec.js': '' },
      'jasmine',
      ['npx', 'jasmine'],
      'spec/support/jasmine.json; no scripts.test',
    ],
    [
      'an uvu dependency',
      { 'package.json': pkg({ dependencies: { uvu: '^0.5' } }), 'tests/a.js': '' },
      'uvu',
      ['npx', 'uvu', 'tests'],
      'uvu in package.json dependencies; no scripts.test',
    ],
    [
      'test files and no runner',
      { 'package.json': pkg({}), ...TEST_JS },
      'node-test',
      ['node', '--test'],
      'test/a.test.js and no test runner in package.json',
    ],
  ])('no scripts.test, %s', async (_case, files, runner, argv, reason) => {
    expect(await detectTestCommand(layout(files))).toEqual({ runner, argv, reason });
  });

  it('takes scripts.test over any config, and a config over a dependency that may be a leftover', async () => {
    const scripted = await detectTestCommand(
      layout({ 'package.json': pkg({ scripts: { test: 'mocha --reporter dot' } }), 'jest.config.js': '' }),
    );
    expect(scripted).toEqual({
      runner: 'npm',
      argv: ['npm', 'test', '--silent'],
      reason: 'package.json scripts.test "mocha --reporter dot"',
    });
    expect(detectionLabel(scripted!)).toBe('detected: npm test (package.json scripts.test "mocha --reporter dot")');
    expect(
      (
        await detectTestCommand(
          layout({ 'package.json': pkg({ devDependencies: { mocha: '*' } }), 'jest.config.cjs': '' }),
        )
      )?.runner,
    ).toBe('jest');
  });

  it('finds nothing for a package without tests or a runner', async () => {
    expect(
      await detectTestCommand(layout({ 'package.json': pkg({ dependencies: { lodash: '*' } }), 'index.js': '' })),
    ).toBeNull();
  });
});

const UNITTEST =
  'import unittest\n\nclass T(unittest.TestCase):\n    def test_one(self):\n        self.assertEqual(1, 1)\n';
const PYTEST = 'def test_one():\n    assert 1 == 1\n';

describe('Python layouts', () => {
  it('toolz: tests inside the package, tox.ini running py.test, benchmarks named test_* left out', async () => {
    const dir = layout({
      'toolz/__init__.py': '',
      'toolz/tests/__init__.py': '',
      'toolz/tests/test_core.py': PYTEST,
      'bench/test_speed.py': 'def test_slow():\n    raise SystemExit(3)\n',
      'tox.ini': '[testenv]\ndeps = pytest\ncommands = py.test {posargs}\n',
    });
    const detected = await detectTestCommand(dir);
    expect(detected).toMatchObject({
      runner: 'pytest',
      argv: [expect.stringMatching(/python/), '-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'toolz/tests'],
    });
    expect(detectionLabel(detected!)).toMatch(
      /^detected: pytest \(tests inside toolz\/; tox\.ini runs py\.test; via .*python.*\)$/,
    );
    const run = spawnSync(detected!.argv[0]!, detected!.argv.slice(1), { cwd: dir, encoding: 'utf8' });
    expect(run.stdout).toMatch(/1 passed/);
    expect(run.status).toBe(0);
  });

  it('unittest: TestCase modules with no pytest config or use, run by discovery from the top', async () => {
    const plain = layout({ 'tests/test_a.py': UNITTEST, 'mylib/__init__.py': '' });
    const detected = await detectTestCommand(plain);
    expect(detected).toMatchObject({
      runner: 'unittest',
      argv: [expect.stringMatching(/python/), '-m', 'unittest', 'discover', '-v', '-s', 'tests'],
    });
    expect(detected?.reason).toMatch(/^tests in tests\/; unittest\.TestCase tests, no pytest config; via /);
    const run = spawnSync(detected!.argv[0]!, detected!.argv.slice(1), { cwd: plain, encoding: 'utf8' });
    expect(run.stderr).toMatch(/Ran 1 test/);
    expect(run.status).toBe(0);
    // A tests package is imported from the top, so its modules can import each other as `tests.x`.
    expect(
      (await detectTestCommand(layout({ 'tests/__init__.py': '', 'tests/test_a.py': UNITTEST })))?.argv.slice(-6),
    ).toEqual(['discover', '-v', '-s', 'tests', '-t', '.']);
  });

  it('more-itertools: TestCase tests whose tox.ini runs unittest stay unittest; a pytest dependency makes them pytest', async () => {
    const tox = await detectTestCommand(
      layout({
        'tests/__init__.py': '',
        'tests/test_more.py': UNITTEST,
        'tox.ini': '[testenv]\ncommands = {envpython} -m unittest -v {posargs}\n',
      }),
    );
    expect(tox).toMatchObject({ runner: 'unittest', reason: expect.stringContaining('tox.ini runs unittest') });
    const listed = await detectTestCommand(
      layout({ 'tests/test_a.py': UNITTEST, 'pyproject.toml': '[dependency-groups]\ndev = [\n    "pytest",\n]\n' }),
    );
    expect(listed).toMatchObject({ runner: 'pytest', reason: expect.stringContaining('pyproject.toml lists pytest') });
    expect(listed?.argv.at(-1)).toBe('tests');
  });

  it('pytest: by its config (no folder added), by a module-level test function, or by a test importing pytest', async () => {
    const config = await detectTestCommand(
      layout({ 'pytest.ini': '[pytest]\ntestpaths = t\n', 't/test_a.py': PYTEST }),
    );
    expect(config).toMatchObject({
      runner: 'pytest',
      argv: [expect.any(String), '-m', 'pytest', '-q', '-p', 'no:cacheprovider'],
      reason: expect.stringMatching(/^pytest\.ini; /),
    });
    expect((await detectTestCommand(layout({ 'test/test_a.py': PYTEST })))?.argv.at(-1)).toBe('test');
    expect((await detectTestCommand(layout({ 'tests/test_a.py': `import pytest\n${UNITTEST}` })))?.runner).toBe(
      'pytest',
    );
    expect((await detectTestCommand(layout({ 'test_top.py': PYTEST })))?.argv.at(-1)).toBe('no:cacheprovider');
    expect(
      await detectTestCommand(layout({ 'src/pkg/__init__.py': '', 'src/pkg/tests/test_a.py': PYTEST })),
    ).toMatchObject({ runner: 'pytest', reason: expect.stringMatching(/^tests inside src\//) });
  });

  it('nose2: by its config file', async () => {
    expect(
      await detectTestCommand(
        layout({ 'unittest.cfg': '[unittest]\nplugins = nose2.plugins.junitxml\n', 'tests/test_a.py': UNITTEST }),
      ),
    ).toMatchObject({
      runner: 'nose2',
      argv: [expect.any(String), '-m', 'nose2', '-v'],
    });
  });

  it('a Python package without tests is no Python test layout', async () => {
    expect(
      await detectTestCommand(layout({ 'pyproject.toml': '[project]\nname = "x"\n', 'x/__init__.py': '' })),
    ).toBeNull();
  });
});

describe('Go and Rust', () => {
  it('go.mod runs go test ./..., Cargo.toml cargo test, each with its reason', async () => {
    const go = await detectTestCommand(layout({ 'go.mod': 'module example.com/x\n', 'x_test.go': 'package x\n' }));
    expect(go).toEqual({ runner: 'go', argv: ['go', 'test', './...'], reason: 'go.mod' });
    expect(detectionLabel(go!)).toBe('detected: go test (go.mod)');
    const cargo = await detectTestCommand(layout({ 'Cargo.toml': '[package]\nname = "x"\n', 'src/lib.rs': '' }));
    expect(detectionLabel(cargo!)).toBe('detected: cargo test (Cargo.toml)');
  });
});
