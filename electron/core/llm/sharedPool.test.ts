import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { writeTinyModel } from '../../../test-support/gguf';
import { makeTempDir } from '../../../test-support/tempRepo';
import { physicalCoreCount } from './llama/cores';
import { sharedLlama } from './llama/runtime';
import { createModelRouter } from './router';
import { createSharedModelPool } from './sharedPool';
import type { ChatMessage, LlmEvent } from './types';

const dir = makeTempDir('lathe-shared-pool-');
const { modelPath } = writeTinyModel(dir);
const Answer = z.object({ ok: z.boolean() });
const ask: ChatMessage[] = [
  { role: 'system', content: 'Answer with JSON only.' },
  { role: 'user', content: 'Is it done?' },
];
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('a model pool shared by two runs', () => {
  it('loads a file once for both, keeps each run its own context, and outlives the first run', async () => {
    const shared = createSharedModelPool({ threads: 1 });
    const events: LlmEvent[][] = [[], []];
    const routers = events.map((sink) =>
      createModelRouter({
        roles: { coder: { model: `llama:${modelPath}`, maxTokens: 12, contextSize: 256 } },
        threads: 1,
        llama: { banIncompleteUtf8Tokens: true, seed: 3 },
        sharedPool: shared,
        onEvent: (event) => sink.push(event),
      }),
    );
    try {
      const [first, second] = await Promise.all(
        routers.map((router) => router.generate({ role: 'coder', purpose: 'code', messages: ask, schema: Answer })),
      );
      expect(first?.ok || first?.error.code).toBeTruthy();
      expect(second?.ok || second?.error.code).toBeTruthy();
      const pool = await shared.pool();
      expect(pool.loadedModels()).toHaveLength(1);
      expect(events.flat().filter((event) => event.type === 'model_loaded')).toHaveLength(1);
      expect(pool.loadedModels()[0]?.sessions.size).toBe(2);

      await routers[0]?.dispose();
      expect(pool.loadedModels()).toHaveLength(1);
      expect(pool.loadedModels()[0]?.sessions.size).toBe(1);
      const again = await routers[1]?.generate({ role: 'coder', purpose: 'code', messages: ask, schema: Answer });
      expect(again?.usage?.promptTokens).toBeGreaterThan(0);
      expect(events[1]?.filter((event) => event.type === 'model_loaded')).toHaveLength(0);
    } finally {
      await routers[1]?.dispose();
      await shared.dispose();
    }
  }, 120_000);

  it("caps the process's llama.cpp threads at the physical cores, so concurrent runs split them", async () => {
    expect((await sharedLlama()).maxThreads).toBe(physicalCoreCount());
  });
});
