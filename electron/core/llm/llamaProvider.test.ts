import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { writeJunkGguf, writeTinyModel, writeTruncatedCopy } from '../../../test-support/gguf';
import { makeTempDir } from '../../../test-support/tempRepo';
import { createModelRouter, type LatheModelRouter } from './router';
import type { ChatMessage, LlmEvent } from './types';

// One real load → context → chat template → grammar → generation path, on a generated 0.5 MB model.
// Random weights: the output is noise, but it must always be noise of the right shape.

/** The seed-000 plan shape with test-sized bounds, so random text ends quickly. */
const TinyPlan = z.object({
  plan_id: z
    .string()
    .regex(/^plan_[0-9]{4}$/)
    .max(16),
  tasks: z
    .array(
      z.object({
        id: z
          .string()
          .regex(/^T[1-9][0-9]?$/)
          .max(16),
        title: z.string().min(1).max(12),
        rationale: z.string().max(12),
        acceptance: z.string().max(12),
        artifacts: z.array(z.string().min(1).max(12)).max(2),
      }),
    )
    .min(1)
    .max(2),
});
const TinyError = z.object({ status: z.literal('error'), reason: z.string().min(1).max(16) });

const dir = makeTempDir('lathe-llama-');
const { modelPath } = writeTinyModel(dir);
const spec = `llama:${modelPath}`;
const system = 'You are the Planner. Answer with JSON only. '.repeat(20);
const events: LlmEvent[] = [];
let router: LatheModelRouter;

