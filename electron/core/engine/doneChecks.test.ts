import { afterEach, describe, expect, it } from 'vitest';
import { configFromWorkflow } from '../../../shared/engine/configFromWorkflow';
import { initialState } from '../../../shared/engine/initialState';
import { WORKFLOWS } from '../../../shared/engine/workflows';
import type { RunState } from '../../../shared/engine/runState';
import { testResult } from '../../../test-support/engineSim';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { createReadOnlyTools } from '../tools/readOnlyTools';
import { createGitFacade } from '../workspace/index';
import type { RunWorkspace } from '../git/types';
import { changedCodeFiles, definitionOfDone, testsImporting } from './doneChecks';

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((repo) => repo.remove()));

const STATS =
  'export function median(values) {\n  const sorted = values.slice().sort((a, b) => a - b);\n  return sorted[Math.floor(sorted.length / 2)];\n}\n';
const TEST =
  "import { median } from '../src/stats.js';\nimport assert from 'node:assert/strict';\nassert.equal(median([3, 1, 2]), 2);\n";

/** A repository with a base commit, and the run's commits on top of it as `changes` says (one commit each). */
async function runOn(files: Record<string, string>, changes: Record<string, string>[]) {
  const repo = makeTempRepo({ files });
  repos.push(repo);
  const base = repo.git('rev-parse', 'HEAD');
  for (const [index, change] of changes.entries()) {
    for (const [file, content] of Object.entries(change)) repo.write(file, content);
    repo.commitAll(`step ${index + 1}`);
  }
  const workspace: RunWorkspace = {
    runId: 'r',
    repoRoot: repo.dir,
    workDir: repo.dir,
    mode: 'in-place',
    branch: 'main',
    baseCommit: base,
    originalBranch: 'main',
    protectedPaths: [],
  };
  const git = createGitFacade();
  const commits = await git.listRunCommits(workspace);
  const diff = await git.diffRun(workspace, base, repo.git('rev-parse', 'HEAD'));
  const testedBy = await testsImporting(createReadOnlyTools(repo.dir), changedCodeFiles(diff));
  return { commits, diff, testedBy };
}

function state(overrides: Partial<RunState> = {}): RunState {
  return {
    ...initialState({
      runId: 'r1',
      goal: 'g',
      goalHash: 'h',
      config: configFromWorkflow(WORKFLOWS['editor-scouts']),
      now: 't',
      nowMs: 0,
    }),
    last_test: testResult(true),
    ...overrides,
  };
}

const check = (checks: ReturnType<typeof definitionOfDone>, id: string) => checks.find((entry) => entry.id === id);

