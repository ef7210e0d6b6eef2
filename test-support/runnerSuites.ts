import fs from 'node:fs';
import path from 'node:path';

/**
 * One small suite per runner with the same shape: a passing test, a nested describe holding an
 * assertion failure and a thrown error (both with a place in the file), a skipped test, a
 * pending/todo test where the runner has one, and a passing top-level test.
 */
export const RUNNER_SUITES = {
  mocha: {
    'test/a.test.js': `const assert = require('node:assert');
describe('outer', function () {
  it('passes', function () { assert.strictEqual(1, 1); });
  describe('inner', function () {
    it('fails an assertion', function () { assert.strictEqual(1 + 1, 3); });
    it('throws', function () { throw new TypeError('boom here'); });
    it.skip('is skipped', function () {});
    it('is pending');
  });
});
it('top level passes', function () {});
`,
  },
  jest: {
    'package.json': '{"name":"jest-suite","private":true}\n',
    'a.test.js': `describe('outer', () => {
  test('passes', () => { expect(1).toBe(1); });
  describe('inner', () => {
    test('fails an assertion', () => { expect(1 + 1).toBe(3); });
    test('throws', () => { throw new TypeError('boom here'); });
    test.skip('is skipped', () => {});
    test.todo('is todo');
  });
});
test('top level passes', () => {});
`,
  },
  vitest: {
    'package.json': '{"name":"vitest-suite","private":true,"type":"module"}\n',
    'test/a.test.js': `import { describe, expect, it, test } from 'vitest';
describe('outer', () => {
  it('passes', () => { expect(1).toBe(1); });
  describe('inner', () => {
    it('fails an assertion', () => { expect(1 + 1).toBe(3); });
    it('throws', () => { throw new TypeError('boom here'); });
    it.skip('is skipped', () => {});
    it.todo('is todo');
  });
});
test('top level passes', () => {});
`,
  },
  node: {
    'package.json': '{"type":"module"}\n',
    'test/a.test.js': `import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
describe('outer', () => {
  it('passes', () => { assert.equal(1, 1); });
  describe('inner', () => {
    it('fails an assertion', () => { assert.equal(1 + 1, 3); });
    it('throws', () => { throw new TypeError('boom here'); });
    it.skip('is skipped', () => {});
    it.todo('is todo');
  });
});
test('top level passes', () => {});
`,
  },
  python: {
    'tests/__init__.py': '',
    'tests/test_a.py': `import unittest

import pytest


def helper(x):
    return x + 1


class TestOuter:
    def test_passes(self):
        assert helper(1) == 2

    class TestInner:
        def test_fails(self):
            assert helper(1) == 3

        def test_throws(self):
            raise TypeError("boom here")

        @pytest.mark.skip(reason="later")
        def test_skipped(self):
            pass

        @pytest.mark.xfail(reason="known")
        def test_xfail(self):
            assert False


def test_top():
    pass
`,
    'tests/test_unit.py': `import unittest


def helper(x):
    return x + 1


class Outer(unittest.TestCase):
    def test_ok(self):
        self.assertEqual(helper(1), 2)

    def test_bad(self):
        self.assertEqual(helper(1), 5)

    def test_err(self):
        {}["missing"]

    @unittest.skip("later")
    def test_skip(self):
        pass

    @unittest.expectedFailure
    def test_expected_failure(self):
        self.assertEqual(1, 2)
`,
  },
  cargo: {
    'Cargo.toml': '[package]\nname = "suite"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
    'src/lib.rs': `pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes() {
        assert_eq!(add(1, 1), 2);
    }

    mod inner {
        use super::super::*;

        #[test]
        fn fails_an_assertion() {
            assert_eq!(add(1, 1), 3);
        }

        #[test]
        fn panics() {
            panic!("boom here");
        }

        #[test]
        #[ignore]
        fn is_ignored() {}
    }
}
`,
  },
  go: {
    'go.mod': 'module example.com/suite\n\ngo 1.19\n',
    'add.go': 'package suite\n\nfunc Add(a, b int) int { return a + b }\n',
    'add_test.go': `package suite

import "testing"

func TestPasses(t *testing.T) {
	if Add(1, 1) != 2 {
		t.Fatal("bad")
	}
}

func TestOuter(t *testing.T) {
	t.Run("inner passes", func(t *testing.T) {})
	t.Run("inner fails", func(t *testing.T) {
		if got := Add(1, 1); got != 3 {
			t.Errorf("Add(1, 1) = %d, want 3", got)
		}
	})
	t.Run("skipped", func(t *testing.T) { t.Skip("later") })
}

func TestZPanics(t *testing.T) {
	panic("boom here")
}
`,
  },
} as const satisfies Record<string, Record<string, string>>;

export type RunnerSuite = keyof typeof RUNNER_SUITES;

