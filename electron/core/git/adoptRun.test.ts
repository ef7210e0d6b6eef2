import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { createGitFacade } from './gitFacade';

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((repo) => repo.remove()));

function project(): TempRepo {
  const repo = makeTempRepo({ files: { 'src/a.js': 'export const a = 1;\n', 'README.md': '# p\n' } });
  repos.push(repo);
  return repo;
}

const options = { runId: 'r1', branchPrefix: 'lathe', allowDirty: true };

describe.each([
  ['worktree', createGitFacade()],
  ['in-place', createGitFacade({ useNativeGit: false })],
])('adoptRun (%s)', (mode, facade) => {
  it('finds nothing for a run that never started', async () => {
    expect(await facade.adoptRun(project().dir, options)).toBeNull();
  });

  it('returns the workspace startRun made when the engine was killed before recording it', async () => {
    const repo = project();
    const started = await facade.startRun(repo.dir, options);
    expect(started.mode).toBe(mode);
    const adopted = await facade.adoptRun(repo.dir, options);
    expect(adopted).toEqual(started);
    await expect(facade.startRun(repo.dir, options)).rejects.toMatchObject({ code: 'GIT_BRANCH_EXISTS' });
    fs.writeFileSync(path.join(started.workDir, 'src', 'a.js'), 'export const a = 2;\n');
    expect(
      await facade.commitStep(adopted ?? started, ['src/a.js'], {
        runId: 'r1',
        taskId: 'T1',
        title: 'bump',
        role: 'coder',
      }),
    ).toMatch(/^[0-9a-f]{40}$/);
  });

  it('forgets metadata whose branch was never made, so the run can start again', async () => {
    const repo = project();
    const started = await facade.startRun(repo.dir, options);
    await facade.undoRun(started);
    expect(repo.git('branch', '--list', 'lathe/r1')).toBe('');
    expect(await facade.adoptRun(repo.dir, options)).toBeNull();
    expect((await facade.startRun(repo.dir, options)).branch).toBe('lathe/r1');
  });
});
