import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeRunnerSuite } from '../../../test-support/runnerSuites';
import { makeTempDir } from '../../../test-support/tempRepo';
import { sourceAppRoot } from '../appRoot';
import { FAILURE_EXCERPT_CHARS, failureExcerpt } from './excerpt';
import { parseSummaryLines } from './summaryLines';
import { verify } from './verify';

const appRoot = sourceAppRoot();
const bin = (name: string) => path.join(appRoot, 'node_modules', '.bin', name);
const scratch = makeTempDir('lathe-excerpt-');
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const artifactRoot = () => fs.mkdtempSync(path.join(scratch, 'artifacts-'));

/**
 * A mocha project shaped like express's suite: many files of passing tests with a few failures in
 * the middle, pending tests, and assertion diffs that make each failure's block long.
 */
function bigMochaProject(
  passing: number,
  failing: number,
): { dir: string; failures: { title: string; message: string }[] } {
  const dir = fs.mkdtempSync(path.join(scratch, 'mocha-'));
  fs.mkdirSync(path.join(dir, 'test'));
  const files = 12;
  const failures: { title: string; message: string }[] = [];
  for (let file = 0; file < files; file++) {
    const lines = [
      "const assert = require('node:assert');",
      `describe('module ${file}', function () {`,
      "  describe('when called with a value', function () {",
    ];
    for (let test = 0; test < passing / files; test++)
      lines.push(
        `    it('returns result number ${test} for the value', function () { assert.strictEqual(${test}, ${test}); });`,
      );
    if (file === 6) {
      for (let index = 0; index < failing; index++) {
        const title = `should keep header ${index} when the body is streamed`;
        failures.push({
          title: `module ${file} when called with a value ${title}`,
          message: `header-${index} was dropped`,
        });
        lines.push(
          `    it('${title}', function () { assert.deepStrictEqual({ header: 'h${index}', body: 'a long body that makes the diff long' }, { header: 'h${index}' }, 'header-${index} was dropped'); });`,
        );
      }
      lines.push("    it('is still to be written');");
    }
    lines.push('  });', '});');
    fs.writeFileSync(path.join(dir, 'test', `module${file}.test.js`), `${lines.join('\n')}\n`);
  }
  return { dir, failures };
}