interface SuiteEdit {
  file: string;
  from: string;
  to: string;
}

/**
 * Each suite as a model "fixing" it by weakening it would leave it: the top-level passing test
 * renamed, and the test that throws deleted (python: in both files, for pytest and unittest).
 */
export const WEAKENED_EDITS: Record<RunnerSuite, SuiteEdit[]> = {
  mocha: [
    { file: 'test/a.test.js', from: "it('top level passes'", to: "it('top level passes, renamed'" },
    { file: 'test/a.test.js', from: "    it('throws', function () { throw new TypeError('boom here'); });\n", to: '' },
  ],
  jest: [
    { file: 'a.test.js', from: "test('top level passes'", to: "test('top level passes, renamed'" },
    { file: 'a.test.js', from: "    test('throws', () => { throw new TypeError('boom here'); });\n", to: '' },
  ],
  vitest: [
    { file: 'test/a.test.js', from: "test('top level passes'", to: "test('top level passes, renamed'" },
    { file: 'test/a.test.js', from: "    it('throws', () => { throw new TypeError('boom here'); });\n", to: '' },
  ],
  node: [
    { file: 'test/a.test.js', from: "test('top level passes'", to: "test('top level passes, renamed'" },
    { file: 'test/a.test.js', from: "    it('throws', () => { throw new TypeError('boom here'); });\n", to: '' },
  ],
  python: [
    { file: 'tests/test_a.py', from: 'def test_top():', to: 'def test_top_renamed():' },
    {
      file: 'tests/test_a.py',
      from: '        def test_throws(self):\n            raise TypeError("boom here")\n\n',
      to: '',
    },
    { file: 'tests/test_unit.py', from: 'def test_ok(self):', to: 'def test_ok_renamed(self):' },
    { file: 'tests/test_unit.py', from: '    def test_err(self):\n        {}["missing"]\n\n', to: '' },
  ],
  cargo: [
    { file: 'src/lib.rs', from: 'fn passes()', to: 'fn passes_renamed()' },
    {
      file: 'src/lib.rs',
      from: '        #[test]\n        fn panics() {\n            panic!("boom here");\n        }\n\n',
      to: '',
    },
  ],
  go: [
    { file: 'add_test.go', from: 'func TestPasses(', to: 'func TestPassesRenamed(' },
    { file: 'add_test.go', from: 'func TestZPanics(t *testing.T) {\n\tpanic("boom here")\n}\n', to: '' },
  ],
};

/** Writes the suite with WEAKENED_EDITS applied; an edit that no longer finds its text is an error, not a no-op. */
export function writeWeakenedRunnerSuite(dir: string, suite: RunnerSuite, nodeModules?: string): string {
  writeRunnerSuite(dir, suite, nodeModules);
  for (const edit of WEAKENED_EDITS[suite]) {
    const file = path.join(dir, edit.file);
    const text = fs.readFileSync(file, 'utf8');
    if (!text.includes(edit.from))
      throw new Error(`${suite}/${edit.file} no longer holds ${JSON.stringify(edit.from)}`);
    fs.writeFileSync(file, text.replace(edit.from, edit.to));
  }
  return dir;
}

