import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromWorkflow } from '../../../shared/engine/configFromWorkflow';
import { initialState } from '../../../shared/engine/initialState';
import type { RunState } from '../../../shared/engine/runState';
import { WORKFLOWS } from '../../../shared/engine/workflows';
import { APP_ROOT } from '../../../test-support/exampleRepo';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { getEditFormat } from '../edits/formats';
import { fitContext } from '../llm/contextFit';
import { failure } from '../llm/results';
import type { ChatMessage, GenerateRequest, GenerateResult, ModelRouter, PromptCounter } from '../llm/types';
import { createReadOnlyTools } from '../tools/readOnlyTools';
import { MIN_CONTEXT_TOKENS, prepareMessages, systemPrompt } from './buildMessages';
import { PromptLibrary } from './promptLibrary';
import { agentSpecFor, type AgentSpec } from './registry';
import { type AgentContext } from './agentContext';
import { runAgent } from './runAgent';

const prompts = new PromptLibrary(path.join(APP_ROOT, 'prompts'));
const GOAL = 'formatPrice in src/price.js prints prices without their cents; fix formatPrice';
const FAILURE = `FAIL test/price.test.js > cents\nAssertionError: expected '19' to equal '19.99'\n${'    at formatPrice (src/price.js:2:10)\n'.repeat(40)}`;

const lines = (count: number, line: (index: number) => string) =>
  Array.from({ length: count }, (_, index) => line(index)).join('\n');
const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'shop', type: 'module', scripts: { test: 'node --test' } }),
  'src/price.js': `export function formatPrice(cents) {\n  return String(Math.floor(cents / 100));\n}\n${lines(80, (index) => `export const priceRule${index} = 'rounding rule ${index}';`)}\n`,
  ...Object.fromEntries(
    Array.from({ length: 8 }, (_, index) => [
      `src/shelf${index}.js`,
      `${lines(40, (line) => `export const shelf${index}Slot${line} = 'slot ${line} on shelf ${index}';`)}\n`,
    ]),
  ),
  'test/price.test.js':
    "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { formatPrice } from '../src/price.js';\n\ntest('cents', () => assert.equal(formatPrice(1999), '19.99'));\n",
};

let repo: TempRepo;
beforeAll(() => {
  repo = makeTempRepo({ files: FILES });
});
afterAll(() => repo.remove());

/**
 * A tokenizer that counts differently from the 4-characters estimate: one token per `charsPerToken`
 * characters (the bench GGUF's byte-level vocabulary reads about 2 characters a token), and 6 tokens of
 * chat template per message.
 */
function fakeTokenizer(charsPerToken: number, contextSize: number): PromptCounter {
  const countText = (text: string) => Math.ceil(text.length / charsPerToken);
  return {
    exact: true,
    contextSize,
    countText,
    countPrompt: (messages: readonly ChatMessage[]) =>
      messages.reduce((sum, message) => sum + countText(message.content) + 6, 0),
  };
}

function writer(counter: PromptCounter | null): { spec: AgentSpec; ctx: AgentContext } {
  const workflow = WORKFLOWS['dev-agent'];
  const config = {
    ...configFromWorkflow(workflow),
    edit_format: 'unified-diff' as const,
    models: { coder: { model: 'replay:none.json', max_tokens: 1024 } },
  };
  const state: RunState = {
    ...initialState({
      runId: '20260101T000000Z',
      goal: GOAL,
      goalHash: 'test',
      config,
      now: new Date(0).toISOString(),
      nowMs: 0,
    }),
    workspace: {
      runId: 'test',
      repoRoot: repo.dir,
      workDir: repo.dir,
      mode: 'in-place',
      branch: 'main',
      baseCommit: '',
      originalBranch: null,
      protectedPaths: [],
    },
    feedback: { kind: 'first_failure', text: FAILURE },
  };
  const ctx: AgentContext = {
    state,
    workflow,
    tools: createReadOnlyTools(repo.dir),
    prompts,
    editFormat: getEditFormat('unified-diff'),
    knowledge: [],
    scoutReport: null,
    promptCounter: counter,
  };
  const spec = agentSpecFor('code', workflow);
  if (!spec) throw new Error('no writer');
  return { spec, ctx };
}

const promptText = (messages: ChatMessage[], context: { text: string }[]) =>
  `${messages.map((message) => message.content).join('')}${context.map((item) => item.text).join('\n\n')}`;

