import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTinyModel } from '../../../test-support/gguf/fixtures';
import { TINY_LLAMA } from '../../../test-support/gguf/index';
import { APP_ROOT } from '../../../test-support/exampleRepo';
import { makeTempDir, makeTempRepo } from '../../../test-support/tempRepo';
import { resolveRunConfig } from '../config/resolveConfig';
import { createModelRouter } from '../llm/index';
import { createDefaultDeps, createEngineEnv } from './defaultDeps';
import { startRun } from './runner';
import { readLog } from './runStore';

const scratch = makeTempDir('lathe-real-');
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

function snapshot(dir: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const name of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const stat = fs.lstatSync(path.join(dir, name));
    entries[name] = stat.isFile() ? `${stat.size}:${stat.mtimeMs}` : 'dir';
  }
  return entries;
}

async function runOnTinyModel(plannerSpec: string | null) {
  // The tiny vocabulary is nearly byte-level, so the real prompts need a longer window than its default.
  const { modelPath } = writeTinyModel(path.join(scratch, 'models'), 'tiny-llama.gguf', {
    ...TINY_LLAMA,
    contextLength: 8192,
  });
  const outside = fs.mkdtempSync(path.join(scratch, 'outside-'));
  fs.writeFileSync(path.join(outside, 'sentinel.txt'), 'untouched\n');
  const repo = makeTempRepo({
    files: {
      'src/stats.js': 'export const mean = (v) => v.reduce((a, b) => a + b, 0) / v.length;\n',
      'test/stats.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { mean } from '../src/stats.js';\ntest('mean', () => assert.equal(mean([1, 3]), 2));\n",
      'package.json': '{"type":"module","scripts":{"test":"node --test"}}\n',
    },
  });
  const before = {
    outside: snapshot(outside),
    head: repo.git('rev-parse', 'HEAD'),
    models: snapshot(path.join(scratch, 'models')),
  };
  const config = resolveRunConfig({ repoRoot: repo.dir }, { workflow: 'minimal', model: `llama:${modelPath}` });
  for (const role of Object.keys(config.models) as (keyof typeof config.models)[])
    config.models[role] = { model: `llama:${modelPath}`, context_size: 8192, max_tokens: 1500 };
  if (plannerSpec) config.models.planner = { model: plannerSpec };
  const env = createEngineEnv({
    appRoot: APP_ROOT,
    dataDir: path.join(scratch, 'data'),
    retryBackoffMs: 1,
    deps: {
      ...createDefaultDeps(),
      createModels: (options) =>
        createModelRouter({ ...options, threads: 1, llama: { seed: 11, banIncompleteUtf8Tokens: true } }),
    },
  });
  const state = await startRun(env, { repoRoot: repo.dir, goal: 'Add a median function to src/stats.js', config });
  const log = readLog(path.join(repo.dir, '.lathe', 'runs', state.run_id, 'log.jsonl'));
  const after = {
    outside: snapshot(outside),
    head: repo.git('rev-parse', 'main'),
    models: snapshot(path.join(scratch, 'models')),
    status: repo.git('status', '--porcelain'),
  };
  repo.remove();
  return { state, log, before, after };
}

function expectCleanFailure({ state, log, before, after }: Awaited<ReturnType<typeof runOnTinyModel>>) {
  expect(state.result).toMatchObject({ status: 'failed', exit_code: 1 });
  const calls = log.filter((event) => event.type === 'agent_call');
  // Parsed either way: a schema-valid output, or seed 000's schema-valid {"status":"error"} answer.
  const parsed = log.filter((event) => event.type === 'agent_output' || event.type === 'agent_declined');
  expect(calls.length).toBeGreaterThan(0);
  expect(parsed).toHaveLength(calls.length);
  expect(log.filter((event) => event.type === 'agent_retry' || event.type === 'agent_failed')).toEqual([]);
  expect(after.outside).toEqual(before.outside);
  expect(after.models).toEqual(before.models);
  expect(after.head).toBe(before.head);
  expect(after.status).toBe('');
  return calls.map((event) => event.role);
}

describe('minimal on a real GGUF model (generated, random weights)', () => {
  // docs/seeds.md 0.2: only valid JSON, from a real model under the grammar
  it('parses every role output, ends failed with exit 1, and changes nothing outside the repo', async () => {
    expect(expectCleanFailure(await runOnTinyModel(null))).toContain('planner');
  }, 180_000);

  it('does the same for the Coder and Tester grammars when the plan is a valid one', async () => {
    const plan = {
      plan_id: 'plan_0001',
      tasks: [
        { id: 'T1', title: 'Add median', rationale: 'goal', acceptance: 'tests pass', artifacts: ['src/stats.js'] },
      ],
    };
    const replay = path.join(scratch, 'planner.json');
    fs.writeFileSync(replay, JSON.stringify({ outputs: [{ role: 'planner', json: plan }] }));
    expect(expectCleanFailure(await runOnTinyModel(`replay:${replay}`))).toContain('coder');
  }, 180_000);
});
