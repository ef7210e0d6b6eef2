import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromWorkflow } from '../../../shared/engine/configFromWorkflow';
import { initialState } from '../../../shared/engine/initialState';
import { feedbackFrom } from '../../../shared/engine/testFeedback';
import { WORKFLOWS } from '../../../shared/engine/workflows';
import type { RunState } from '../../../shared/engine/runState';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { createDefaultDeps } from './defaultDeps';
import { runVerification } from './verification';

const repos: TempRepo[] = [];
const dirs: string[] = [];
afterEach(() => {
  repos.splice(0).forEach((repo) => repo.remove());
  dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
});

const deps = createDefaultDeps();

/** A run of the editor-scouts workflow (seed 004) in a real run worktree, with its test and build commands. */
async function runState(
  files: Record<string, string>,
  commands: { test: string[]; build: string[] | null },
): Promise<RunState> {
  const repo = makeTempRepo({ files });
  repos.push(repo);
  const workspace = await deps.git.startRun(repo.dir, { runId: 'r1', branchPrefix: 'lathe', allowDirty: false });
  const config = {
    ...configFromWorkflow(WORKFLOWS['editor-scouts']),
    test_command: commands.test,
    build_command: commands.build,
  };
  const state = initialState({
    runId: 'r1',
    goal: 'g',
    goalHash: 'h',
    config,
    now: new Date(0).toISOString(),
    nowMs: 0,
  });
  return { ...state, workspace, head: workspace.baseCommit };
}

function artifactRoot(): string {
  const dir = makeTempDir('lathe-artifacts-');
  dirs.push(dir);
  return dir;
}

describe("the engine's test summary", () => {
  it('runs the configured build first; a failed build is a build failure the Coder is told about, not a test failure', async () => {
    const state = await runState(
      { 'a.txt': 'a\n' },
      { test: ['/bin/true'], build: ['/bin/sh', '-c', 'echo "build.ts(1,1): error TS1005: ; expected" >&2; exit 2'] },
    );
    const summary = await runVerification(deps, state, {
      artifactRoot: artifactRoot(),
      timeoutMs: 20_000,
      coverage: false,
    });
    expect(summary).toMatchObject({ status: 'FAIL', passed: false, failed_phase: 'build', exit_code: 2, counts: null });
    expect(summary.report).toMatch(/^The build command \(\/bin\/sh -c .*\) failed; the tests did not run\.\n\n/);
    expect(summary.report).toContain('error TS1005');
    expect(feedbackFrom(summary, 'first_failure', 'report').text).toContain('the tests did not run');
    expect(feedbackFrom(summary, 'first_failure', 'excerpt').text).toContain('the tests did not run');
  });

  it('carries what the suite changed in the work tree to the Tester, the Supervisor and the feedback, even on PASS', async () => {
    const rewrite = "require('fs').writeFileSync('src/app.js', 'module.exports = 0;\\n'); console.log('1 passed');";
    const state = await runState(
      { 'src/app.js': 'module.exports = 1;\n' },
      { test: [process.execPath, '-e', rewrite], build: null },
    );
    const summary = await runVerification(deps, state, {
      artifactRoot: artifactRoot(),
      timeoutMs: 20_000,
      coverage: false,
    });
    expect(summary).toMatchObject({
      status: 'PASS',
      failed_phase: null,
      work_dir_writes: { restored: ['src/app.js'], removed: [], relinked: [], failed: [] },
    });
    expect(summary.report).toMatch(
      /Note: the test command changed 1 tracked file\(s\) in the work tree: src\/app\.js\. Lathe put the committed content back/,
    );
    expect(feedbackFrom(summary, 'test_output', 'report').text).toContain('src/app.js');
    expect(feedbackFrom(summary, 'test_output', 'excerpt').text).toContain('src/app.js');
    expect(fs.readFileSync(path.join(state.workspace?.workDir ?? '', 'src/app.js'), 'utf8')).toBe(
      'module.exports = 1;\n',
    );
  });

  it('runs a suite cut off by its timeout once more before the verdict counts; one that hangs every time fails timed out', async () => {
    // The first run hangs (a busy machine), the second answers.
    const state = await runState(
      { 'a.txt': 'a\n' },
      { test: [process.execPath, '-e', "console.log('1 passed')"], build: null },
    );
    const calls: boolean[] = [];
    const hangFirst = {
      ...deps,
      verify: async (request: Parameters<typeof deps.verify>[0]) => {
        const result = await deps.verify(
          calls.length === 0 ? { ...request, argv: [process.execPath, '-e', 'setTimeout(() => {}, 60000)'] } : request,
        );
        calls.push(result.timedOut);
        return result;
      },
    };
    const summary = await runVerification(hangFirst, state, {
      artifactRoot: artifactRoot(),
      timeoutMs: 1500,
      coverage: false,
    });
    expect(calls).toEqual([true, false]);
    expect(summary).toMatchObject({ status: 'PASS', passed: true });
    const hung = await runState(
      { 'a.txt': 'a\n' },
      { test: [process.execPath, '-e', 'setTimeout(() => {}, 60000)'], build: null },
    );
    const twice: boolean[] = [];
    const countingHung = {
      ...deps,
      verify: async (request: Parameters<typeof deps.verify>[0]) => {
        const result = await deps.verify(request);
        twice.push(result.timedOut);
        return result;
      },
    };
    expect(
      await runVerification(countingHung, hung, { artifactRoot: artifactRoot(), timeoutMs: 1000, coverage: false }),
    ).toMatchObject({ status: 'FAIL', passed: false });
    expect(twice).toEqual([true, true]);
  });

  it("reports the build and the tests as seed 003's first registered tools (4.8, 3.13)", async () => {
    const green = await runState({ 'a.txt': 'a\n' }, { test: ['/bin/true'], build: ['/bin/true'] });
    const passed = await runVerification(deps, green, {
      artifactRoot: artifactRoot(),
      timeoutMs: 20_000,
      coverage: false,
    });
    expect(passed.tools.map((tool) => [tool.name, tool.status])).toEqual([
      ['build', 'PASS'],
      ['tests', 'PASS'],
    ]);
    const broken = await runState({ 'a.txt': 'a\n' }, { test: ['/bin/true'], build: ['/bin/sh', '-c', 'exit 2'] });
    const failed = await runVerification(deps, broken, {
      artifactRoot: artifactRoot(),
      timeoutMs: 20_000,
      coverage: false,
    });
    // The tests did not run, so they are not reported as run.
    expect(failed.tools.map((tool) => [tool.name, tool.status])).toEqual([['build', 'FAIL']]);
  });
});

