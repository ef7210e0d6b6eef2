import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromWorkflow } from '../../../shared/engine/configFromWorkflow';
import { initialState } from '../../../shared/engine/initialState';
import type { RunState } from '../../../shared/engine/runState';
import { WORKFLOWS } from '../../../shared/engine/workflows';
import { APP_ROOT } from '../../../test-support/exampleRepo';
import { gitPatch } from '../../../test-support/gitPatch';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { getEditFormat } from '../edits/formats';
import { cutOffFailure, estimateTokens, failure } from '../llm/results';
import { createModelRouter } from '../llm/router';
import type { GenerateRequest, GenerateResult, ModelRouter } from '../llm/types';
import { createReadOnlyTools } from '../tools/readOnlyTools';
import { wholeFileAnswerTokens } from './buildMessages';
import { PromptLibrary } from './promptLibrary';
import { agentSpecFor, type AgentSpec } from './registry';
import { type AgentContext, type ContextReport } from './agentContext';
import { runAgent, type RunAgentOptions } from './runAgent';

const prompts = new PromptLibrary(path.join(APP_ROOT, 'prompts'));
/** It names catalogTotal too, once: enough for the ranker to show that file (further files need its confidence), not to guess it. */
const GOAL = 'formatPrice in src/price.js prints prices without their cents; fix formatPrice and catalogTotal';

const lines = (count: number, line: (index: number) => string) =>
  Array.from({ length: count }, (_, index) => line(index)).join('\n');
/** The file the goal names (the ranker's guess): ~3 KB, so its whole-file answer is over the role's 1,024 tokens. */
const PRICE = `${lines(60, (index) => `export const priceRule${index} = 'rounding rule number ${index} of the price module';`)}\nexport function formatPrice(cents) {\n  return String(Math.floor(cents / 100));\n}\n`;
/** The file the fix is in: ~16 KB, ranked below the guess, shown whole as a further file of a 32k window. */
const CATALOG = `${lines(260, (index) => `export const catalogEntry${index} = { sku: 'sku-${index}', shelf: ${index % 17}, aisle: ${index % 5} };`)}\nexport function catalogTotal(items) {\n  return items.length;\n}\n`;
const CATALOG_FIXED = CATALOG.replace(
  'return items.length;',
  'return items.reduce((sum, item) => sum + item.cents, 0);',
);
const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'shop', type: 'module', scripts: { test: 'node --test' } }),
  'src/price.js': PRICE,
  'src/catalog.js': CATALOG,
  ...Object.fromEntries(
    Array.from({ length: 12 }, (_, index) => [
      `src/shelf${index}.js`,
      `${lines(30, (line) => `export const shelf${index}Slot${line} = 'slot ${line} on shelf ${index}';`)}\n`,
    ]),
  ),
  'test/price.test.js':
    "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { formatPrice } from '../src/price.js';\n\ntest('cents', () => assert.equal(formatPrice(1999), '19.99'));\n",
};

let repo: TempRepo;
beforeAll(() => {
  repo = makeTempRepo({ files: FILES });
  fs.writeFileSync(
    path.join(repo.dir, '..', `${path.basename(repo.dir)}.patch`),
    gitPatch({ 'src/catalog.js': CATALOG }, { 'src/catalog.js': CATALOG_FIXED }),
  );
});
afterAll(() => {
  fs.rmSync(patchPath(), { force: true });
  repo.remove();
});
const patchPath = () => path.join(repo.dir, '..', `${path.basename(repo.dir)}.patch`);

function writerContext(
  editFormat: 'whole-file' | 'search-replace',
  coder: { model: string; context_size?: number },
  reports: ContextReport[],
): { spec: AgentSpec; ctx: AgentContext } {
  const workflow = WORKFLOWS['dev-agent'];
  const config = {
    ...configFromWorkflow(workflow),
    edit_format: editFormat,
    models: { coder: { max_tokens: 1024, ...coder } },
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
  };
  const ctx: AgentContext = {
    state,
    workflow,
    tools: createReadOnlyTools(repo.dir),
    prompts,
    editFormat: getEditFormat(editFormat),
    knowledge: [],
    scoutReport: null,
    onContextBuilt: (report) => reports.push(report),
  };
  const spec = agentSpecFor('code', workflow);
  if (!spec) throw new Error('no writer');
  return { spec, ctx };
}

