import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { RunConfig } from '../../../shared/engine/runConfig';
import { APP_ROOT, REPLAYS, runFixturePerTest } from '../../../test-support/exampleRepo';
import { makeTempDir, type TempRepo } from '../../../test-support/tempRepo';
import { resolveRunConfig, type ConfigOverrides } from '../config/resolveConfig';
import type { ModelRouterOptions } from '../llm/routerOptions';
import type { GenerateRequest } from '../llm/types';
import { createDefaultDeps, createEngineEnv } from './defaultDeps';
import { startRun } from './runner';
import { readLog } from './runStore';

const setup = runFixturePerTest();
const devAgentReplay = `replay:${path.join(REPLAYS, 'js-stats.dev-agent.json')}`;

/** A dev-agent run (seed 001) on js-stats with the real layers. */
async function run(
  repo: TempRepo,
  dataDir: string,
  overrides: ConfigOverrides = {},
  edit: (config: RunConfig) => void = () => {},
) {
  const config = resolveRunConfig(
    { repoRoot: repo.dir },
    { workflow: 'dev-agent', model: devAgentReplay, ...overrides },
  );
  edit(config);
  const supervisorInputs: string[] = [];
  const deps = createDefaultDeps();
  const createModels = (options: ModelRouterOptions) => {
    const router = deps.createModels(options);
    return {
      ...router,
      generate: <T>(request: GenerateRequest<T>) => (
        request.role === 'supervisor' && supervisorInputs.push(request.messages.at(-1)?.content ?? ''),
        router.generate(request)
      ),
    };
  };
  const env = createEngineEnv({ appRoot: APP_ROOT, dataDir, retryBackoffMs: 1, deps: { ...deps, createModels } });
  const state = await startRun(env, { repoRoot: repo.dir, goal: 'fix median', config });
  return { state, supervisorInputs, log: readLog(path.join(repo.dir, '.lathe', 'runs', state.run_id, 'log.jsonl')) };
}

function bareRemote(): string {
  const remote = makeTempDir('lathe-remote-');
  onTestFinished(() => fs.rmSync(remote, { recursive: true, force: true }));
  return remote;
}

describe("seed 001's push (1.7, 1.8)", () => {
  it('pushes the approved branch to origin when the repository has one, with nothing configured', async () => {
    const { repo, dataDir } = setup();
    const remote = bareRemote();
    repo.git('init', '--quiet', '--bare', remote);
    repo.git('remote', 'add', 'origin', remote);
    const { state, log } = await run(repo, dataDir);
    expect(state.result).toMatchObject({ status: 'complete', exit_code: 0 });
    expect(log.find((event) => event.type === 'push')?.data).toMatchObject({ remote: 'origin', pushed: true });
    expect(repo.git('--git-dir', remote, 'rev-parse', state.branch ?? '')).toBe(state.commits.at(-1));
  });

  it('has nothing to push to in a repository without origin: still exit 0', async () => {
    const { repo, dataDir } = setup();
    const { state, log } = await run(repo, dataDir);
    expect(state.result).toMatchObject({ status: 'complete', exit_code: 0 });
    expect(log.find((event) => event.type === 'push')?.data).toMatchObject({
      remote: 'origin',
      pushed: false,
      detail: expect.stringContaining('no remote named origin'),
    });
  });

  it('ends the run with exit 2 when the push fails (an unrecoverable git error), and the report says why', async () => {
    const { repo, dataDir } = setup();
    repo.git('remote', 'add', 'origin', path.join(makeTempDir('lathe-gone-'), 'missing.git'));
    const { state, log } = await run(repo, dataDir);
    expect(state.result).toMatchObject({
      status: 'failed',
      exit_code: 2,
      reason: expect.stringContaining('could not be pushed to origin'),
    });
    expect(log.filter((event) => event.type === 'run_finished').map((event) => event.data.exit_code)).toEqual([0, 2]);
    const report = fs.readFileSync(path.join(repo.dir, '.lathe', 'runs', state.run_id, 'report.md'), 'utf8');
    expect(report).toContain('failed (exit 2)');
    // The approved work stays on its branch.
    expect(repo.git('rev-parse', state.branch ?? '')).toBe(state.commits.at(-1));
  });

  it('pushes nothing when push is off (git.push: false), whatever the remote', async () => {
    const { repo, dataDir } = setup();
    repo.git('remote', 'add', 'origin', path.join(makeTempDir('lathe-gone-'), 'missing.git'));
    const { state, log } = await run(repo, dataDir, {}, (config) => {
      config.push.enabled = false;
    });
    expect(state.result).toMatchObject({ status: 'complete', exit_code: 0 });
    expect(log.some((event) => event.type === 'push')).toBe(false);
  });
});

describe("seed 001's ShellTool allowlist on the dev-agent path (1.10)", () => {
  it('checks the detected test command as the repository names it: npm test (scripts.test) is allowed', async () => {
    const { repo, dataDir } = setup();
    const { state, log } = await run(repo, dataDir);
    expect(state.result?.status).toBe('complete');
    expect(log.find((event) => event.type === 'workspace_ready')?.data.test_command).toEqual(['node', '--test']);
  });

  it('rejects a test command outside the allowlist before any branch is made, and says so (exit 2)', async () => {
    const { repo, dataDir } = setup();
    const branches = repo.git('branch', '--list');
    const { state, log } = await run(repo, dataDir, { testCommand: ['node', '--test'] });
    expect(state.result).toMatchObject({ status: 'failed', exit_code: 2 });
    expect(state.result?.reason).toContain('node is not in the allowlist');
    expect(state.result?.reason).toContain('policies.allowlist');
    expect(log.find((event) => event.type === 'command_rejected')?.data).toMatchObject({ command: 'node --test' });
    expect(state.workspace).toBeNull();
    expect(repo.git('branch', '--list')).toBe(branches);
  });

  it('runs a test command the allowlist allows', async () => {
    const { repo, dataDir } = setup();
    const { state } = await run(repo, dataDir, {
      testCommand: ['node', '--test'],
      shellAllowlist: ['npm test', 'node --test'],
    });
    expect(state.result?.status).toBe('complete');
  });

  it('reports a rejected verification tool in the test result the Supervisor reviews, and never runs it', async () => {
    const { repo, dataDir } = setup();
    const marker = path.join(makeTempDir('lathe-marker-'), 'ran');
    const { state, log, supervisorInputs } = await run(repo, dataDir, {}, (config) => {
      config.extra_verification = [
        { name: 'sneaky', argv: ['sh', '-c', `touch ${marker}`], required: false, timeout_ms: null },
      ];
    });
    expect(state.result?.status).toBe('complete');
    const tools = log.find((event) => event.type === 'test_result' && event.data.purpose === 'step')?.data.tools as {
      name: string;
      status: string;
      reason: string | null;
    }[];
    expect(tools.find((tool) => tool.name === 'sneaky')).toMatchObject({
      status: 'INFRA_ERROR',
      reason: expect.stringContaining('rejected by the allowlist: sh is not in the allowlist'),
    });
    expect(fs.existsSync(marker)).toBe(false);
    // The step gate's Supervisor is told, with the reason.
    expect(supervisorInputs[0]).toContain('rejected by the allowlist: sh is not in the allowlist');
  });
});
