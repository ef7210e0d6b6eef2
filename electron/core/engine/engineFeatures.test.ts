import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { APP_ROOT, REPLAYS, runFixturePerTest, readReplay, writeReplay } from '../../../test-support/exampleRepo';
import { makeTempDir, type TempRepo } from '../../../test-support/tempRepo';
import { resolveRunConfig, type ConfigOverrides } from '../config/resolveConfig';
import { createModelRouter } from '../llm/index';
import type { ModelRouterOptions } from '../llm/routerOptions';
import type { ChatMessage } from '../llm/types';
import { createDefaultDeps, createEngineEnv } from './defaultDeps';
import { cancelRun, resumeRun, startRun } from './runner';
import { readLog, RunStore } from './runStore';
import { EventBus } from '../runs/eventBus';
import { RunManager } from '../runs/runManager';
import type { RunConfig } from '../../../shared/engine/runConfig';

const setup = runFixturePerTest();

/** Runs with the real layers, recording every prompt the router is sent. */
async function run(
  repo: TempRepo,
  dataDir: string,
  overrides: ConfigOverrides,
  edit: (config: RunConfig) => void = () => {},
) {
  const prompts: { role: string; messages: ChatMessage[]; context: string[] }[] = [];
  const deps = createDefaultDeps();
  const config = resolveRunConfig({ repoRoot: repo.dir }, overrides);
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
          generate: (request) => {
            prompts.push({
              role: request.role,
              messages: request.messages,
              context: (request.context ?? []).map((item) => item.id),
            });
            return router.generate(request);
          },
        };
      },
    },
  });
  const state = await startRun(env, { repoRoot: repo.dir, goal: 'fix median', config });
  return { state, prompts, log: readLog(path.join(repo.dir, '.lathe', 'runs', state.run_id, 'log.jsonl')) };
}

const minimalReplay = `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}`;

// docs/seeds.md 0.11 (kb notes to the Planner), 0.13 (repo_summary in the Planner's input)
describe("seed 000's knowledge notes", () => {
  it('feeds .lathe/kb/*.md to the Planner as context, beside the repository map ranked for the goal', async () => {
    const { repo, dataDir } = setup();
    fs.mkdirSync(path.join(repo.dir, '.lathe', 'kb'), { recursive: true });
    fs.writeFileSync(path.join(repo.dir, '.lathe', 'kb', 'conventions.md'), 'Always sort numbers with a comparator.\n');
    const { state, prompts } = await run(repo, dataDir, { workflow: 'minimal', model: minimalReplay });
    expect(state.result?.status).toBe('complete');
    const planner = prompts.find((prompt) => prompt.role === 'planner');
    expect(planner?.context).toContain('kb:conventions.md');
    expect(planner?.context[0]).toBe('map:src/stats.js');
    expect(planner?.messages[1]?.content).not.toContain('"repo_summary"');
    expect(prompts.find((prompt) => prompt.role === 'coder')?.context).toContain('file:src/stats.js');
  });
});

// docs/seeds.md 2.17: retry with backoff, then a typed failure
describe("seed 002's agent error recovery", () => {
  it('retries a transient model failure with backoff and carries on', async () => {
    const { repo, dataDir } = setup();
    const outputs = readReplay('js-stats.minimal.json').outputs;
    const model = writeReplay(dataDir, 'flaky', [
      outputs[0],
      { role: 'coder', error: 'connection reset' },
      { role: 'coder', raw: '{"edits": [' },
      ...outputs.slice(1),
    ]);
    const { state, log } = await run(repo, dataDir, { workflow: 'minimal', model });
    expect(state.result?.status).toBe('complete');
    expect(log.filter((event) => event.type === 'agent_retry').map((event) => event.data.code)).toEqual([
      'PROVIDER_ERROR',
      'INVALID_OUTPUT',
    ]);
    expect(log.find((event) => event.data.raw === '{"edits": [')).toBeDefined();
  });

  it('gives up after three retries with a typed failure, never a hang', async () => {
    const { repo, dataDir } = setup();
    const outputs = readReplay('js-stats.minimal.json').outputs;
    const failing = Array.from({ length: 4 }, () => ({ role: 'coder', error: 'model crashed' }));
    const model = writeReplay(dataDir, 'down', [outputs[0], ...failing]);
    const { state, log } = await run(repo, dataDir, { workflow: 'minimal', model });
    expect(state.result).toMatchObject({ status: 'failed', exit_code: 1 });
    expect(log.filter((event) => event.type === 'agent_retry')).toHaveLength(3);
    expect(log.find((event) => event.type === 'agent_failed')?.data.reason).toContain('PROVIDER_ERROR');
  });
});

