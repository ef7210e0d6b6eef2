import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTinyModel } from '../../../../test-support/gguf';
import { makeTempDir } from '../../../../test-support/tempRepo';
import { estimateTokens } from '../results';
import { createModelRouter } from '../router';
import type { ChatMessage } from '../types';
import { modelCounter } from './modelCounter';
import { sharedLlama } from './runtime';

const dir = makeTempDir('lathe-counter-');
const { modelPath } = writeTinyModel(dir);
const spec = `llama:${modelPath}`;
const router = createModelRouter({
  roles: { coder: { model: spec, contextSize: 512 }, planner: { model: spec } },
  threads: 1,
});
afterAll(async () => {
  await router.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

const messages: ChatMessage[] = [
  { role: 'system', content: 'Answer with one JSON object.' },
  {
    role: 'user',
    content: 'Input:\n{"goal": "fix formatPrice", "feedback": "AssertionError: expected \'19\' to equal \'19.99\'"}',
  },
];

describe("a llama role's prompt counter", () => {
  it("counts with the model's tokenizer and chat template and knows the window its context has", async () => {
    const counter = await router.promptCounter('coder');
    expect(counter).toMatchObject({ exact: true, contextSize: 512 });
    const tokens = counter?.countPrompt(messages) ?? 0;
    // The tiny model's vocabulary reads far fewer characters a token than the estimate assumes.
    expect(tokens).toBeGreaterThan(estimateTokens(messages.map((message) => message.content).join('')));
    // Without a configured size the role gets the trained window of a model trained on 2048 tokens.
    expect((await router.promptCounter('planner'))?.contextSize).toBe(2048);
    expect(await router.promptCounter('tester')).toBeNull();
  });

  it('counts the same on a vocabulary-only load as the role session does', async () => {
    const counter = await router.promptCounter('coder');
    const llama = await sharedLlama();
    const vocab = await llama.loadModel({ modelPath, vocabOnly: true });
    try {
      const offline = modelCounter(vocab);
      expect(offline.countPrompt(messages)).toBe(counter?.countPrompt(messages));
      expect(offline.countText('def compose(*funcs):')).toBe(counter?.countText('def compose(*funcs):'));
    } finally {
      await vocab.dispose();
    }
  });
});
