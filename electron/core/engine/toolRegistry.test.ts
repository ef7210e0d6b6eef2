import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunConfig } from '../../../shared/engine/runConfig';
import { APP_ROOT, REPLAYS, runFixturePerTest } from '../../../test-support/exampleRepo';
import type { TempRepo } from '../../../test-support/tempRepo';
import { resolveRunConfig } from '../config/resolveConfig';
import { createModelRouter } from '../llm/index';
import type { ModelRouterOptions } from '../llm/routerOptions';
import { createDefaultDeps, createEngineEnv } from './defaultDeps';
import { startRun } from './runner';
import { readLog } from './runStore';

const setup = runFixturePerTest();
const minimalReplay = `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}`;

/** A minimal run on js-stats with the real layers, recording what the Coder is told. */
async function run(repo: TempRepo, dataDir: string, edit: (config: RunConfig) => void) {
  const coderInputs: string[] = [];
  const deps = createDefaultDeps();
  const config = resolveRunConfig({ repoRoot: repo.dir }, { workflow: 'minimal', model: minimalReplay });
  edit(config);
  const env = createEngineEnv({
    appRoot: APP_ROOT,
    dataDir,
    retryBackoffMs: 1,
    deps: {
      ...deps,
      createModels: (options: ModelRouterOptions) => {
        const router = createModelRouter(options);
        return {
          ...router,
          generate: (request) => (
            request.role === 'coder' && coderInputs.push(request.messages.at(-1)?.content ?? ''),
            router.generate(request)
          ),
        };
      },
    },
  });
  const state = await startRun(env, { repoRoot: repo.dir, goal: 'fix median', config });
  return { state, coderInputs, log: readLog(path.join(repo.dir, '.lathe', 'runs', state.run_id, 'log.jsonl')) };
}

const tool = (name: string, argv: string[], required = true, timeout_ms: number | null = null) => ({
  name,
  argv,
  required,
  timeout_ms,
});

describe("seed 003's ToolRegistry (3.13)", () => {
  it('runs the test command first, then each registered tool in order, and reports each, a missing command included', async () => {
    const { repo, dataDir } = setup();
    const { state, log } = await run(repo, dataDir, (config) => {
      config.extra_verification = [
        tool('lint', ['node', '-e', 'process.exit(0)']),
        tool('typecheck', ['definitely-not-a-command-xyz'], false),
      ];
    });
    expect(state.result?.status).toBe('complete');
    const tools = log.find((event) => event.type === 'test_result' && event.data.purpose === 'step')?.data.tools as {
      name: string;
      status: string;
      required: boolean;
      reason: string | null;
    }[];
    expect(tools.map(({ name, status, required }) => [name, status, required])).toEqual([
      ['tests', 'PASS', true],
      ['lint', 'PASS', true],
      ['typecheck', 'INFRA_ERROR', false],
    ]);
    expect(tools[2]?.reason).toContain('definitely-not-a-command-xyz');
  });

  it("fails the step when a required tool fails, and the Coder gets that tool's output, cut to a share", async () => {
    const { repo, dataDir } = setup();
    const noisy = `console.error('lint: src/stats.js:3 no-unused-vars HEAD-MARKER'); console.error('x'.repeat(5000)); console.error('TAIL-MARKER'); process.exit(3)`;
    const { state, log, coderInputs } = await run(repo, dataDir, (config) => {
      config.extra_verification = [tool('lint', ['node', '-e', noisy])];
      config.limits.max_attempts_per_task = 2;
    });
    expect(state.result).toMatchObject({ status: 'failed', exit_code: 1 });
    const result = log.find((event) => event.type === 'test_result' && event.data.purpose === 'step')?.data;
    expect(result).toMatchObject({ status: 'FAIL', passed: false });
    const report = String(result?.report);
    expect(report).toContain('lint failed (exit code 3)');
    expect(report).toContain('no-unused-vars HEAD-MARKER');
    expect(report).toContain('TAIL-MARKER');
    expect(report).toMatch(/characters cut/);
    expect(report.length).toBeLessThan(4000 + 2000);
    // The second attempt's Coder sees the lint output, not just "lint (FAIL)".
    expect(coderInputs[1]).toContain('no-unused-vars HEAD-MARKER');
  });

  // docs/seeds.md 3.14: a tool's timeout kills it
  it("kills a tool at its own timeout, reported as that tool's failure", async () => {
    const { repo, dataDir } = setup();
    const started = Date.now();
    const { log } = await run(repo, dataDir, (config) => {
      config.extra_verification = [tool('slow-check', ['node', '-e', 'setTimeout(() => {}, 60000)'], false, 1500)];
    });
    const tools = log.find((event) => event.type === 'test_result' && event.data.purpose === 'step')?.data.tools as {
      name: string;
      status: string;
      reason: string | null;
    }[];
    expect(tools.find((entry) => entry.name === 'slow-check')).toMatchObject({
      status: 'FAIL',
      reason: expect.stringMatching(/time/i),
    });
    // Two verifications, each stopping the tool at 1.5 s, not at the two-minute test timeout.
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});