describe('the suite against the run start (issue 26: a weakened suite is never success)', () => {
  const suite = {
    'package.json': '{ "name": "t", "version": "1.0.0" }\n',
    'src/sum.js': 'module.exports = (a, b) => a + b;\n',
    'test/sum.test.js':
      "const test = require('node:test');\nconst assert = require('node:assert');\nconst sum = require('../src/sum.js');\ntest('adds', () => assert.equal(sum(1, 2), 3));\ntest('adds negatives', () => assert.equal(sum(-1, -2), -3));\n",
  };

  async function started(): Promise<{ state: RunState; runDir: string; artifacts: string }> {
    const state = await runState(suite, { test: [process.execPath, '--test'], build: null });
    const runDir = makeTempDir('lathe-run-');
    dirs.push(runDir);
    const artifacts = artifactRoot();
    const start = await runVerification(deps, state, {
      artifactRoot: artifacts,
      timeoutMs: 20_000,
      coverage: false,
      runDir,
      purpose: 'baseline',
    });
    expect(start).toMatchObject({ status: 'PASS', counts: { total: 2 } });
    return {
      state: { ...state, baseline: { status: 'PASS', counts: start.counts, commit: state.head } },
      runDir,
      artifacts,
    };
  }

  async function commit(state: RunState, files: Record<string, string>): Promise<RunState> {
    const workspace = state.workspace as NonNullable<RunState['workspace']>;
    for (const [file, content] of Object.entries(files)) fs.writeFileSync(path.join(workspace.workDir, file), content);
    const sha = await deps.git.commitStep(workspace, Object.keys(files), {
      runId: 'r1',
      taskId: 'T1',
      title: 't',
      role: 'coder',
    });
    return { ...state, head: sha };
  }

  it('a test rewritten into a trivial one fails the verification with TESTS_WEAKENED, though its runner passes', async () => {
    const { state, runDir, artifacts } = await started();
    const trivial = await commit(state, {
      'test/sum.test.js': "const test = require('node:test');\ntest('adds', () => {});\n",
    });
    const summary = await runVerification(deps, trivial, {
      artifactRoot: artifacts,
      timeoutMs: 20_000,
      coverage: false,
      runDir,
      purpose: 'step',
    });
    expect(summary).toMatchObject({ status: 'FAIL', passed: false, exit_code: 0, counts: { total: 1 } });
    expect(summary.inventory).toMatchObject({
      compared: 'names',
      weakened: true,
      before_total: 2,
      after_total: 1,
      missing: ['adds negatives'],
      test_files_changed: ['test/sum.test.js'],
    });
    expect(summary.reason).toBe('TESTS_WEAKENED: the run started with 2 tests; this change leaves 1.');
    expect(feedbackFrom(summary, 'first_failure', 'excerpt').text).toContain('test/sum.test.js');
    expect(feedbackFrom(summary, 'test_output', 'tail').text).toContain('TESTS_WEAKENED');
  });

  it('a renamed test is a missing one, though the total stays', async () => {
    const { state, runDir, artifacts } = await started();
    const renamed = await commit(state, {
      'test/sum.test.js': suite['test/sum.test.js'].replace("test('adds negatives'", "test('adds two negatives'"),
    });
    const summary = await runVerification(deps, renamed, {
      artifactRoot: artifacts,
      timeoutMs: 20_000,
      coverage: false,
      runDir,
      purpose: 'step',
    });
    expect(summary).toMatchObject({
      status: 'FAIL',
      passed: false,
      inventory: { weakened: true, before_total: 2, after_total: 2, missing: ['adds negatives'] },
    });
  });

  it('a change to the code that keeps every test is compared and passes; `tests: allow` reports a shrink without failing', async () => {
    const { state, runDir, artifacts } = await started();
    const fixed = await commit(state, { 'src/sum.js': 'module.exports = (a, b) => b + a;\n' });
    const summary = await runVerification(deps, fixed, {
      artifactRoot: artifacts,
      timeoutMs: 20_000,
      coverage: false,
      runDir,
      purpose: 'step',
    });
    expect(summary).toMatchObject({
      status: 'PASS',
      passed: true,
      inventory: { weakened: false, before_total: 2, after_total: 2, test_files_changed: [] },
    });
    const allowed = { ...state, config: { ...state.config, tests_policy: 'allow' as const } };
    const shrunk = await commit(allowed, {
      'test/sum.test.js': "const test = require('node:test');\ntest('adds', () => {});\n",
    });
    const reported = await runVerification(deps, shrunk, {
      artifactRoot: artifacts,
      timeoutMs: 20_000,
      coverage: false,
      runDir,
      purpose: 'step',
    });
    expect(reported).toMatchObject({ status: 'PASS', passed: true, inventory: { weakened: false, after_total: 1 } });
  });
});
