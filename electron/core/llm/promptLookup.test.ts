import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { writeTinyModel } from '../../../test-support/gguf';
import { makeTempDir } from '../../../test-support/tempRepo';
import { createModelRouter } from './router';
import type { ChatMessage } from './types';

const dir = makeTempDir('lathe-lookup-');
const { modelPath } = writeTinyModel(dir);
const Edit = z.object({ content: z.string().max(40) });
// A writer's prompt holds the file it will copy back.
const ask: ChatMessage[] = [
  { role: 'system', content: 'Answer with JSON only.' },
  { role: 'user', content: 'File:\nexport function median(values) { return values[0]; }\nReturn it with a fix.' },
];
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('prompt-lookup decoding, per role', () => {
  it('runs a role with it on and reports the predictions the model checked; a role without it reports none', async () => {
    const router = createModelRouter({
      roles: {
        coder: { model: `llama:${modelPath}`, maxTokens: 24, contextSize: 256, promptLookup: true },
        planner: { model: `llama:${modelPath}`, maxTokens: 24, contextSize: 256 },
      },
      threads: 1,
      llama: { banIncompleteUtf8Tokens: true, seed: 5 },
    });
    try {
      const withLookup = await router.generate({ role: 'coder', purpose: 'code', messages: ask, schema: Edit });
      const without = await router.generate({ role: 'planner', purpose: 'plan', messages: ask, schema: Edit });
      expect(withLookup.usage?.completionTokens).toBeGreaterThan(0);
      // Random weights rarely copy, so no rate is asserted; but the answer's JSON punctuation occurs in
      // the prompt, so the predictor proposed tokens and the model checked them.
      expect(withLookup.usage?.lookup).toEqual({ validated: expect.any(Number), refuted: expect.any(Number) });
      expect((withLookup.usage?.lookup?.validated ?? 0) + (withLookup.usage?.lookup?.refuted ?? 0)).toBeGreaterThan(0);
      expect(without.usage).toBeTruthy();
      expect(without.usage?.lookup).toBeUndefined();
    } finally {
      await router.dispose();
    }
  }, 120_000);
});
