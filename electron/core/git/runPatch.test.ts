import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import type { RunWorkspace } from './types';
import { createGitFacade } from './gitFacade';

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((repo) => repo.remove()));

/** A run branch by hand: a change, a new file and a deletion on `lathe/r1`, the checkout back on main. */
function runRepo(): { repo: TempRepo; workspace: RunWorkspace } {
  const repo = makeTempRepo({ files: { 'a.txt': 'one\ntwo\nthree\n', 'gone.txt': 'bye\n', 'keep.txt': 'same\n' } });
  repos.push(repo);
  const base = repo.git('rev-parse', 'HEAD');
  repo.git('switch', '--quiet', '-c', 'lathe/r1');
  repo.write('a.txt', 'one\n2\nthree\nfour\n');
  repo.write('sub/new.txt', 'new\n');
  repo.git('rm', '--quiet', 'gone.txt');
  repo.commitAll('run step');
  repo.git('switch', '--quiet', 'main');
  return {
    repo,
    workspace: {
      runId: 'r1',
      repoRoot: repo.dir,
      workDir: repo.dir,
      mode: 'in-place',
      branch: 'lathe/r1',
      baseCommit: base,
      originalBranch: 'main',
      protectedPaths: [],
    },
  };
}

describe('runPatch', () => {
  it("is git's own diff from the base to the run's head when git is installed", async () => {
    const { repo, workspace } = runRepo();
    expect(await createGitFacade().runPatch(workspace)).toBe(
      execFileSync('git', ['diff', workspace.baseCommit, 'lathe/r1'], { cwd: repo.dir, encoding: 'utf8' }),
    );
  });

  it('without git, is a patch git applies to the base to give the head', async () => {
    const { repo, workspace } = runRepo();
    const patch = await createGitFacade({ useNativeGit: false }).runPatch(workspace);
    execFileSync('git', ['apply', '--index'], { cwd: repo.dir, input: patch });
    expect(repo.git('diff', '--cached', '--stat', 'lathe/r1')).toBe('');
    expect(repo.git('status', '--porcelain')).not.toBe('');
  });
});