interface Seen {
  maxTokens: number;
  contextTokens: number;
}

/** A model that is cut off at whatever budget it gets, `cuts` times, then answers; `stuck`: always the same text. */
function cuttingRouter(cuts: number, stuck = false): { router: ModelRouter; seen: Seen[] } {
  const seen: Seen[] = [];
  const router: ModelRouter = {
    async generate<T>(request: GenerateRequest<T>): Promise<GenerateResult<T>> {
      const maxTokens = request.maxTokens ?? 1024;
      seen.push({
        maxTokens,
        contextTokens: (request.context ?? []).reduce((sum, item) => sum + estimateTokens(item.text), 0),
      });
      if (seen.length <= cuts)
        return cutOffFailure<T>(
          'the answer is not JSON',
          maxTokens,
          '{"edits": [{"path": "src/price.js", "search": "'.padEnd(stuck ? 400 : maxTokens * 4, 'x'),
        );
      const raw = '{"edits": []}';
      return {
        ok: true,
        value: JSON.parse(raw) as T,
        raw,
        usage: {
          model: 'fake',
          promptTokens: 1,
          completionTokens: 1,
          reusedPrefixTokens: 0,
          timeToFirstTokenMs: 0,
          totalMs: 1,
          tokensPerSecond: 1,
        },
        droppedContext: [],
      };
    },
    specFor: () => 'fake',
    dispose: async () => undefined,
  };
  return { router, seen };
}

const optionsFor = (router: ModelRouter, retries: number, retried: string[]): RunAgentOptions => ({
  router,
  purpose: 'code',
  retries,
  backoffMs: 0,
  onRetry: (failure) => retried.push(failure.message),
});

describe('a cut-off answer is asked for again with more room, never as it was', () => {
  it('retries with twice the answer budget and the context refitted to what is left', async () => {
    const reports: ContextReport[] = [];
    // A window the ranked context fills: what the ranker is confident of is more than it holds.
    const { spec, ctx } = writerContext('search-replace', { model: 'replay:none.json', context_size: 4096 }, reports);
    const { router, seen } = cuttingRouter(1);
    const retried: string[] = [];
    const result = await runAgent(spec, ctx, optionsFor(router, 3, retried));
    expect(result).toMatchObject({ kind: 'output', calls: 2 });
    expect(seen.map((call) => call.maxTokens)).toEqual([1024, 2048]);
    expect(seen[1]?.contextTokens).toBeLessThan(seen[0]?.contextTokens ?? 0);
    expect(retried).toEqual([
      expect.stringMatching(
        /^cut off at 1024 tokens; retrying with 2048: the answer is not JSON \(cut at maxTokens 1024\)$/,
      ),
    ]);
    expect(reports.map((report) => [report.answer_reserve, report.answer_sized_on])).toEqual([
      [1024, "the coder's max_tokens"],
      [2048, 'a retry after an answer cut off at a smaller budget'],
    ]);
    expect(reports[1]?.budget_tokens).toBe((reports[0]?.budget_tokens ?? 0) - 1024);
  });

  it('stops when the window holds no longer answer, saying what to change, without asking the same twice', async () => {
    const { spec, ctx } = writerContext('search-replace', { model: 'replay:none.json', context_size: 8192 }, []);
    const { router, seen } = cuttingRouter(99);
    const result = await runAgent(spec, ctx, optionsFor(router, 10, []));
    const budgets = seen.map((call) => call.maxTokens);
    expect(budgets.slice(0, 3)).toEqual([1024, 2048, 4096]);
    expect(budgets.every((budget, index) => index === 0 || budget > (budgets[index - 1] ?? 0))).toBe(true);
    expect(budgets.at(-1)).toBeLessThan(8192);
    expect(result).toMatchObject({
      kind: 'failed',
      code: 'ANSWER_CUT_OFF',
      calls: budgets.length,
      message: `the answer was cut off at ${budgets.at(-1)} tokens, all the room the coder's 8192-token window leaves beside its prompt; make a smaller change: fewer and shorter edits, each with only the lines that change and a few unchanged lines around them`,
    });
  });

  it('ends as a cut-off, not as an infrastructure error, when the grown request does not fit the exact count', async () => {
    const { spec, ctx } = writerContext('search-replace', { model: 'replay:none.json', context_size: 8192 }, []);
    const { router, seen } = cuttingRouter(1);
    const answering = router.generate.bind(router);
    router.generate = async <T>(request: GenerateRequest<T>) =>
      seen.length === 0 ? answering(request) : failure<T>('CONTEXT_OVERFLOW', 'the mandatory prompt is 7000 tokens');
    const result = await runAgent(spec, ctx, optionsFor(router, 3, []));
    expect(result).toMatchObject({
      kind: 'failed',
      code: 'ANSWER_CUT_OFF',
      calls: 2,
      message: expect.stringMatching(
        /^the answer was cut off at 1024 tokens, all the room the coder's 8192-token window/,
      ),
    });
  });

  it('stops when the retries are spent, and tells a whole-file writer to rewrite fewer files', async () => {
    const { spec, ctx } = writerContext('whole-file', { model: 'replay:none.json', context_size: 32_768 }, []);
    const { router, seen } = cuttingRouter(99);
    const result = await runAgent(spec, ctx, optionsFor(router, 1, []));
    expect(seen).toHaveLength(2);
    expect((seen[1]?.maxTokens ?? 0) > (seen[0]?.maxTokens ?? 0)).toBe(true);
    expect(result).toMatchObject({
      kind: 'failed',
      code: 'ANSWER_CUT_OFF',
      message: expect.stringMatching(
        /^the answer was cut off at \d+ tokens, after 2 tries with a larger answer budget each; make a smaller change: rewrite only the files the fix needs, fewer of them per answer/,
      ),
    });
  });
});