describe('the failure excerpt (what a model sees of a failed run)', () => {
  it('keeps the "N failing" summary and every failing test’s title and message among ~1200 passing tests', async () => {
    const project = bigMochaProject(1200, 4);
    // `sh -c` takes no reporter flags: the runner is recognised from its output.
    const result = await verify({
      workDir: project.dir,
      argv: ['sh', '-c', `${bin('mocha')} test/`],
      timeoutMs: 120_000,
      artifactRoot: artifactRoot(),
    });
    expect(result).toMatchObject({
      status: 'FAIL',
      exitCode: 4,
      resultsFrom: 'mocha (spec output)',
      counts: { passed: 1200, failed: 4, skipped: 1, total: 1205 },
    });
    expect(result.firstFailure).toMatchObject({
      testId: project.failures[0]?.title,
      location: expect.stringMatching(/^test\/module6\.test\.js:\d+:\d+$/),
    });
    expect(result.excerpt.length).toBeLessThanOrEqual(FAILURE_EXCERPT_CHARS);
    expect(result.excerpt).toContain('4 failing');
    for (const failure of project.failures) {
      expect(result.excerpt).toContain(failure.title);
      expect(result.excerpt).toContain(failure.message);
    }
    // Seed 000's report keeps its rule (first 2500 + last 1000), which is why the others need the excerpt.
    expect(result.report).toMatch(/^[\s\S]{2500}\n\.\.\.\n[\s\S]{1000}$/);
    expect(result.report).not.toContain('4 failing');
  });

  it('lists as many titles as fit, then how many more, when there are too many failures for the budget', () => {
    const project = bigMochaProject(24, 120);
    const run = spawnSync(bin('mocha'), ['test/'], {
      cwd: project.dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    const outcome = parseSummaryLines(run.stdout);
    expect(outcome?.counts).toEqual({ passed: 24, failed: 120, skipped: 1, total: 145 });
    const excerpt = failureExcerpt(
      { status: 'FAIL', exitCode: run.status, reason: null, outcome, output: run.stdout, repoDir: project.dir },
      3000,
    );
    expect(excerpt.length).toBeLessThanOrEqual(3000);
    expect(excerpt).toContain('120 failing');
    expect(excerpt).toContain(`1) ${project.failures[0]?.title}`);
    expect(excerpt).toMatch(/… and \d+ more \(see the full log\)/);
  });

  it('says when no runner’s results could be read, and still gives the exit status and the output', async () => {
    const dir = fs.mkdtempSync(path.join(scratch, 'plain-'));
    const result = await verify({
      workDir: dir,
      argv: ['sh', '-c', 'echo "checked 3 things, one looked odd"; exit 3'],
      timeoutMs: 30_000,
      artifactRoot: artifactRoot(),
    });
    expect(result).toMatchObject({ status: 'FAIL', exitCode: 3, counts: null, firstFailure: null, resultsFrom: null });
    expect(result.excerpt).toMatch(
      /^FAIL, exit code 3 — no test results: Lathe found no summary it can read in the output \(it reads mocha, jest/,
    );
    expect(result.excerpt).toContain('checked 3 things, one looked odd');
    expect(JSON.parse(fs.readFileSync(result.manifestPath, 'utf8'))).toMatchObject({
      counts: null,
      results_from: null,
      exit_code: 3,
    });
  });

  it('says that a PASS without counts rests on the exit code alone (a runner whose output Lathe cannot read)', async () => {
    const dir = fs.mkdtempSync(path.join(scratch, 'unread-pass-'));
    const result = await verify({
      workDir: dir,
      argv: ['sh', '-c', 'echo "all good, probably"'],
      timeoutMs: 30_000,
      artifactRoot: artifactRoot(),
    });
    expect(result).toMatchObject({ status: 'PASS', exitCode: 0, counts: null, resultsFrom: null });
    expect(result.excerpt.split('\n')[0]).toMatch(
      /^PASS, exit code 0 — no test results: Lathe found no summary it can read in the output \(it reads .*\); this PASS rests on the exit code alone$/,
    );
  });

  it('asks jest for its own JSON report and reads it', async () => {
    const dir = writeRunnerSuite(fs.mkdtempSync(path.join(scratch, 'jest-')), 'jest');
    const result = await verify({
      workDir: dir,
      argv: [bin('jest')],
      timeoutMs: 120_000,
      artifactRoot: artifactRoot(),
    });
    expect(result).toMatchObject({
      status: 'FAIL',
      resultsFrom: 'jest (jest JSON)',
      counts: { passed: 2, failed: 2, skipped: 2, total: 6 },
    });
    expect(result.firstFailure).toMatchObject({
      testId: 'outer › inner › fails an assertion',
      location: 'a.test.js:4:54',
    });
    expect(fs.existsSync(path.join(result.artifactDir, 'jest.json'))).toBe(true);
    expect(result.excerpt).toMatch(
      /^FAIL, exit code 1 — jest \(jest JSON\): 2 failed, 2 passed, 2 skipped, 6 total\n {2}Test Suites: 1 failed, 1 total/,
    );
  });

  it.skipIf(spawnSync('go', ['version'], { stdio: 'ignore' }).status !== 0)(
    'runs `go test` verbose so every test is counted',
    async () => {
      const dir = writeRunnerSuite(fs.mkdtempSync(path.join(scratch, 'go-')), 'go');
      const result = await verify({
        workDir: dir,
        argv: ['go', 'test', './...'],
        timeoutMs: 120_000,
        artifactRoot: artifactRoot(),
      });
      expect(result).toMatchObject({
        status: 'FAIL',
        resultsFrom: 'go test (text output)',
        counts: { passed: 2, failed: 2, skipped: 1, total: 5 },
      });
      expect(result.firstFailure).toMatchObject({ testId: 'TestOuter/inner_fails', location: 'add_test.go:15' });
    },
  );

  // rustup's `cargo` is a shim that finds its toolchain under the user's home, which the tests never see.
  it.skipIf(spawnSync('cargo', ['--version'], { stdio: 'ignore' }).status !== 0)(
    "runs a rustup cargo in the sandbox and reads libtest's result line",
    async () => {
      const dir = writeRunnerSuite(fs.mkdtempSync(path.join(scratch, 'cargo-')), 'cargo');
      // The folder is not a run worktree, so the sandbox keeps it read-only: the lock file is made first.
      spawnSync('cargo', ['generate-lockfile', '--offline'], { cwd: dir, stdio: 'ignore' });
      const result = await verify({
        workDir: dir,
        argv: ['cargo', 'test', '--offline', '--quiet'],
        timeoutMs: 300_000,
        artifactRoot: artifactRoot(),
        env: { CARGO_TARGET_DIR: '/tmp/cargo-target' },
      });
      expect(result.reason ?? '', result.tail).not.toMatch(/rustup could not choose/);
      expect(result).toMatchObject({ status: 'FAIL', counts: { passed: 1, failed: 2, skipped: 1, total: 4 } });
    },
  );
});