// docs/seeds.md 1.7: push and the PR description
describe("seed 001's push & PR", () => {
  it('pushes the approved run branch to the configured remote and writes a PR description', async () => {
    const { repo, dataDir } = setup();
    const remote = makeTempDir('lathe-remote-');
    onTestFinished(() => fs.rmSync(remote, { recursive: true, force: true }));
    repo.git('init', '--quiet', '--bare', remote);
    repo.git('remote', 'add', 'origin', remote);
    const { state, log } = await run(
      repo,
      dataDir,
      { workflow: 'dev-agent', model: `replay:${path.join(REPLAYS, 'js-stats.dev-agent.json')}` },
      (config) => {
        config.push.remote = 'origin';
      },
    );
    expect(state.result?.status).toBe('complete');
    expect(log.find((event) => event.type === 'push')?.data).toMatchObject({ remote: 'origin', pushed: true });
    expect(repo.git('--git-dir', remote, 'rev-parse', state.branch ?? '')).toBe(state.commits.at(-1));
    const pr = fs.readFileSync(path.join(repo.dir, '.lathe', 'runs', state.run_id, 'pr-description.md'), 'utf8');
    expect(pr).toMatch(/^# median\(\)|^# fix median/);
    expect(pr).toContain(`Run id: ${state.run_id}`);
  });
});

describe("seed 003's spec_hash", () => {
  it('refuses to resume a run against a changed goal', async () => {
    const { repo, dataDir } = setup();
    const { state } = await run(repo, dataDir, { workflow: 'minimal', model: minimalReplay });
    const env = createEngineEnv({ appRoot: APP_ROOT, dataDir });
    await expect(
      resumeRun(env, { repoRoot: repo.dir, runId: state.run_id, goal: 'a different goal' }),
    ).rejects.toMatchObject({ code: 'GOAL_CHANGED' });
    expect((await resumeRun(env, { repoRoot: repo.dir, runId: state.run_id, goal: 'fix median' })).status).toBe(
      'complete',
    );
  });

  it('the window passes the goal it resumes, and a changed one is refused (3.11)', async () => {
    const { repo, dataDir } = setup();
    const { state } = await run(repo, dataDir, { workflow: 'minimal', model: minimalReplay });
    const manager = new RunManager({ events: new EventBus(), appRoot: APP_ROOT, dataDir });
    await expect(manager.resume(repo.dir, state.run_id, undefined, null, 'a different goal')).rejects.toMatchObject({
      code: 'GOAL_CHANGED',
    });
    await expect(manager.resume(repo.dir, state.run_id, undefined, null, 'fix median')).resolves.toEqual({
      runId: state.run_id,
    });
  });
});

describe('a human gate', () => {
  it('is saved as pending before the event announcing it goes out, so a kill right after it loses no gate', async () => {
    const { repo, dataDir } = setup();
    const config = resolveRunConfig(
      { repoRoot: repo.dir },
      {
        workflow: 'dev-agent',
        model: `replay:${path.join(REPLAYS, 'js-stats.dev-agent.json')}`,
        gates: { step: 'human' },
      },
    );
    const seenOnDisk: { gateId: unknown; status: string; gate: string | null }[] = [];
    const env = createEngineEnv({
      appRoot: APP_ROOT,
      dataDir,
      retryBackoffMs: 1,
      callbacks: {
        onEvent: (event) => {
          if (event.type !== 'gate_pending') return;
          const saved = RunStore.readState(repo.dir, event.run_id);
          seenOnDisk.push({ gateId: event.data.gate_id, status: saved.status, gate: saved.gate?.gate_id ?? null });
        },
        decideGate: async () => ({ approved: true, comment: null }),
      },
    });
    const state = await startRun(env, { repoRoot: repo.dir, goal: 'fix median', config });
    expect(state.result?.status).toBe('complete');
    expect(seenOnDisk.length).toBeGreaterThan(0);
    for (const seen of seenOnDisk)
      expect(seen).toEqual({ gateId: seen.gateId, status: 'waiting_for_gate', gate: seen.gateId });
  });
});

describe('cancelling a run', () => {
  it('ends a stopped run for good: aborted, finished, reported, and no longer resumable', async () => {
    const { repo, dataDir } = setup();
    const controller = new AbortController();
    const config = resolveRunConfig({ repoRoot: repo.dir }, { workflow: 'minimal', model: minimalReplay });
    const env = createEngineEnv({
      appRoot: APP_ROOT,
      dataDir,
      retryBackoffMs: 1,
      signal: controller.signal,
      callbacks: { onEvent: (event) => event.type === 'plan' && controller.abort() },
    });
    const stopped = await startRun(env, { repoRoot: repo.dir, goal: 'fix median', config });
    expect(stopped).toMatchObject({ status: 'aborted', phase: 'coding' });
    const plain = createEngineEnv({ appRoot: APP_ROOT, dataDir });
    const cancelled = await cancelRun(plain, { repoRoot: repo.dir, runId: stopped.run_id });
    expect(cancelled).toMatchObject({
      status: 'aborted',
      phase: 'finished',
      result: { reason: 'stopped for good by the user' },
    });
    expect((await resumeRun(plain, { repoRoot: repo.dir, runId: stopped.run_id })).phase).toBe('finished');
    expect(fs.readFileSync(path.join(repo.dir, '.lathe', 'runs', stopped.run_id, 'report.md'), 'utf8')).toContain(
      'stopped for good by the user',
    );
  });
});
