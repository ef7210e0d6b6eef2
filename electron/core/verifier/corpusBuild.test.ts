import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../test-support/tempRepo';
import { sourceAppRoot } from '../appRoot';
import { splitCommand } from '../config/resolveConfig';
import { findDefaultCorpus, loadCorpus, preparedTaskRepo } from '../eval/corpus/index';
import { createGitFacade } from '../git/gitFacade';
import { runNativeGit } from '../git/nativeGit';
import { verify } from './verify';

const corpusDir = findDefaultCorpus(sourceAppRoot());
const artifacts = makeTempDir('lathe-corpus-verify-');
afterAll(() => fs.rmSync(artifacts, { recursive: true, force: true }));

// docs/seeds.md 4.8: build, then unit tests, in the sandbox
describe('a real suite that builds before it tests (yargs-parser: rimraf build && tsc, then mocha)', () => {
  it(
    'a run worktree with the gold patch verifies PASS in the sandbox; the start FAILs on its tests, not on a read-only build',
    { timeout: 600_000 },
    async (context) => {
      if (!corpusDir) return context.skip('no corpus here: set LATHE_CORPUS or place it at ../shared/corpus');
      const task = loadCorpus(corpusDir).tasks.find((candidate) => candidate.repo === 'yargs-parser');
      if (!task) return context.skip('the corpus has no yargs-parser task');
      const prepared = await preparedTaskRepo(corpusDir, task);
      const facade = createGitFacade();
      const runId = `verifier-build-${process.pid}-${Date.now()}`;
      const workspace = await facade.startRun(prepared.dir, { runId, branchPrefix: 'lathe-test', allowDirty: false });
      try {
        expect(workspace.baseCommit).toBe(prepared.commit);
        const argv = splitCommand(task.test_command);
        expect(argv.slice(0, 2)).toEqual(['sh', '-c']);
        const request = { workDir: workspace.workDir, argv, timeoutMs: 300_000, artifactRoot: artifacts };

        const start = await verify({ ...request, commit: prepared.commit });
        expect(start.isolation.level).toBe('bwrap');
        expect(start.report).not.toMatch(/EROFS|read-only file system/i);
        expect(start.status).toBe('FAIL');
        // Mocha ran after the build (its summary, whatever Lathe's parsers make of it).
        expect(start.tail).toMatch(/\d+ passing[\s\S]*\d+ failing/);

        const patch = path.join(artifacts, 'gold.patch');
        fs.writeFileSync(patch, task.gold_patch.endsWith('\n') ? task.gold_patch : `${task.gold_patch}\n`);
        const applied = await runNativeGit(workspace.workDir, ['apply', patch]);
        expect(applied.stderr).toBe('');
        const commit = await facade.commitStep(workspace, task.gold_files, {
          runId,
          taskId: 'T1',
          title: 'gold patch',
          role: 'coder',
        });
        expect(commit).not.toBeNull();

        const fixed = await verify({ ...request, commit: commit ?? undefined });
        expect(fixed.status, fixed.tail).toBe('PASS');
        expect(fixed.tail).toMatch(/\d{3} passing/);
        expect(fixed.tail).not.toMatch(/failing/);
        expect(fixed.workDirWrites).toMatchObject({ restored: [], failed: [] });
        expect(fixed.workDirWrites?.removed).toContain('build/');
        const status = await runNativeGit(workspace.workDir, ['status', '--porcelain', '--untracked-files=all']);
        expect(status.stdout).toBe('');
      } finally {
        await facade.undoRun(workspace);
      }
    },
  );
});
