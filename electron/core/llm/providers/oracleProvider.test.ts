import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configFromWorkflow } from '../../../../shared/engine/configFromWorkflow';
import { WORKFLOWS } from '../../../../shared/engine/workflows';
import { AgentErrorSchema } from '../../../../shared/schemas/agents/agentError';
import { SupervisorVerdictSchema } from '../../../../shared/schemas/agents/supervisor';
import { TesterReportSchema } from '../../../../shared/schemas/agents/tester';
import { gitPatch } from '../../../../test-support/gitPatch';
import { makeTempDir } from '../../../../test-support/tempRepo';
import { APP_ROOT } from '../../../../test-support/exampleRepo';
import { fileItem } from '../../agents/contextFiles';
import { PromptLibrary } from '../../agents/promptLibrary';
import { runAgent } from '../../agents/runAgent';
import { buildMessages } from '../../agents/buildMessages';
import type { AgentSpec } from '../../agents/registry';
import type { AgentContext } from '../../agents/agentContext';
import { editFormats } from '../../edits/formats';
import { parseModelSpec } from '../modelSpec';
import { estimateTokens } from '../results';
import { createModelRouter } from '../router';
import type { ContextItem } from '../types';

const dir = makeTempDir('lathe-oracle-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const BEFORE = `${'// a long header line that makes the file large enough to matter\n'.repeat(40)}export const answer = 41;\n`;
const AFTER = BEFORE.replace('41', '42');
const patchFile = path.join(dir, 'gold.patch');
fs.writeFileSync(patchFile, gitPatch({ 'src/answer.js': BEFORE }, { 'src/answer.js': AFTER }));
const WholeFileOutput = z.union([editFormats['whole-file'].schema, AgentErrorSchema]);

/** A writer whose input shows `context` as it is (no budgeted context). */
function writerSpec(context: ContextItem[]): AgentSpec {
  return {
    modelRole: 'coder',
    prompts: () => [],
    schema: () => WholeFileOutput,
    input: async () => ({
      input: { task: { id: 'T1', title: 'answer 42', artifacts: ['src/answer.js'] }, goal: 'answer 42', attempt: 1 },
      context,
    }),
  };
}

const writerContext = (models: Record<string, unknown> = {}) =>
  ({
    prompts: new PromptLibrary(path.join(APP_ROOT, 'prompts')),
    state: { config: { ...configFromWorkflow(WORKFLOWS.minimal), models } },
    editFormat: editFormats['whole-file'],
  }) as unknown as AgentContext;

/** The messages and context of a writer call, built by the agents layer itself (its prompt format). */
function writerRequest(context: ContextItem[]) {
  return buildMessages(writerSpec(context), writerContext());
}

describe('oracle provider', () => {
  it('parses oracle:PATH against the cwd, and says where a bare oracle: is valid', () => {
    expect(parseModelSpec('oracle:gold.patch', { cwd: '/work' })).toEqual({
      ok: true,
      value: { kind: 'oracle', spec: 'oracle:gold.patch', patchPath: '/work/gold.patch', faults: null },
    });
    expect(parseModelSpec('oracle:')).toEqual({
      ok: false,
      problem: 'BAD_MODEL_SPEC',
      message: expect.stringContaining('lathe eval --corpus'),
    });
  });

  it('answers a writer from the file its context shows, and declines, naming it, when the context dropped that file', async () => {
    const spec = `oracle:${patchFile}`;
    const { messages, context } = await writerRequest([fileItem('src/answer.js', BEFORE, 1000)]);
    const wide = createModelRouter({ roles: { coder: { model: spec } } });
    const answered = await wide.generate({
      role: 'coder',
      purpose: 'code',
      messages,
      context,
      schema: WholeFileOutput,
    });
    expect(answered).toMatchObject({ ok: true, value: { edits: [{ path: 'src/answer.js', content: AFTER }] } });
    // A context too small for the file: the oracle sees what a model would see, not the disk.
    const narrow = createModelRouter({ roles: { coder: { model: spec, contextSize: 1100, maxTokens: 300 } } });
    const declined = await narrow.generate({
      role: 'coder',
      purpose: 'code',
      messages,
      context,
      schema: WholeFileOutput,
    });
    expect(declined).toMatchObject({
      ok: true,
      droppedContext: ['file:src/answer.js'],
      value: { status: 'error', reason: expect.stringContaining("src/answer.js is not in the writer's context") },
    });
    await Promise.all([wide.dispose(), narrow.dispose()]);
  });

  it('cuts an answer over the role’s maxTokens as a model would: a retryable cut-off with the first maxTokens written', async () => {
    const { messages, context } = await writerRequest([fileItem('src/answer.js', BEFORE, 1000)]);
    const router = createModelRouter({ roles: { coder: { model: `oracle:${patchFile}`, maxTokens: 200 } } });
    const cut = await router.generate({ role: 'coder', purpose: 'code', messages, context, schema: WholeFileOutput });
    expect(cut).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_OUTPUT',
        retryable: true,
        cutOffAt: 200,
        message: expect.stringMatching(
          /about \d+ tokens, over this role's maxTokens of 200.*\(cut at maxTokens 200\)$/,
        ),
      },
    });
    expect(cut.raw).toHaveLength(800);
    expect(cut.usage?.completionTokens).toBe(200);
    await router.dispose();
  });

  it('answers, through runAgent, once the cut-off retries give the answer room', async () => {
    const router = createModelRouter({ roles: { coder: { model: `oracle:${patchFile}`, maxTokens: 200 } } });
    const retries: string[] = [];
    const ctx = writerContext({ coder: { model: `oracle:${patchFile}`, max_tokens: 200 } });
    const result = await runAgent(writerSpec([fileItem('src/answer.js', BEFORE, 1000)]), ctx, {
      router,
      purpose: 'code',
      retries: 3,
      backoffMs: 0,
      onRetry: (failure) => retries.push(failure.message),
    });
    expect(result).toMatchObject({
      kind: 'output',
      calls: 3,
      output: { edits: [{ path: 'src/answer.js', content: AFTER }] },
    });
    expect(retries.map((message) => message.split(':')[0])).toEqual([
      'cut off at 200 tokens; retrying with 456',
      'cut off at 456 tokens; retrying with 912',
    ]);
    await router.dispose();
  });

  it('infers the purpose when the call names none', async () => {
    const router = createModelRouter({ roles: { tester: { model: `oracle:${patchFile}` } } });
    const messages = [
      {
        role: 'user' as const,
        content: `Input:\n${JSON.stringify({ task_id: 'T1', exit_code: 3, output: 'FAILED test_x' }, null, 2)}`,
      },
    ];
    expect(await router.generate({ role: 'tester', messages, schema: TesterReportSchema })).toMatchObject({
      ok: true,
      value: { task_id: 'T1', passed: false },
    });
    await router.dispose();
  });

  it('fails a role without an error answer (Supervisor) with the cause, not retryable; a missing patch file is BAD_MODEL_SPEC', async () => {
    const router = createModelRouter({
      roles: {
        supervisor: { model: `oracle:${patchFile}` },
        coder: { model: `oracle:${path.join(dir, 'absent.patch')}` },
      },
    });
    const noInput = await router.generate({
      role: 'supervisor',
      purpose: 'review_goal',
      messages: [{ role: 'user', content: 'review this' }],
      schema: SupervisorVerdictSchema,
    });
    expect(noInput).toMatchObject({
      ok: false,
      error: { code: 'PROVIDER_ERROR', retryable: false, message: 'oracle: the request has no input JSON to answer' },
    });
    const missing = await router.generate({
      role: 'coder',
      purpose: 'code',
      messages: [{ role: 'user', content: 'Input:\n{}' }],
      schema: WholeFileOutput,
    });
    expect(missing).toMatchObject({
      ok: false,
      error: { code: 'BAD_MODEL_SPEC', message: expect.stringContaining('absent.patch (ENOENT)') },
    });
    await router.dispose();
  });
  it("estimates the KV-cache reuse of a llama.cpp session per role: a role's second call reuses the prefix it shares with its first", async () => {
    const router = createModelRouter({
      roles: { coder: { model: `oracle:${patchFile}` }, tester: { model: `oracle:${patchFile}` } },
    });
    const first = await writerRequest([fileItem('src/answer.js', BEFORE, 1000)]);
    const cold = await router.generate({ role: 'coder', purpose: 'code', ...first, schema: WholeFileOutput });
    expect(cold.usage).toMatchObject({ reusedPrefixTokens: 0, estimated: true });
    const coldPrompt = cold.usage?.promptTokens ?? 0;
    // A retry whose context gains a note after the file: everything before the note is reused.
    const note = { id: 'note:retry', text: 'The last answer failed: try again.', priority: 1 };
    const retry = await writerRequest([fileItem('src/answer.js', BEFORE, 1000), note]);
    const warm = await router.generate({ role: 'coder', purpose: 'code', ...retry, schema: WholeFileOutput });
    const warmPrompt = warm.usage?.promptTokens ?? 0;
    const cached = warm.usage?.reusedPrefixTokens ?? 0;
    expect(warmPrompt).toBeGreaterThan(coldPrompt);
    // The shared prefix is the whole first prompt up to the note, which sits after the file and before
    // the input (the input comes last: decision 93): the input and the note are read again.
    const input = estimateTokens(
      first.messages.at(-1)?.content.slice(first.messages.at(-1)?.content.indexOf('\n\nInput:\n') ?? 0) ?? '',
    );
    expect(cached).toBeGreaterThan(coldPrompt - input - 10);
    expect(cached).toBeLessThan(coldPrompt);
    expect(warmPrompt - cached).toBeLessThan(input + 40);
    // Another role's session is its own: its first call reuses nothing.
    const other = await router.generate({ role: 'tester', purpose: 'code', ...first, schema: WholeFileOutput });
    expect(other.usage?.reusedPrefixTokens).toBe(0);
    await router.dispose();
  });
});