beforeAll(() => {
  router = createModelRouter({
    roles: {
      planner: { model: spec, maxTokens: 400, temperature: 0.8 },
      supervisor: { model: spec, maxTokens: 400, temperature: 0.8 },
      coder: { model: spec, maxTokens: 40, contextSize: 256 },
      tester: { model: spec, maxTokens: 8 },
      scout: { model: spec, maxTokens: 8 },
    },
    threads: 1,
    llama: { banIncompleteUtf8Tokens: true, seed: 7 },
    onEvent: (event) => events.push(event),
  });
});
afterAll(async () => {
  await router.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

const plannerMessages = (goal: string): ChatMessage[] => [
  { role: 'system', content: system },
  { role: 'user', content: `Goal: ${goal}` },
];

describe('llama provider on a generated GGUF', () => {
  it('loads the model once, reporting progress, and answers a chat with a valid object and its accounting', async () => {
    const result = await router.generate({
      role: 'planner',
      messages: plannerMessages('add a median function'),
      schema: TinyPlan,
    });
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message} raw=${result.raw}`);
    expect(TinyPlan.parse(JSON.parse(result.raw))).toEqual(result.value);
    expect(result.usage.model).toBe(spec);
    expect(result.usage.promptTokens).toBeGreaterThan(100);
    expect(result.usage.completionTokens).toBeGreaterThan(5);
    expect(result.usage.timeToFirstTokenMs).toBeGreaterThanOrEqual(0);
    expect(result.usage.totalMs).toBeGreaterThanOrEqual(result.usage.timeToFirstTokenMs);
    expect(result.usage.tokensPerSecond).toBeGreaterThan(0);
    expect(events.filter((event) => event.type === 'model_loaded')).toHaveLength(1);
    const progress = events
      .filter((event) => event.type === 'model_load_progress')
      .map((event) => (event.type === 'model_load_progress' ? event.progress : -1));
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.length).toBeLessThanOrEqual(101);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    expect(progress.at(-1)).toBe(1);
  });

  // docs/seeds.md 0.2: only valid JSON under the grammar
  it('produces 50 of 50 grammar-constrained outputs that parse and validate', { timeout: 120_000 }, async () => {
    const failures: string[] = [];
    for (let i = 0; i < 50; i++) {
      const result = await router.generate({
        role: 'planner',
        messages: plannerMessages(`task number ${i}`),
        schema: TinyPlan,
      });
      if (!result.ok) failures.push(`${i}: ${result.error.message} ${result.raw}`);
      else expect(TinyPlan.safeParse(JSON.parse(result.raw)).success).toBe(true);
    }
    expect(failures).toEqual([]);
  });

  it('follows a union with the agent error shape (anyOf) without breaking either branch', async () => {
    const Output = z.union([TinyPlan, TinyError]);
    for (let i = 0; i < 8; i++) {
      const result = await router.generate({
        role: 'supervisor',
        messages: plannerMessages(`union ${i}`),
        schema: Output,
      });
      if (!result.ok) throw new Error(`${result.error.message} raw=${result.raw}`);
      const branch = 'status' in result.value ? TinyError : TinyPlan;
      expect(branch.safeParse(JSON.parse(result.raw)).success).toBe(true);
    }
  });

  it("reuses the role's evaluated prefix on its next call", async () => {
    const first = await router.generate({ role: 'planner', messages: plannerMessages('first goal'), schema: TinyPlan });
    const second = await router.generate({
      role: 'planner',
      messages: plannerMessages('second goal'),
      schema: TinyPlan,
    });
    if (!first.ok || !second.ok) throw new Error('generation failed');
    expect(second.usage.reusedPrefixTokens).toBeGreaterThan(second.usage.promptTokens * 0.8);
    expect(second.usage.reusedPrefixTokens).toBeLessThan(second.usage.promptTokens);
  });

  it("counts a retry's prefill as only what changed: cached + prefill = prompt, the cache being what the sequence kept", async () => {
    // The scout role is this test's alone: its first call finds an empty sequence.
    const Short = z.object({ ok: z.boolean() });
    const prefix: ChatMessage[] = [{ role: 'system', content: system }];
    const first = await router.generate({
      role: 'scout',
      messages: [...prefix, { role: 'user', content: 'Task: fix the first failure.' }],
      schema: Short,
    });
    const retry = await router.generate({
      role: 'scout',
      messages: [
        ...prefix,
        { role: 'user', content: 'Task: fix the first failure. Your last answer failed: the test still fails.' },
      ],
      schema: Short,
    });
    if (!first.usage || !retry.usage) throw new Error('no usage');
    for (const usage of [first.usage, retry.usage]) {
      expect(usage.estimated).toBeUndefined();
      expect(usage.reusedPrefixTokens).toBeGreaterThanOrEqual(0);
      expect(usage.reusedPrefixTokens).toBeLessThan(usage.promptTokens);
    }
    const prefill = (usage: typeof first.usage) => (usage ? usage.promptTokens - usage.reusedPrefixTokens : 0);
    expect(first.usage.reusedPrefixTokens).toBe(0);
    expect(prefill(first.usage)).toBe(first.usage.promptTokens);
    // The retry evaluates its new tail only: the system prompt and the task's first words came from the cache.
    expect(retry.usage.promptTokens).toBeGreaterThan(first.usage.promptTokens);
    expect(retry.usage.reusedPrefixTokens).toBeGreaterThan(first.usage.promptTokens * 0.8);
    expect(prefill(retry.usage)).toBeLessThan(retry.usage.promptTokens - first.usage.promptTokens + 16);
    expect(prefill(retry.usage)).toBeLessThan(prefill(first.usage) * 0.3);
  });

  it('streams tokens to onToken and as token events, adding up to the raw text', async () => {
    const streamed: string[] = [];
    const before = events.length;
    const result = await router.generate({
      role: 'planner',
      messages: plannerMessages('stream it'),
      schema: TinyPlan,
      onToken: (text) => streamed.push(text),
    });
    if (!result.ok) throw new Error(result.error.message);
    expect(streamed.length).toBeGreaterThan(3);
    expect(streamed.join('').trim()).toBe(result.raw);
    const tokenEvents = events.slice(before).filter((event) => event.type === 'token');
    expect(tokenEvents.map((event) => (event.type === 'token' ? event.text : '')).join('')).toBe(streamed.join(''));
    expect(tokenEvents.every((event) => event.type === 'token' && event.role === 'planner')).toBe(true);
  });

  it('stops within one token of an abort and keeps the partial text', async () => {
    const controller = new AbortController();
    let afterAbort = 0;
    const Long = z.object({ text: z.string().max(2000) });
    const result = await router.generate({
      role: 'supervisor',
      messages: plannerMessages('write a lot'),
      schema: Long,
      signal: controller.signal,
      onToken: () => {
        if (controller.signal.aborted) afterAbort++;
        else controller.abort();
      },
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
    expect(afterAbort).toBe(0);
    expect(result.usage?.completionTokens).toBeLessThanOrEqual(3);
    expect(result.raw?.startsWith('{')).toBe(true);
  });

  it('times out a call that runs past timeoutMs', async () => {
    const Long = z.object({ text: z.string().max(4000) });
    const slow = createModelRouter({
      roles: { scout: { model: spec, maxTokens: 1500 } },
      threads: 1,
      llama: { banIncompleteUtf8Tokens: true },
    });
    const result = await slow.generate({
      role: 'scout',
      messages: [{ role: 'user', content: 'ramble' }],
      schema: Long,
      timeoutMs: 30,
    });
    await slow.dispose();
    expect(result).toMatchObject({ ok: false, error: { code: 'TIMEOUT', retryable: true } });
  });

  it('returns INVALID_OUTPUT with the raw text when max tokens cut the answer', async () => {
    const result = await router.generate({
      role: 'tester',
      messages: [{ role: 'user', content: 'go' }],
      schema: TinyPlan,
    });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_OUTPUT',
        retryable: true,
        cutOffAt: 8,
        message: expect.stringContaining('cut at maxTokens 8'),
      },
    });
    expect(result.raw?.length).toBeGreaterThan(0);
    expect(result.usage?.completionTokens).toBe(8);
  });

  it('drops optional context by priority with an event, and refuses a mandatory part that cannot fit', async () => {
    const before = events.length;
    const Short = z.object({ a: z.string().max(3) });
    const result = await router.generate({
      role: 'coder',
      messages: [{ role: 'user', content: 'Files: {{context}}' }],
      context: [
        { id: 'file:big.py', text: 'def f():\n    return 1\n'.repeat(60), priority: 9 },
        { id: 'kb:short.md', text: 'a note', priority: 1 },
      ],
      schema: Short,
    });
    expect(result.ok && result.droppedContext).toEqual(['file:big.py']);
    expect(events.slice(before)).toContainEqual(
      expect.objectContaining({ type: 'context_dropped', role: 'coder', ids: ['file:big.py'] }),
    );

    const overflow = await router.generate({
      role: 'coder',
      messages: [{ role: 'user', content: 'word '.repeat(400) }],
      schema: Short,
    });
    expect(overflow).toMatchObject({
      ok: false,
      error: { code: 'CONTEXT_OVERFLOW', retryable: false, message: expect.stringContaining('256-token context') },
    });
  });

  it('shares one loaded model between roles', () => {
    expect(events.filter((event) => event.type === 'model_loaded')).toHaveLength(1);
  });
});

describe('llama provider failures and model lifecycle', () => {
  it('gives a clear MODEL_LOAD_FAILED for a corrupted, truncated or missing GGUF', async () => {
    const junk = writeJunkGguf(dir, 'corrupt.gguf');
    const truncated = writeTruncatedCopy(modelPath, path.join(dir, 'truncated.gguf'));
    const missing = path.join(dir, 'missing.gguf');
    const r = createModelRouter({
      roles: {
        planner: { model: `llama:${junk}` },
        coder: { model: `llama:${truncated}` },
        tester: { model: `llama:${missing}` },
      },
    });
    const ask = [{ role: 'user' as const, content: 'x' }];
    const corrupt = await r.generate({ role: 'planner', messages: ask, schema: TinyPlan });
    expect(corrupt).toMatchObject({
      ok: false,
      error: { code: 'MODEL_LOAD_FAILED', message: expect.stringContaining('not a GGUF file') },
    });
    const cut = await r.generate({ role: 'coder', messages: ask, schema: TinyPlan });
    expect(cut).toMatchObject({
      ok: false,
      error: { code: 'MODEL_LOAD_FAILED', message: expect.stringContaining('truncated') },
    });
    const absent = await r.generate({ role: 'tester', messages: ask, schema: TinyPlan });
    expect(absent).toMatchObject({
      ok: false,
      error: { code: 'MODEL_LOAD_FAILED', message: expect.stringContaining('ENOENT') },
    });
    await r.dispose();
  });

  it('refuses with INSUFFICIENT_MEMORY, naming required and available, before loading', async () => {
    const seen: LlmEvent[] = [];
    const r = createModelRouter({
      roles: { planner: { model: spec } },
      llama: { availableMemory: () => 100_000 },
      onEvent: (event) => seen.push(event),
    });
    const result = await r.generate({ role: 'planner', messages: [{ role: 'user', content: 'x' }], schema: TinyPlan });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'INSUFFICIENT_MEMORY',
        retryable: false,
        message: expect.stringMatching(/needs about .* but only 98 KB is available/),
      },
    });
    expect(seen.filter((event) => event.type === 'model_loaded')).toHaveLength(0);
    await r.dispose();
  });

  it('unloads an idle model to make room when switching to another one', async () => {
    const seen: LlmEvent[] = [];
    const second = writeTinyModel(dir, 'second.gguf').modelPath;
    // Memory is "full" while the first model is loaded and the second one is wanted.
    let full = false;
    const r = createModelRouter({
      roles: { planner: { model: spec, maxTokens: 400 }, coder: { model: `llama:${second}`, maxTokens: 400 } },
      threads: 1,
      llama: { banIncompleteUtf8Tokens: true, availableMemory: () => (full ? 1000 : 1e12) },
      onEvent: (event) => {
        seen.push(event);
        if (event.type === 'model_unloaded') full = false;
      },
    });
    expect((await r.generate({ role: 'planner', messages: plannerMessages('one'), schema: TinyPlan })).ok).toBe(true);
    full = true;
    expect((await r.generate({ role: 'coder', messages: plannerMessages('two'), schema: TinyPlan })).ok).toBe(true);
    const lifecycle = seen
      .filter((event) => event.type === 'model_loaded' || event.type === 'model_unloaded')
      .map((event) => [event.type, event.model, 'reason' in event ? event.reason : '']);
    expect(lifecycle).toEqual([
      ['model_loaded', spec, ''],
      ['model_unloaded', spec, 'switch'],
      ['model_loaded', `llama:${second}`, ''],
    ]);
    await r.dispose();
  });

  it('unloads a model after the idle time and reloads it on the next call', async () => {
    const seen: LlmEvent[] = [];
    const r = createModelRouter({
      roles: { planner: { model: spec, maxTokens: 400 } },
      threads: 1,
      idleUnloadMs: 50,
      llama: { banIncompleteUtf8Tokens: true },
      onEvent: (event) => seen.push(event),
    });
    const ask = plannerMessages('idle');
    expect((await r.generate({ role: 'planner', messages: ask, schema: TinyPlan })).ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen).toContainEqual({ type: 'model_unloaded', model: spec, reason: 'idle' });
    expect((await r.generate({ role: 'planner', messages: ask, schema: TinyPlan })).ok).toBe(true);
    expect(seen.filter((event) => event.type === 'model_loaded')).toHaveLength(2);
    await r.dispose();
    expect(seen.at(-1)).toEqual({ type: 'model_unloaded', model: spec, reason: 'dispose' });
  });
});