describe('a cut-off answer that comes back word for word is not asked for again (issue 26, repeat)', () => {
  it('stops when a larger budget brings back the same text, and at once for an answer the step already had', async () => {
    const { spec, ctx } = writerContext('search-replace', { model: 'replay:none.json', context_size: 32_768 }, []);
    const stuck = cuttingRouter(99, true);
    const result = await runAgent(spec, ctx, optionsFor(stuck.router, 3, []));
    expect(stuck.seen.map((call) => call.maxTokens)).toEqual([1024, 2048]);
    expect(result).toMatchObject({
      kind: 'failed',
      code: 'ANSWER_CUT_OFF',
      rawTries: 2,
      message: expect.stringMatching(
        /^the answer was cut off at 2048 tokens and came back the same, word for word, with a larger budget: it stops there whatever its room; make a smaller change/,
      ),
    });
    const again = cuttingRouter(99, true);
    const known = await runAgent(spec, ctx, { ...optionsFor(again.router, 3, []), seenAnswer: () => true });
    expect(again.seen).toHaveLength(1);
    expect(known).toMatchObject({
      rawTries: 1,
      message: expect.stringMatching(
        /^the answer was cut off at 1024 tokens, the same answer, word for word, as an earlier attempt's/,
      ),
    });
  });
});

describe("a whole-file writer's answer budget covers every file it is shown whole and may rewrite", () => {
  it('sizes the reserve on the largest file shown, not only on the guess: the oracle rewrites the file the guess missed at once', async () => {
    const reports: ContextReport[] = [];
    const model = `oracle:${patchPath()}`;
    const { spec, ctx } = writerContext('whole-file', { model }, reports);
    const router = createModelRouter({ roles: { coder: { model, maxTokens: 1024 } } });
    const retried: string[] = [];
    const result = await runAgent(spec, ctx, optionsFor(router, 3, retried));
    await router.dispose();
    expect(retried).toEqual([]);
    expect(result).toMatchObject({
      kind: 'output',
      calls: 1,
      output: { edits: [{ path: 'src/catalog.js', content: CATALOG_FIXED }] },
    });
    const report = reports[0];
    const catalog = report?.included.find((entry) => entry.path === 'src/catalog.js');
    expect(report?.included.find((entry) => entry.path === 'src/price.js')?.reason).toBe('ranked #1');
    expect(catalog?.kind).toBe('file');
    expect(report?.answer_reserve).toBeGreaterThanOrEqual(
      wholeFileAnswerTokens(catalog?.tokens ?? Number.POSITIVE_INFINITY),
    );
    expect(report?.answer_sized_on).toMatch(/^the files it is shown whole and may rewrite: src\/catalog\.js \(~\d+\)$/);
  });
});
