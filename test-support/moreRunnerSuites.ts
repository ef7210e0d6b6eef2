import fs from 'node:fs';
import path from 'node:path';

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