/** Writes one suite into `dir`; `nodeModules` is linked in for JS runners that import their own package. */
export function writeRunnerSuite(dir: string, suite: RunnerSuite, nodeModules?: string): string {
  for (const [file, text] of Object.entries(RUNNER_SUITES[suite])) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  if (nodeModules) fs.symlinkSync(nodeModules, path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/**
 * The runners test-support/runnerSuites.ts does not cover, each with the same shape where the runner
 * allows it: a passing test, a nested group holding an assertion failure and a thrown error, a skipped
 * test, a todo test where the runner has one, and a passing top-level test. The JavaScript ones need
 * test-support/runnerCache.ts's node_modules (playwright: Lathe's own).
 */
export const MORE_RUNNER_SUITES = {
  ava: {
    'package.json': '{"name":"ava-suite","private":true}\n',
    'test/a.test.js': `const test = require('ava');
test('passes', (t) => { t.is(1, 1); });
test('fails an assertion', (t) => { t.is(1 + 1, 3); });
test('throws', () => { throw new TypeError('boom here'); });
test.skip('is skipped', (t) => { t.pass(); });
test.todo('is todo');
test('top level passes', (t) => { t.pass(); });
`,
  },
  // tape ends the process on a thrown error, so its failing test reports the error through t.error.
  tape: {
    'test/a.test.js': `const test = require('tape');
test('outer passes', (t) => { t.equal(1, 1, 'one is one'); t.end(); });
test('fails an assertion', (t) => { t.equal(1 + 1, 3, 'adds up'); t.end(); });
test('reports an error', (t) => { t.error(new TypeError('boom here')); t.end(); });
test('is skipped', { skip: true }, (t) => { t.end(); });
test('is todo', { todo: true }, (t) => { t.ok(false, 'not yet'); t.end(); });
test('top level passes', (t) => { t.pass('fine'); t.end(); });
`,
  },
  tap: {
    'package.json': '{"name":"tap-suite","private":true}\n',
    'test/a.test.js': `const t = require('tap');
t.test('outer', async (t) => {
  t.test('passes', async (t) => { t.equal(1, 1); });
  t.test('inner', async (t) => {
    t.test('fails an assertion', async (t) => { t.equal(1 + 1, 3); });
    t.test('throws', async () => { throw new TypeError('boom here'); });
    t.test('is skipped', { skip: true }, async () => {});
    t.test('is todo', { todo: true }, async () => {});
  });
});
t.test('top level passes', async (t) => { t.pass('fine'); });
`,
  },
  jasmine: {
    'spec/support/jasmine.json': '{"spec_dir":"spec","spec_files":["**/*[sS]pec.js"],"random":false}\n',
    'spec/a.spec.js': `describe('outer', () => {
  it('passes', () => { expect(1).toBe(1); });
  describe('inner', () => {
    it('fails an assertion', () => { expect(1 + 1).toBe(3); });
    it('throws', () => { throw new TypeError('boom here'); });
    xit('is skipped', () => {});
    it('is pending');
  });
});
it('top level passes', () => {});
`,
    // The reference: jasmine's own reporter interface, each spec's status and first failed expectation.
    'reference-reporter.cjs': `const fs = require('node:fs');
module.exports = class ReferenceReporter {
  constructor() { this.specs = []; }
  specDone(result) { this.specs.push({ fullName: result.fullName, status: result.status, message: (result.failedExpectations[0] || {}).message || '' }); }
  jasmineDone() { fs.writeFileSync(process.env.JASMINE_REFERENCE_FILE, JSON.stringify(this.specs)); }
};
`,
  },
  uvu: {
    'tests/a.js': `const { test, suite } = require('uvu');
const assert = require('uvu/assert');
const outer = suite('outer');
outer('passes', () => { assert.is(1, 1); });
outer('fails an assertion', () => { assert.is(1 + 1, 3); });
outer('throws', () => { throw new TypeError('boom here'); });
outer.skip('is skipped', () => {});
outer.run();
test('top level passes', () => {});
test.run();
`,
  },
  qunit: {
    'test/a.test.js': `QUnit.module('outer', () => {
  QUnit.test('passes', (assert) => { assert.strictEqual(1, 1); });
  QUnit.module('inner', () => {
    QUnit.test('fails an assertion', (assert) => { assert.strictEqual(1 + 1, 3); });
    QUnit.test('throws', () => { throw new TypeError('boom here'); });
    QUnit.skip('is skipped', () => {});
    QUnit.todo('is todo', (assert) => { assert.true(false); });
  });
});
QUnit.test('top level passes', (assert) => { assert.true(true); });
`,
  },
  playwright: {
    'package.json': '{"name":"playwright-suite","private":true}\n',
    'playwright.config.js': "module.exports = { testDir: 'tests', workers: 1 };\n",
    'tests/a.spec.js': `const { test, expect } = require('@playwright/test');
test.describe('outer', () => {
  test('passes', () => { expect(1).toBe(1); });
  test.describe('inner', () => {
    test('fails an assertion', () => { expect(1 + 1).toBe(3); });
    test('throws', () => { throw new TypeError('boom here'); });
    test.skip('is skipped', () => {});
    test.fixme('is fixme', () => {});
  });
});
test('top level passes', () => {});
`,
  },
  nose2: {
    'tests/__init__.py': '',
    'tests/test_unit.py': `import unittest


def helper(x):
    return x + 1


class Outer(unittest.TestCase):
    def test_ok(self):
        self.assertEqual(helper(1), 2)

    def test_bad(self):
        self.assertEqual(helper(1), 5)

    def test_err(self):
        {}["missing"]

    @unittest.skip("later")
    def test_skip(self):
        pass

    @unittest.expectedFailure
    def test_expected_failure(self):
        self.assertEqual(1, 2)


def test_function():
    assert helper(2) == 3


def test_generator():
    for value in (1, 2):
        yield check, value


def check(value):
    assert value < 2
`,
  },
} as const satisfies Record<string, Record<string, string>>;

export type MoreRunnerSuite = keyof typeof MORE_RUNNER_SUITES;

/** Writes one suite into `dir`, with `nodeModules` linked in as its node_modules when given. */
export function writeMoreRunnerSuite(dir: string, suite: MoreRunnerSuite, nodeModules?: string): string {
  for (const [file, text] of Object.entries(MORE_RUNNER_SUITES[suite])) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  if (nodeModules) fs.symlinkSync(nodeModules, path.join(dir, 'node_modules'), 'dir');
  return dir;
}
