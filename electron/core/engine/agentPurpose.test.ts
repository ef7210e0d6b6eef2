import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveRunConfig } from '../config/resolveConfig';
import { createModelRouter } from '../llm/index';
import type { GenerateRequest, ModelRouter } from '../llm/types';
import { createDefaultDeps, createEngineEnv } from './defaultDeps';
import { startRun } from './runner';
import { APP_ROOT, REPLAYS, makeRunFixture } from '../../../test-support/exampleRepo';

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((fn) => fn()));

/** Runs a bundled demo transcript with a router that notes each request's role and purpose. */
async function purposesOf(workflow: string): Promise<string[]> {
  const fixture = makeRunFixture('js-stats');
  cleanup.push(fixture.cleanup);
  const seen: string[] = [];
  const deps = createDefaultDeps();
  const createModels = (options: Parameters<typeof createModelRouter>[0]): ModelRouter => {
    const inner = createModelRouter(options);
    return {
      generate: <T>(request: GenerateRequest<T>) => {
        seen.push(`${request.role}:${request.purpose ?? '-'}`);
        return inner.generate(request);
      },
      specFor: (role) => inner.specFor(role),
      dispose: () => inner.dispose(),
    };
  };
  const config = resolveRunConfig(
    { repoRoot: fixture.repo.dir },
    { workflow, model: `replay:${path.join(REPLAYS, `js-stats.${workflow}.json`)}` },
  );
  const env = createEngineEnv({
    appRoot: APP_ROOT,
    dataDir: fixture.dataDir,
    retryBackoffMs: 1,
    deps: { ...deps, createModels },
  });
  const state = await startRun(env, { repoRoot: fixture.repo.dir, goal: 'fix median', config });
  expect(state.result?.status).toBe('complete');
  return seen;
}

describe('every model call names the agent purpose it serves', () => {
  it('minimal: plan, code, test report', async () => {
    expect(await purposesOf('minimal')).toEqual([
      'planner:plan',
      'coder:code',
      'tester:test_report',
      'coder:code',
      'tester:test_report',
    ]);
  });

  it('editor-scouts: the Editor’s brief and its code are told apart, and each Scout step is a scout call', async () => {
    // The transcript's Scouts: search, read, answer; run the tests, answer.
    expect(await purposesOf('editor-scouts')).toEqual([
      'editor:scout_brief',
      ...Array(5).fill('scout:scout'),
      'editor:code',
    ]);
  });
});