describe('a prompt planned with the model tokenizer fits its window', () => {
  it('sends the short rules and a compact input when the full ones would leave the code less than half the window', async () => {
    const counter = fakeTokenizer(2, 4096);
    const { spec, ctx } = writer(counter);
    const built = await (await prepareMessages(spec, ctx))();
    const fullSystem = systemPrompt(spec, ctx, spec.schema(ctx), 'full');
    expect(counter.countText(fullSystem)).toBeGreaterThan(1000);
    expect(built.form).toBe('short');
    expect(built.messages[0]?.content).toBe(systemPrompt(spec, ctx, spec.schema(ctx), 'short'));
    expect(built.messages[0]?.content.length).toBeLessThan(fullSystem.length * 0.75);
    expect(built.messages[1]?.content).not.toContain('\n  "task"');
    expect(built.report).toMatchObject({ counted_by: 'model', prompt_form: 'short', context_size: 4096 });
    // Counted by the same tokenizer the provider checks with, prompt and context fit beside the answer.
    const total =
      counter.countPrompt(built.messages) + counter.countText(built.context.map((item) => item.text).join('\n\n'));
    expect(total).toBeLessThanOrEqual(4096 - 1024);
    expect(built.context[0]?.id).toMatch(/src\/price\.js/);
  });

  it('keeps the full prompts when the window leaves the code most of it', async () => {
    const { spec, ctx } = writer(fakeTokenizer(4, 16_384));
    const built = await (await prepareMessages(spec, ctx))();
    expect(built.form).toBe('full');
    expect(built.messages[1]?.content).toContain('\n  "task"');
  });

  it('rescales a context the estimate planned too large, dropping the lowest-ranked items, never the first', async () => {
    const counter = fakeTokenizer(1.5, 4096);
    const { spec, ctx } = writer(counter);
    const built = await (await prepareMessages(spec, ctx))();
    const report = built.report;
    expect(report?.used_tokens).toBeLessThanOrEqual(report?.budget_tokens ?? 0);
    expect(counter.countText(built.context.map((item) => item.text).join('\n\n'))).toBe(report?.used_tokens);
    expect(built.context[0]?.id).toMatch(/src\/price\.js/);
  });

  it('is an error only when even the short prompt and one region of code cannot fit, saying what to change', async () => {
    const counter = fakeTokenizer(2, 1600);
    const { spec, ctx } = writer(counter);
    const built = await (await prepareMessages(spec, ctx))();
    expect(built.overflow).toMatch(
      new RegExp(
        `^even the shortest prompt \\(the rules in their short form, the task and its input, and ${MIN_CONTEXT_TOKENS} tokens for one region of the file to change\\) needs \\d+ tokens by the model's tokenizer, but the coder's 1600-token window leaves 576 after reserving 1024 for the answer; set the coder's context_size to at least \\d+ or lower its max_tokens$`,
      ),
    );
  });
});

/** A model whose provider counts with `counter` and refuses a prompt that does not fit, as llama's exact fit does. */
function strictRouter(
  counter: PromptCounter,
  planWith: PromptCounter | null,
): { router: ModelRouter; sent: GenerateRequest<unknown>[] } {
  const sent: GenerateRequest<unknown>[] = [];
  const router: ModelRouter = {
    async generate<T>(request: GenerateRequest<T>): Promise<GenerateResult<T>> {
      sent.push(request as GenerateRequest<unknown>);
      const budget = (counter.contextSize ?? 0) - 1024;
      const fit = fitContext({
        messages: request.messages,
        context: request.context,
        budgetTokens: budget,
        countPrompt: (messages) => counter.countPrompt(messages),
        countText: (text) => counter.countText(text),
      });
      if (!fit.ok) return failure<T>('CONTEXT_OVERFLOW', `the mandatory prompt is ${fit.mandatoryTokens} tokens`);
      const raw = '{"diff": ""}';
      return {
        ok: true,
        value: JSON.parse(raw) as T,
        raw,
        usage: {
          model: 'fake',
          promptTokens: fit.promptTokens,
          completionTokens: 1,
          reusedPrefixTokens: 0,
          timeToFirstTokenMs: 0,
          totalMs: 1,
          tokensPerSecond: 1,
        },
        droppedContext: fit.dropped,
      };
    },
    specFor: () => 'fake',
    promptCounter: async () => planWith,
    dispose: async () => undefined,
  };
  return { router, sent };
}

describe('an overflow the plan did not foresee', () => {
  it('is answered with the short rules, not by ending the run', async () => {
    // Planned by estimate (4 characters a token: the full form leaves the code most of the window) for a
    // model that reads 1 character a token, in whose count the full form overflows and the short one fits.
    const tokenizer = fakeTokenizer(1, 6144);
    const { router, sent } = strictRouter(tokenizer, null);
    const { spec, ctx } = writer(null);
    ctx.state.config.models.coder = { model: 'replay:none.json', max_tokens: 1024, context_size: 6144 };
    const retried: string[] = [];
    const result = await runAgent(spec, ctx, {
      router,
      purpose: 'code',
      retries: 1,
      backoffMs: 0,
      onRetry: (retry) => retried.push(retry.message),
    });
    expect(sent.length).toBe(2);
    expect(tokenizer.countPrompt(sent[0]?.messages ?? [])).toBeGreaterThan(4096 - 1024);
    expect(result).toMatchObject({ kind: 'output', calls: 2 });
    expect(retried).toEqual([expect.stringMatching(/retrying with the rules in their short form$/)]);
    expect(sent[1]?.messages[0]?.content).toBe(systemPrompt(spec, ctx, spec.schema(ctx), 'short'));
  });

  it('drops lower-ranked context first when the prompt fits but the context does not', () => {
    const counter = fakeTokenizer(2, 4096);
    const messages: ChatMessage[] = [{ role: 'user', content: 'x'.repeat(800) }];
    const context = [0, 1, 2, 3].map((rank) => ({ id: `file:${rank}`, text: 'y'.repeat(1600), priority: 100 - rank }));
    // The estimate chooses all four (400 tokens each); the tokenizer counts 800 each, so only the two best fit 2,100.
    const fit = fitContext({
      messages,
      context,
      budgetTokens: 2100,
      countPrompt: (list) => counter.countPrompt(list),
      countText: (text) => Math.ceil(text.length / 4),
    });
    expect(fit).toMatchObject({ ok: true, kept: ['file:0', 'file:1'], dropped: ['file:3', 'file:2'] });
    expect(promptText(messages, [])).toHaveLength(800);
  });
});
