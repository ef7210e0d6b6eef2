import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { createGitFacade } from './gitFacade';
import { runWorkspaceSetup } from './worktreeSetup';

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((repo) => repo.remove()));

const facade = createGitFacade();
const COUNT_RUNS = [process.execPath, '-e', "const fs = require('fs'); fs.mkdirSync('build', { recursive: true }); fs.appendFileSync('build/setup-runs.txt', 'x'); console.log('setup ran')"];

function project(): TempRepo {
  const repo = makeTempRepo({ files: { '.gitignore': 'build/\n', 'README.md': '# p\n' } });
  repos.push(repo);
  return repo;
}

describe('runWorkspaceSetup', () => {
  it('runs once per worktree: again only when the worktree was recreated on resume', async () => {
    const repo = project();
    const workspace = await facade.startRun(repo.dir, { runId: 's1', branchPrefix: 'lathe', allowDirty: false });
    const first = await runWorkspaceSetup({ workspace, argv: COUNT_RUNS, timeoutMs: 30_000 });
    expect(first).toMatchObject({ status: 'passed', reason: null, exitCode: 0, cwd: workspace.workDir, output: expect.stringContaining('setup ran') });
    expect(await runWorkspaceSetup({ workspace, argv: COUNT_RUNS, timeoutMs: 30_000 })).toMatchObject({ status: 'skipped', reason: 'already run in this worktree' });
    expect(fs.readFileSync(path.join(workspace.workDir, 'build/setup-runs.txt'), 'utf8')).toBe('x');

    fs.rmSync(workspace.workDir, { recursive: true, force: true });
    await facade.reopenRun(workspace);
    expect(await runWorkspaceSetup({ workspace, argv: COUNT_RUNS, timeoutMs: 30_000 })).toMatchObject({ status: 'passed' });
    expect(fs.readFileSync(path.join(workspace.workDir, 'build/setup-runs.txt'), 'utf8')).toBe('x');
  });

  it("never runs in place, where the folder is the user's checkout", async () => {
    const repo = project();
    const workspace = await facade.startRun(repo.dir, { runId: 's2', branchPrefix: 'lathe', allowDirty: false, mode: 'in-place' });
    expect(await runWorkspaceSetup({ workspace, argv: COUNT_RUNS, timeoutMs: 30_000 })).toMatchObject({ status: 'skipped' });
    expect(fs.existsSync(path.join(repo.dir, 'build'))).toBe(false);
  });

  it('reports a missing command, a failure and a timeout as failed, with the reason', async () => {
    const repo = project();
    const workspace = await facade.startRun(repo.dir, { runId: 's3', branchPrefix: 'lathe', allowDirty: false });
    expect(await runWorkspaceSetup({ workspace, argv: ['lathe-no-such-setup-tool'], timeoutMs: 30_000 })).toMatchObject({ status: 'failed', reason: 'command not found: lathe-no-such-setup-tool' });
    const failed = await runWorkspaceSetup({ workspace, argv: [process.execPath, '-e', "console.error('boom'); process.exit(2)"], timeoutMs: 30_000 });
    expect(failed).toMatchObject({ status: 'failed', reason: 'exited with 2', exitCode: 2, output: expect.stringContaining('boom') });
    const slow = await runWorkspaceSetup({ workspace, argv: [process.execPath, '-e', 'setTimeout(() => {}, 60000)'], timeoutMs: 300 });
    expect(slow).toMatchObject({ status: 'failed', timedOut: true, reason: 'timed out after 300 ms' });
    // None of them counts as done: the next preparation tries again.
    expect(await runWorkspaceSetup({ workspace, argv: COUNT_RUNS, timeoutMs: 30_000 })).toMatchObject({ status: 'passed' });
  });
});
