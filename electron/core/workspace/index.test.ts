import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fsckStrict } from '../../../test-support/gitState';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import * as workspace from './index';

const repos: TempRepo[] = [];
const dirs: string[] = [];
afterEach(() => {
  repos.splice(0).forEach((repo) => repo.remove());
  dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
});

describe('the workspace API end to end', () => {
  it('plans a Coder proposal, applies it in a run worktree, verifies it in the sandbox and commits it', async () => {
    const repo = makeTempRepo({
      files: {
        'calc.py': 'def add(a, b):\n    return a - b\n',
        'tests/test_calc.py':
          'import sys, os\nsys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))\nfrom calc import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n',
      },
    });
    repos.push(repo);
    const artifacts = makeTempDir('lathe-art-');
    dirs.push(artifacts);
    const git = workspace.createGitFacade();
    const run = await git.startRun(repo.dir, { runId: 'e2e1', branchPrefix: 'lathe', allowDirty: false });
    const detected = await workspace.detectTestCommand(run.workDir);
    expect(detected?.runner).toBe('pytest');

    const before = await workspace.verify({
      workDir: run.workDir,
      argv: detected?.argv ?? [],
      timeoutMs: 60_000,
      artifactRoot: artifacts,
    });
    expect(before).toMatchObject({ status: 'FAIL', counts: { failed: 1 } });

    const policy = workspace.defaultEditPolicy({ artifacts: ['calc.py'], testsReadOnly: true });
    const format = workspace.getEditFormat('search-replace');
    const proposal = format.schema.parse({
      edits: [{ path: 'calc.py', search: 'return a - b', replace: 'return a + b' }],
    });
    const planned = await format.plan(proposal, workspace.createWorkspaceReader(run.workDir), policy);
    expect(await workspace.applyEditSet(run.workDir, planned, policy)).toEqual({
      changed: ['calc.py'],
      created: [],
      deleted: [],
    });

    const after = await workspace.verify({
      workDir: run.workDir,
      argv: detected?.argv ?? [],
      timeoutMs: 60_000,
      artifactRoot: artifacts,
    });
    expect(after).toMatchObject({ status: 'PASS', counts: { passed: 1, failed: 0 }, isolation: { level: 'bwrap' } });
    const sha = await git.commitStep(run, ['calc.py'], {
      runId: 'e2e1',
      taskId: 'T1',
      title: 'Fix add',
      role: 'coder',
      body: `verified: ${after.verifyRunId}`,
    });
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    expect(fsckStrict(repo.dir).code).toBe(0);
    expect(fs.readFileSync(path.join(repo.dir, 'calc.py'), 'utf8')).toBe('def add(a, b):\n    return a - b\n');
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('');
  });

  it('exports every name the engine relies on', () => {
    for (const name of [
      'editFormats',
      'getEditFormat',
      'defaultEditPolicy',
      'applyEditSet',
      'createGitFacade',
      'verify',
      'detectTestCommand',
      'probeSandbox',
      'truncateReport',
      'lastLines',
      'createReadOnlyTools',
      'DEFAULT_SHELL_ALLOWLIST',
      'checkShellCommand',
      'runShellCommand',
      'markArtifactsRetained',
      'releaseRetainedArtifacts',
      'EDIT_FORMAT_NAMES',
      'GUARDRAIL_RULES',
    ]) {
      expect(workspace, name).toHaveProperty(name);
    }
    expect(Object.keys(workspace.editFormats).sort()).toEqual([...workspace.EDIT_FORMAT_NAMES].sort());
  });
});