describe("seed 004 (4.17): the definition of done is checked from the run's diff", () => {
  it('a focused change with a test changed beside it passes both checks', async () => {
    const { commits, diff, testedBy } = await runOn(
      { 'src/stats.js': STATS.replace('.slice()', ''), 'test/stats.test.js': TEST },
      [{ 'src/stats.js': STATS, 'test/stats.test.js': `${TEST}assert.equal(median([4]), 4);\n` }],
    );
    const checks = definitionOfDone(state(), commits, diff, testedBy);
    expect(check(checks, 'minimal_diff')).toEqual({
      id: 'minimal_diff',
      ok: true,
      detail: '2 file(s), 3 line(s) changed; no whitespace-only or reverted changes',
    });
    expect(check(checks, 'tests_for_change')).toMatchObject({
      ok: true,
      detail: 'tests changed with the code: test/stats.test.js',
    });
  });

  it('re-indented lines and a file changed then changed back make the diff not minimal', async () => {
    const reindented = STATS.replace('  return', '      return');
    const { commits, diff, testedBy } = await runOn(
      { 'src/stats.js': STATS.replace('.slice()', ''), 'README.md': 'stats\n' },
      [{ 'src/stats.js': reindented, 'README.md': 'stats, sorted\n' }, { 'README.md': 'stats\n' }],
    );
    const minimal = check(definitionOfDone(state(), commits, diff, testedBy), 'minimal_diff');
    expect(minimal?.ok).toBe(false);
    expect(minimal?.detail).toContain('src/stats.js: 1 line(s) changed only in whitespace');
    expect(minimal?.detail).toContain('changed and then changed back: README.md');
  });

  it('code changed with no test beside it, none importing it and none gone green: not done', async () => {
    const { commits, diff, testedBy } = await runOn(
      {
        'src/stats.js': STATS.replace('.slice()', ''),
        'src/other.js': 'export const x = 1;\n',
        'test/other.test.js': "import { x } from '../src/other.js';\n",
      },
      [{ 'src/stats.js': STATS }],
    );
    expect(testedBy).toEqual({ 'src/stats.js': [] });
    expect(check(definitionOfDone(state(), commits, diff, testedBy), 'tests_for_change')).toEqual({
      id: 'tests_for_change',
      ok: false,
      detail: 'src/stats.js changed, but no test changed with it, imports it, or went from failing to passing',
    });
  });

  it('code whose existing test went from failing to passing, or that a test imports, has its tests', async () => {
    const { commits, diff, testedBy } = await runOn(
      { 'src/stats.js': STATS.replace('.slice()', ''), 'test/stats.test.js': TEST },
      [{ 'src/stats.js': STATS }],
    );
    expect(testedBy).toEqual({ 'src/stats.js': ['test/stats.test.js'] });
    const redToGreen = state({
      failure_history: [
        {
          step_id: null,
          status: 'FAIL',
          first_failure: 'test/stats.test.js: median keeps its input: 1 !== 3',
          report: '',
          artifact_dir: '/a',
        },
      ],
    });
    expect(check(definitionOfDone(redToGreen, commits, diff, {}), 'tests_for_change')).toMatchObject({
      ok: true,
      detail: 'failing tests now pass: test/stats.test.js',
    });
    expect(check(definitionOfDone(state(), commits, diff, testedBy), 'tests_for_change')).toMatchObject({
      ok: true,
      detail: 'existing tests exercise the change: src/stats.js ← test/stats.test.js',
    });
    // Red at the end, neither counts.
    expect(
      check(definitionOfDone(state({ last_test: testResult(false) }), commits, diff, testedBy), 'tests_for_change')?.ok,
    ).toBe(false);
  });

  it('a run that changed nothing is not done', () => {
    const checks = definitionOfDone(state({ last_test: null }), [], [], {});
    expect(checks.map((entry) => [entry.id, entry.ok])).toEqual([
      ['verifier_pass', false],
      ['minimal_diff', false],
      ['tests_for_change', true],
      ['summary', true],
    ]);
  });

  it('which tests import the changed files is read from the test files alone, each once, whatever the number of changed files', async () => {
    const repo = makeTempRepo({
      files: {
        'src/stats.js': STATS,
        'src/format.js': 'export const f = 1;\n',
        'src/unused.js': "import { median } from './stats.js';\n",
        'test/stats.test.js': TEST,
        'test/format.test.js':
          "const { f } = require('../src/format');\n// format is also mentioned here without an import\n",
        'test/fixture.bin.test.js': Buffer.from([0, 1, 2, 3]).toString('latin1'),
      },
    });
    repos.push(repo);
    const real = createReadOnlyTools(repo.dir);
    const reads: string[] = [];
    const tools = {
      ...real,
      readFile: async (file: string, options?: { maxBytes?: number }) => (
        reads.push(file),
        real.readFile(file, options)
      ),
      searchText: () => Promise.reject(new Error('a search reads every file of the repository')),
    };
    const testedBy = await testsImporting(tools, ['src/stats.js', 'src/format.js', 'src/missing.js']);
    expect(testedBy).toEqual({
      'src/stats.js': ['test/stats.test.js'],
      'src/format.js': ['test/format.test.js'],
      'src/missing.js': [],
    });
    expect(reads.sort()).toEqual(['test/fixture.bin.test.js', 'test/format.test.js', 'test/stats.test.js']);
  });
});
