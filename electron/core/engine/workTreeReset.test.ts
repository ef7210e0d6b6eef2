import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ROOT, REPLAYS, runFixturePerTest } from '../../../test-support/exampleRepo';
import type { TempRepo } from '../../../test-support/tempRepo';
import { resolveRunConfig } from '../config/resolveConfig';
import type { ModelRouter } from '../llm/types';
import type { VerifyResult } from '../verifier/types';
import { createDefaultDeps, createEngineEnv } from './defaultDeps';
import type { EngineDeps } from './engineDeps';
import { startRun } from './runner';

const setup = runFixturePerTest();
const TASKS = 3;
const plan = {
  plan_id: 'plan_0001',
  tasks: Array.from({ length: TASKS }, (_, index) => ({
    id: `T${index + 1}`,
    title: `Add helper ${index + 1}`,
    rationale: 'r',
    acceptance: 'a',
    artifacts: [`src/helper${index + 1}.js`],
  })),
};

function scriptedRouter(): ModelRouter {
  let coder = 0;
  let tester = 0;
  return {
    specFor: () => 'scripted',
    dispose: async () => {},
    generate: async (request) => {
      const value =
        request.role === 'planner'
          ? plan
          : request.role === 'coder'
            ? { edits: [{ path: `src/helper${++coder}.js`, content: `export const helper = ${coder};\n` }] }
            : { task_id: `T${++tester}`, passed: true, report: 'ok' };
      return {
        ok: true,
        value: request.schema.parse(value),
        raw: '',
        droppedContext: [],
        usage: {
          model: 'scripted',
          promptTokens: 1,
          completionTokens: 1,
          reusedPrefixTokens: 0,
          timeToFirstTokenMs: 0,
          totalMs: 0,
          tokensPerSecond: 0,
        },
      };
    },
  } as ModelRouter;
}

/** A passing verify that reports what it undid in the work tree (`failed`: what it could not). */
function passingVerify(failed: string[], onRun: (workDir: string) => void = () => {}): EngineDeps['verify'] {
  return async (request) => {
    onRun(request.workDir);
    const result: VerifyResult = {
      verifyRunId: 'v',
      status: 'PASS',
      exitCode: 0,
      signal: null,
      timedOut: false,
      durationMs: 0,
      reason: null,
      isolation: { level: 'none', detail: 'test' },
      counts: null,
      tests: null,
      firstFailure: null,
      resultsFrom: null,
      report: '',
      excerpt: '',
      tail: '',
      coverage: null,
      build: null,
      failedPhase: null,
      workDirWrites: { restored: [], removed: [], relinked: [], failed },
      artifactDir: request.artifactRoot,
      logPath: '',
      manifestPath: '',
    };
    return result;
  };
}

async function runCountingResets(
  repo: TempRepo,
  dataDir: string,
  verify: EngineDeps['verify'],
  setupCommand: string[] | null = null,
) {
  const real = createDefaultDeps();
  let resets = 0;
  const git = {
    ...real.git,
    resetTo: (...args: Parameters<typeof real.git.resetTo>) => (resets++, real.git.resetTo(...args)),
  };
  const env = createEngineEnv({
    appRoot: APP_ROOT,
    dataDir,
    retryBackoffMs: 1,
    deps: { ...real, git, verify, createModels: scriptedRouter },
  });
  const resolved = resolveRunConfig(
    { repoRoot: repo.dir },
    { workflow: 'minimal', model: `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}` },
  );
  const config = { ...resolved, workspace: { ...resolved.workspace, setup_command: setupCommand } };
  const state = await startRun(env, { repoRoot: repo.dir, goal: 'add three helpers', config });
  return { state, resets };
}

describe('resetting the work tree before an apply', () => {
  it('never resets when this process checked out the worktree, committed the head and each verify undid all it wrote', async () => {
    const { repo, dataDir } = setup();
    const { state, resets } = await runCountingResets(repo, dataDir, passingVerify([]));
    expect(state.result?.status).toBe('complete');
    expect(
      repo
        .git('log', '--format=%s', state.workspace?.branch ?? '')
        .split('\n')
        .filter((line) => line.includes('helper')),
    ).toHaveLength(TASKS);
    expect(resets).toBe(0);
  });

  it('resets before the first apply when a setup command ran in the fresh worktree, and what it wrote is gone', async () => {
    const { repo, dataDir } = setup();
    const setupCommand = [process.execPath, '-e', "require('fs').writeFileSync('stray-from-setup.txt', 'x')"];
    const { state, resets } = await runCountingResets(repo, dataDir, passingVerify([]), setupCommand);
    expect(state.result?.status).toBe('complete');
    expect(resets).toBe(1);
    expect(fs.existsSync(path.join(state.workspace?.workDir ?? '', 'stray-from-setup.txt'))).toBe(false);
    expect(repo.git('log', '--name-only', '--format=', state.workspace?.branch ?? '')).not.toContain(
      'stray-from-setup.txt',
    );
  });

  it('resets before the next apply when a verify could not undo what the commands wrote, and the stray change is gone', async () => {
    const { repo, dataDir } = setup();
    let workDir = '';
    const verify = passingVerify(['src/stats.js: could not be restored'], (dir) => {
      workDir = dir;
      fs.appendFileSync(path.join(dir, 'src', 'stats.js'), '// written by the tests\n');
    });
    const { state, resets } = await runCountingResets(repo, dataDir, verify);
    expect(state.result?.status).toBe('complete');
    // Every apply follows a verify that left a write behind: the first one, the run's baseline.
    expect(resets).toBe(TASKS);
    // Each stray line was reset away before the next step, so no commit of the run carries one.
    expect(repo.git('log', '-p', state.workspace?.branch ?? '')).not.toContain('written by the tests');
    expect(workDir).not.toBe('');
  });
});
