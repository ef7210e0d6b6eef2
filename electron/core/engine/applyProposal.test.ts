import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configFromWorkflow } from '../../../shared/engine/configFromWorkflow';
import { initialState } from '../../../shared/engine/initialState';
import { WORKFLOWS } from '../../../shared/engine/workflows';
import type { RunState } from '../../../shared/engine/runState';
import { testResult } from '../../../test-support/engineSim';
import { makeTempDir } from '../../../test-support/tempRepo';
import { rejectEdit } from '../basics/rejection';
import { applyProposal } from './applyProposal';
import { createDefaultDeps } from './defaultDeps';
import type { EngineDeps } from './engineDeps';

let dir: string | null = null;
afterEach(() => {
  vi.restoreAllMocks();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** The real edit formats, guardrails and writer; a git that only records what it was asked to commit. */
function deps(commits: string[][]): EngineDeps {
  const real = createDefaultDeps();
  const git = {
    ...real.git,
    headOf: async () => 'base',
    resetTo: async () => undefined,
    commitStep: async (_workspace: unknown, files: string[]) => (commits.push(files), 'c1'),
  };
  return { ...real, git: git as EngineDeps['git'] };
}

function stateFor(workDir: string, edits: { path: string; search: string; replace: string }[]): RunState {
  const config = { ...configFromWorkflow(WORKFLOWS['dev-agent']), edit_format: 'search-replace' as const };
  return {
    ...initialState({ runId: 'r1', goal: 'fix it', goalHash: 'h', config, now: 't', nowMs: 0 }),
    workspace: {
      runId: 'r1',
      repoRoot: workDir,
      workDir,
      mode: 'in-place',
      branch: 'lathe/r1',
      baseCommit: 'base',
      originalBranch: 'main',
      protectedPaths: [],
    },
    head: 'base',
    proposal: { edits },
    proposal_files: [],
  };
}

describe('applyProposal reads the files it edits through the workspace reader', () => {
  it('refuses an edit to a binary file and leaves it as it was', async () => {
    dir = makeTempDir();
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x0a, 0x1a, 0x00, 0x41]);
    fs.writeFileSync(path.join(dir, 'logo.png'), bytes);
    const commits: string[][] = [];
    const outcome = await applyProposal(
      deps(commits),
      stateFor(dir, [{ path: 'logo.png', search: 'A', replace: 'B' }]),
      'coder',
    );
    expect(outcome).toMatchObject({
      kind: 'apply_rejected',
      code: 'EDIT_REJECTED',
      rule: 'binary-content',
      path: 'logo.png',
    });
    expect(fs.readFileSync(path.join(dir, 'logo.png'))).toEqual(bytes);
    expect(commits).toEqual([]);
  });

  it('puts the work tree back when the commit refuses a file git would store through a filter', async () => {
    dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'secret.env'), 'KEY=1\n');
    const resets: string[] = [];
    const base = deps([]);
    const refusing = {
      ...base.git,
      resetTo: async (_workspace: unknown, commit: string) => void resets.push(commit),
      commitStep: async () => {
        throw rejectEdit('needs-filter', 'secret.env', 'git stores this file through the "crypt" filter');
      },
    };
    const outcome = await applyProposal(
      { ...base, git: refusing as EngineDeps['git'] },
      stateFor(dir, [{ path: 'secret.env', search: 'KEY=1', replace: 'KEY=2' }]),
      'coder',
    );
    expect(outcome).toMatchObject({
      kind: 'apply_rejected',
      code: 'EDIT_REJECTED',
      rule: 'needs-filter',
      path: 'secret.env',
    });
    expect(resets).toEqual(['base']);
  });

  it('refuses an edit to a file too large to plan, untouched', async () => {
    dir = makeTempDir();
    const big = `${'x'.repeat(1023)}\n`.repeat(9 * 1024);
    fs.writeFileSync(path.join(dir, 'huge.txt'), big);
    const outcome = await applyProposal(
      deps([]),
      stateFor(dir, [{ path: 'huge.txt', search: 'x', replace: 'y' }]),
      'coder',
    );
    expect(outcome).toMatchObject({
      kind: 'apply_rejected',
      code: 'EDIT_REJECTED',
      rule: 'too-large',
      path: 'huge.txt',
    });
    expect(fs.statSync(path.join(dir, 'huge.txt')).size).toBe(big.length);
  });

  it('ends with FILE_UNREADABLE when a file exists but cannot be read, instead of creating it anew over the top', async () => {
    dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'keep me\n');
    // Root reads any file, so the permission failure is injected where the reader asks.
    const realStat = fs.statSync;
    vi.spyOn(fs, 'statSync').mockImplementation(((target: fs.PathLike, ...rest: []) => {
      if (String(target).endsWith('secret.txt'))
        throw Object.assign(new Error(`EACCES: permission denied, stat '${String(target)}'`), { code: 'EACCES' });
      return realStat(target, ...rest);
    }) as typeof fs.statSync);
    const commits: string[][] = [];
    // An empty search creates a file: taken for missing, this would overwrite the user's file.
    const outcome = await applyProposal(
      deps(commits),
      stateFor(dir, [{ path: 'secret.txt', search: '', replace: 'new\n' }]),
      'coder',
    );
    expect(outcome).toMatchObject({ kind: 'fatal', code: 'FILE_UNREADABLE' });
    expect(fs.readFileSync(path.join(dir, 'secret.txt'), 'utf8')).toBe('keep me\n');
    expect(commits).toEqual([]);
  });

  it('still applies an ordinary text edit and commits the file', async () => {
    dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'a.js'), 'const a = 1;\n');
    const commits: string[][] = [];
    const outcome = await applyProposal(
      deps(commits),
      stateFor(dir, [{ path: 'a.js', search: 'const a = 1;', replace: 'const a = 2;' }]),
      'coder',
    );
    expect(outcome).toMatchObject({ kind: 'applied', files: ['a.js'] });
    expect(fs.readFileSync(path.join(dir, 'a.js'), 'utf8')).toBe('const a = 2;\n');
    expect(commits).toEqual([['a.js']]);
  });

  it("flushes each written file to the disk in the user's checkout, not in the run's own worktree", async () => {
    for (const mode of ['in-place', 'worktree'] as const) {
      dir = makeTempDir();
      fs.writeFileSync(path.join(dir, 'a.js'), 'const a = 1;\n');
      const flushed: number[] = [];
      const realFsync = fs.fsyncSync;
      const spy = vi.spyOn(fs, 'fsyncSync').mockImplementation((fd) => (flushed.push(fd), realFsync(fd)));
      const state = stateFor(dir, [{ path: 'a.js', search: 'const a = 1;', replace: 'const a = 2;' }]);
      const outcome = await applyProposal(
        deps([]),
        { ...state, workspace: state.workspace && { ...state.workspace, mode } },
        'coder',
      );
      spy.mockRestore();
      expect(outcome).toMatchObject({ kind: 'applied', files: ['a.js'] });
      expect(fs.readFileSync(path.join(dir, 'a.js'), 'utf8')).toBe('const a = 2;\n');
      expect({ mode, flushed: flushed.length }).toEqual({ mode, flushed: mode === 'in-place' ? 1 : 0 });
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('refused before anything is written (issue 26)', () => {
  const gateless = (state: RunState): RunState => ({
    ...state,
    config: { ...state.config, gates: { plan: 'off', code: 'off', step: 'off', goal: 'off' } },
  });

  it('an answer that changes nothing, where the tests are known to fail, is told so', async () => {
    dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'a.py'), 'x = 1\n');
    const commits: string[][] = [];
    const red: RunState = {
      ...stateFor(dir, [{ path: 'a.py', search: 'x = 1', replace: 'x = 1' }]),
      tested_head: { commit: 'base', failed: 1, total: 3, passed: false, build_failed: false },
    };
    const outcome = await applyProposal(deps(commits), red, 'coder');
    expect(outcome).toMatchObject({ kind: 'apply_rejected', rule: 'no-change' });
    expect(outcome.kind === 'apply_rejected' && outcome.message).toMatch(
      /^your edit changed nothing: every file is exactly as it was, so the tests fail as before/,
    );
    expect(commits).toEqual([]);
  });

  it('refuses an answer with an edit that changes nothing beside one that does, naming the edit, whatever the tests say', async () => {
    dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'a.py'), 'x = 1\ny = 2\n');
    for (const tested of [
      { failed: 1, passed: false },
      { failed: 0, passed: true },
    ]) {
      const commits: string[][] = [];
      const edits = [
        { path: 'a.py', search: 'x = 1', replace: 'x = 10' },
        { path: 'a.py', search: 'y = 2', replace: 'y = 2' },
      ];
      const state: RunState = {
        ...stateFor(dir, edits),
        tested_head: { commit: 'base', total: 3, build_failed: false, ...tested },
      };
      const outcome = await applyProposal(deps(commits), state, 'coder');
      expect(outcome).toMatchObject({ kind: 'apply_rejected', code: 'EDIT_REJECTED', rule: 'no-change' });
      expect(outcome.kind === 'apply_rejected' && outcome.message).toBe(
        'your answer was not applied: one of its edits changed nothing:\n- edit 2 (a.py): its replace is the same as its search\nWrite the change you meant in that place, or leave that edit out.',
      );
      expect(commits).toEqual([]);
      expect(fs.readFileSync(path.join(dir, 'a.py'), 'utf8')).toBe('x = 1\ny = 2\n');
    }
  });

  it('lets an answer that changes nothing through where the tests passed (a step that only confirms)', async () => {
    dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'a.py'), 'x = 1\n');
    const green: RunState = {
      ...stateFor(dir, [{ path: 'a.py', search: 'x = 1', replace: 'x = 1' }]),
      tested_head: { commit: 'base', failed: 0, total: 3, passed: true, build_failed: false },
    };
    expect(await applyProposal(deps([]), green, 'coder')).toMatchObject({ kind: 'applied', files: [] });
  });

  it('refuses a change to an existing test file where no gate reviews it, naming the file', async () => {
    dir = makeTempDir();
    fs.mkdirSync(path.join(dir, 'tests'));
    fs.writeFileSync(path.join(dir, 'tests', 'test_a.py'), 'def test_a():\n    assert f() == 2\n');
    const commits: string[][] = [];
    const state = gateless(
      stateFor(dir, [{ path: 'tests/test_a.py', search: 'assert f() == 2', replace: 'assert True' }]),
    );
    const outcome = await applyProposal(deps(commits), state, 'coder');
    expect(outcome).toMatchObject({
      kind: 'apply_rejected',
      code: 'TESTS_WEAKENED',
      rule: 'tests-protected',
      path: 'tests/test_a.py',
    });
    expect(outcome.kind === 'apply_rejected' && outcome.message).toContain('tests/test_a.py, an existing test file');
    expect(fs.readFileSync(path.join(dir, 'tests', 'test_a.py'), 'utf8')).toContain('== 2');
    expect(commits).toEqual([]);
  });

  it('lets it through where a gate will review it, where the user allows test changes, and for a new test file', async () => {
    dir = makeTempDir();
    fs.mkdirSync(path.join(dir, 'tests'));
    fs.writeFileSync(path.join(dir, 'tests', 'test_a.py'), 'def test_a():\n    assert f() == 2\n');
    const edit = [{ path: 'tests/test_a.py', search: 'assert f() == 2', replace: 'assert f() == 3' }];
    expect(await applyProposal(deps([]), stateFor(dir, edit), 'coder')).toMatchObject({ kind: 'applied' });
    fs.writeFileSync(path.join(dir, 'tests', 'test_a.py'), 'def test_a():\n    assert f() == 2\n');
    const allowed = gateless(stateFor(dir, edit));
    expect(
      await applyProposal(deps([]), { ...allowed, config: { ...allowed.config, tests_policy: 'allow' } }, 'coder'),
    ).toMatchObject({ kind: 'applied' });
    const created = gateless(
      stateFor(dir, [{ path: 'tests/test_b.py', search: '', replace: 'def test_b():\n    assert True\n' }]),
    );
    expect(await applyProposal(deps([]), created, 'coder')).toMatchObject({
      kind: 'applied',
      files: ['tests/test_b.py'],
    });
  });
});

