import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { configFromWorkflow } from '../../../shared/engine/configFromWorkflow';
import { WORKFLOWS } from '../../../shared/engine/workflows';
import { APP_ROOT } from '../../../test-support/exampleRepo';
import type { BuiltContext, ContextEntry } from '../context/index';
import { editFormats } from '../edits/formats';
import { answerTokensLeft, grownAnswerBudget } from './answerRoom';
import { buildMessages } from './buildMessages';
import { PromptLibrary } from './promptLibrary';
import type { AgentSpec } from './registry';
import type { AgentContext } from './agentContext';

const file = (filePath: string, tokens: number): ContextEntry => ({
  id: `file:${filePath}`,
  path: filePath,
  kind: 'file',
  tokens,
  reason: 'ranked',
});

/** A whole-file writer whose context builder shows the same files whatever the budget (a window too small to cover one of them). */
function writer(shown: ContextEntry[], budgets: number[], longestAnswer?: number): AgentSpec {
  return {
    modelRole: 'coder',
    prompts: () => [],
    schema: () => editFormats['whole-file'].schema as z.ZodType,
    input: async () => ({
      input: { task: { id: 'T1', title: 'fix it', artifacts: [] }, goal: 'fix it', attempt: 1 },
      context: [],
      wholeFiles: {
        tokens: 100,
        answerBasis: 100,
        perFile: [{ path: 'src/a.js', tokens: 100 }],
        rules: { named: [], artifactsOnly: false, testsReadOnly: true },
        ...(longestAnswer !== undefined ? { longestAnswer } : {}),
      },
      budgeted: async (budgetTokens): Promise<BuiltContext> => {
        budgets.push(budgetTokens);
        return {
          items: shown.map((entry, index) => ({ id: entry.id, text: entry.path, priority: 100 - index })),
          included: shown,
          dropped: [],
          budgetTokens,
          usedTokens: shown.reduce((sum, entry) => sum + entry.tokens, 0),
        };
      },
    }),
  };
}

const context = {
  prompts: new PromptLibrary(path.join(APP_ROOT, 'prompts')),
  state: {
    config: {
      ...configFromWorkflow(WORKFLOWS['dev-agent']),
      models: { coder: { model: 'replay:none.json', context_size: 8192, max_tokens: 1024 } },
    },
  },
} as unknown as AgentContext;

describe('buildMessages for a whole-file writer', () => {
  it('withholds a file shown whole whose rewrite the window cannot cover, and says so; a read-only test file or prose is no invitation', async () => {
    const budgets: number[] = [];
    const built = await buildMessages(
      writer(
        [file('src/a.js', 100), file('test/a.test.js', 5000), file('src/huge.js', 9000), file('CHANGELOG.md', 6000)],
        budgets,
      ),
      context,
    );
    const reserve = built.report?.answer_reserve ?? 0;
    expect(reserve).toBe(built.answerRoom);
    expect(built.maxTokens).toBe(reserve);
    expect(budgets).toHaveLength(2);
    expect(built.report?.included.map((entry) => entry.path)).toEqual(['src/a.js', 'test/a.test.js', 'CHANGELOG.md']);
    expect(built.context.map((item) => item.id)).toEqual(['file:src/a.js', 'file:test/a.test.js', 'file:CHANGELOG.md']);
    expect(built.report?.dropped[0]).toMatchObject({
      path: 'src/huge.js',
      reason: `ranked; its whole-file rewrite would not fit the ${reserve}-token answer budget`,
    });
    expect(built.report?.used_tokens).toBe(11_100);
  });

  it("reserves a retry's answer at the length of the longest answer the step gave, within the window's room", async () => {
    const reserveFor = async (longestAnswer?: number) =>
      (await buildMessages(writer([file('src/a.js', 100)], [], longestAnswer), context)).report;
    expect((await reserveFor())?.answer_reserve).toBe(1024);
    // The last answer wrote a file it was not shown (a test file): 3000 tokens, and a cut-off's margin.
    expect(await reserveFor(3000)).toMatchObject({
      answer_reserve: 3256,
      answer_sized_on: 'the longest answer it gave in this step (~3000)',
    });
    const capped = await buildMessages(writer([file('src/a.js', 100)], [], 50_000), context);
    expect(capped.report?.answer_reserve).toBe(capped.answerRoom);
    expect(capped.report?.answer_reserve).toBeLessThan(8192);
    expect((await reserveFor(200))?.answer_reserve).toBe(1024);
  });
});

describe('the answer budget after a cut-off', () => {
  it('doubles, or covers what was written plus a margin, within the room; none when the room is no larger than the cut', () => {
    expect(grownAnswerBudget(1000, 'x'.repeat(4000), 10_000)).toBe(2000);
    expect(grownAnswerBudget(1000, 'x'.repeat(12_000), 10_000)).toBe(3256);
    expect(grownAnswerBudget(1000, null, 1500)).toBe(1500);
    expect(grownAnswerBudget(1000, null, 1000)).toBeNull();
    expect(answerTokensLeft(8192, 5000)).toBe(2192);
    expect(answerTokensLeft(4096, 5000)).toBe(0);
  });
});