describe('new tests written into an existing test file (issue 26)', () => {
  it('are no change to the tests that were there: allowed where no gate reviews the change', async () => {
    dir = makeTempDir();
    fs.mkdirSync(path.join(dir, 'tests'));
    const before = 'def test_a():\n    assert f() == 2\n';
    fs.writeFileSync(path.join(dir, 'tests', 'test_a.py'), before);
    const state = stateFor(dir, [
      { path: 'tests/test_a.py', search: before, replace: `${before}\n\ndef test_b():\n    assert f() != 3\n` },
    ]);
    const gateless: RunState = {
      ...state,
      config: { ...state.config, gates: { plan: 'off', code: 'off', step: 'off', goal: 'off' } },
    };
    expect(await applyProposal(deps([]), gateless, 'coder')).toMatchObject({
      kind: 'applied',
      files: ['tests/test_a.py'],
    });
  });
});

describe('scope: hunks unrelated to the task (issue 26)', () => {
  const source =
    'def discount(price, percent):\n    total = price * (1 - percent / 100)\n    return round(total, 2)\n\n\ndef tax(amount, rate):\n    """Tax on an amount."""\n    value = amount * rate\n    return value\n';
  const fixed = source.replace('percent / 100)', 'percent / 100.0)');
  const renamed = fixed.replace(
    '    value = amount * rate\n    return value\n',
    '    result = amount * rate\n    return result\n',
  );

  function scoped(dir: string, gates: 'off' | 'auto'): RunState {
    const state = stateFor(dir, [{ path: 'money.py', search: source, replace: renamed }]);
    return {
      ...state,
      goal: 'discount() must divide the percentage as a float',
      config: { ...state.config, gates: { plan: 'off', code: 'off', step: gates, goal: 'off' } },
    };
  }

  it('refuses them where no gate reviews the change, naming the file, the lines and why', async () => {
    dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'money.py'), source);
    const commits: string[][] = [];
    const outcome = await applyProposal(deps(commits), scoped(dir, 'off'), 'coder', { contextFiles: ['money.py'] });
    expect(outcome).toMatchObject({ kind: 'apply_rejected', rule: 'unrelated-change', path: 'money.py' });
    const message = outcome.kind === 'apply_rejected' ? outcome.message : '';
    expect(message).toMatch(/^Your change also edits code the task does not ask for \(1 of 2 hunks\)/);
    expect(message).toContain("money.py lines 8-9 (original lines 8-9): renames 'value' to 'result' in tax()");
    expect(fs.readFileSync(path.join(dir, 'money.py'), 'utf8')).toBe(source);
    expect(commits).toEqual([]);
  });

  it('applies them where a gate reviews the change, and names them for the gate', async () => {
    dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'money.py'), source);
    const outcome = await applyProposal(deps([]), scoped(dir, 'auto'), 'coder', { contextFiles: ['money.py'] });
    expect(outcome).toMatchObject({ kind: 'applied', files: ['money.py'] });
    expect(outcome.kind === 'applied' && outcome.unrelated).toEqual([
      expect.stringMatching(/^money\.py lines 8-9 \(original lines 8-9\): renames 'value' to 'result' in tax\(\)/),
    ]);
  });

  it('refuses a change of nothing but unrelated hunks where the tests fail, even under a gate: a failed attempt reaches none', async () => {
    dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'money.py'), source);
    const onlyRenamed = source.replace(
      '    value = amount * rate\n    return value\n',
      '    result = amount * rate\n    return result\n',
    );
    const red: RunState = {
      ...scoped(dir, 'auto'),
      proposal: { edits: [{ path: 'money.py', search: source, replace: onlyRenamed }] },
      tested_head: { commit: 'base', failed: 1, total: 3, passed: false, build_failed: false },
      last_test: testResult(false, {
        first_failure: { test_id: 'test_money.py::test_discount', message: 'assert 9 == 9.5', location: null },
      }),
    };
    const commits: string[][] = [];
    const outcome = await applyProposal(deps(commits), red, 'coder', { contextFiles: ['money.py'] });
    expect(outcome).toMatchObject({ kind: 'apply_rejected', rule: 'unrelated-change', path: 'money.py' });
    const message = outcome.kind === 'apply_rejected' ? outcome.message : '';
    expect(message).toMatch(/^Your change also edits code the task does not ask for \(1 of 1 hunk\)/);
    expect(message).toContain(
      'Without those lines your answer changed nothing, so the tests would fail as before (first failure: test_money.py::test_discount).',
    );
    expect(commits).toEqual([]);
    // Green at the head, the same change goes to the gate, which decides.
    const green: RunState = {
      ...red,
      tested_head: { commit: 'base', failed: 0, total: 3, passed: true, build_failed: false },
      last_test: null,
    };
    expect(await applyProposal(deps([]), green, 'coder', { contextFiles: ['money.py'] })).toMatchObject({
      kind: 'applied',
    });
  });

  it('names the unrelated hunks beside an edit that changed nothing, under a gate too, so one answer can mend both', async () => {
    // A confirming step after the fix: the writer repeats the fix (now a no-op) and adds a rename.
    dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'money.py'), fixed);
    const state: RunState = {
      ...scoped(dir, 'auto'),
      proposal: {
        edits: [
          {
            path: 'money.py',
            search: '    value = amount * rate\n    return value\n',
            replace: '    result = amount * rate\n    return result\n',
          },
          { path: 'money.py', search: 'percent / 100.0)', replace: 'percent / 100.0)' },
        ],
      },
    };
    const commits: string[][] = [];
    const outcome = await applyProposal(deps(commits), state, 'coder', { contextFiles: ['money.py'] });
    expect(outcome).toMatchObject({ kind: 'apply_rejected', rule: 'no-change' });
    const message = outcome.kind === 'apply_rejected' ? outcome.message : '';
    expect(message).toMatch(
      /^your answer was not applied: one of its edits changed nothing:\n- edit 2 \(money\.py\): its replace is the same as its search/,
    );
    expect(message).toContain("money.py lines 8-9 (original lines 8-9): renames 'value' to 'result' in tax()");
    expect(commits).toEqual([]);
  });

  it('refuses a change of comments or layout alone where the tests fail, naming its lines; a tool directive is code', async () => {
    const work = makeTempDir();
    dir = work;
    fs.writeFileSync(path.join(work, 'money.py'), source);
    const red = (search: string, replace: string): RunState => ({
      ...scoped(work, 'auto'),
      proposal: { edits: [{ path: 'money.py', search, replace }] },
      tested_head: { commit: 'base', failed: 1, total: 3, passed: false, build_failed: false },
      last_test: testResult(false, {
        first_failure: { test_id: 'test_money.py::test_discount', message: 'assert 9 == 9.5', location: null },
      }),
    });
    const commits: string[][] = [];
    const outcome = await applyProposal(
      deps(commits),
      red('    """Tax on an amount."""\n', '    # Tax on an amount.\n'),
      'coder',
      { contextFiles: ['money.py'] },
    );
    expect(outcome).toMatchObject({ kind: 'apply_rejected', rule: 'no-change', path: 'money.py' });
    const message = outcome.kind === 'apply_rejected' ? outcome.message : '';
    expect(message).toBe(
      'your answer was not applied: it changes only comments or layout, which no test can see, so the tests would fail as before (first failure: test_money.py::test_discount):\n- money.py line 7\nPut those lines back as they were and change the code that fails.',
    );
    expect(commits).toEqual([]);
    // A comment a linter reads can change what the test command reports: it goes through.
    const directive = await applyProposal(
      deps(commits),
      red('    total = price * (1 - percent / 100)\n', '    total = price * (1 - percent / 100)  # noqa: E501\n'),
      'coder',
      { contextFiles: ['money.py'] },
    );
    expect(directive).toMatchObject({ kind: 'applied' });
    // A licence header deleted is a comment, although "Copyright" holds a tool's name (pyright).
    const header = '#\n# Copyright (C) 2009-2020 the authors\n# Released under the BSD License\n#\n';
    fs.writeFileSync(path.join(work, 'money.py'), `${header}${source}`);
    const deletedHeader = await applyProposal(deps(commits), red(header, ''), 'coder', { contextFiles: ['money.py'] });
    expect(deletedHeader).toMatchObject({ kind: 'apply_rejected', rule: 'no-change', path: 'money.py' });
    expect(deletedHeader.kind === 'apply_rejected' ? deletedHeader.message : '').toContain('- money.py lines 1-4\n');
  });

  it('lets the fix alone through with nothing to say', async () => {
    dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'money.py'), source);
    const state = {
      ...scoped(dir, 'off'),
      proposal: { edits: [{ path: 'money.py', search: source, replace: fixed }] },
    };
    expect(await applyProposal(deps([]), state, 'coder', { contextFiles: ['money.py'] })).toMatchObject({
      kind: 'applied',
      unrelated: [],
    });
  });
});
