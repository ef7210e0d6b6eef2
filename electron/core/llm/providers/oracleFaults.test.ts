import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configFromWorkflow } from '../../../../shared/engine/configFromWorkflow';
import { WORKFLOWS } from '../../../../shared/engine/workflows';
import { AgentErrorSchema } from '../../../../shared/schemas/agents/agentError';
import { gitPatch } from '../../../../test-support/gitPatch';
import { makeTempDir } from '../../../../test-support/tempRepo';
import { APP_ROOT } from '../../../../test-support/exampleRepo';
import { fileItem } from '../../agents/contextFiles';
import { PromptLibrary } from '../../agents/promptLibrary';
import { buildMessages } from '../../agents/buildMessages';
import type { AgentSpec } from '../../agents/registry';
import type { AgentContext } from '../../agents/agentContext';
import { editFormats } from '../../edits/formats';
import { faultSpecSuffix } from '../oracle/faults/faultSpec';
import type { FaultSettings } from '../oracle/faults/faultSettings';
import { createModelRouter } from '../router';

const dir = makeTempDir('lathe-oracle-faults-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const BEFORE = `${Array.from({ length: 40 }, (_, index) => `export const value${index} = ${index};\n`).join('')}export const answer = 41;\n`;
const AFTER = BEFORE.replace('answer = 41', 'answer = 42');
const patchFile = path.join(dir, 'gold.patch');
fs.writeFileSync(patchFile, gitPatch({ 'src/answer.js': BEFORE }, { 'src/answer.js': AFTER }));
const WholeFileOutput = z.union([editFormats['whole-file'].schema, AgentErrorSchema]);

async function writerRequest() {
  const spec: AgentSpec = {
    modelRole: 'coder',
    prompts: () => [],
    schema: () => WholeFileOutput,
    input: async () => ({
      input: { task: { id: 'T1', title: 'answer 42', artifacts: ['src/answer.js'] }, goal: 'answer 42', attempt: 1 },
      context: [fileItem('src/answer.js', BEFORE, 1000)],
    }),
  };
  const ctx = {
    prompts: new PromptLibrary(path.join(APP_ROOT, 'prompts')),
    state: { config: configFromWorkflow(WORKFLOWS.minimal) },
  } as unknown as AgentContext;
  const { messages, context } = await buildMessages(spec, ctx);
  return { role: 'coder' as const, purpose: 'code' as const, messages, context, schema: WholeFileOutput };
}

const spoiled = (kinds: FaultSettings['faults'], journal: string | null) =>
  `oracle:${patchFile}${faultSpecSuffix({ faults: kinds, seed: 1, task: 'answer', feedbackCheck: false, journal })}`;
const journalLines = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('oracle provider with faults', () => {
  it('cut-off fails as a model stopped at its budget does: INVALID_OUTPUT, retryable, the partial answer as raw', async () => {
    const journal = path.join(dir, 'cut.jsonl');
    const router = createModelRouter({ roles: { coder: { model: spoiled([{ kind: 'cut-off', rate: 1 }], journal) } } });
    const cut = await router.generate(await writerRequest());
    expect(cut).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_OUTPUT',
        retryable: true,
        message: expect.stringMatching(/^output is not valid JSON .* \(cut at maxTokens 1024\)$/),
      },
    });
    const full = JSON.stringify({ edits: [{ path: 'src/answer.js', content: AFTER }] });
    expect(cut.ok || (cut.raw !== null && cut.raw.length < full.length && full.startsWith(cut.raw))).toBe(true);
    // The retry (same step, no feedback-check) gets the correct answer.
    expect(await router.generate(await writerRequest())).toMatchObject({
      ok: true,
      value: { edits: [{ path: 'src/answer.js', content: AFTER }] },
    });
    expect(journalLines(journal)).toEqual([
      expect.objectContaining({ task: 'answer', step: 'T1', answer: 1, carried: ['cut-off'], reply: 'cut' }),
      expect.objectContaining({ step: 'T1', answer: 2, carried: [], reply: 'value' }),
    ]);
    await router.dispose();
  });

  it("keeps its memory of steps per router (per run): a new run's first answer is spoiled again", async () => {
    const spec = spoiled([{ kind: 'elide', rate: 1 }], null);
    for (const run of [1, 2]) {
      const router = createModelRouter({ roles: { coder: { model: spec } } });
      const first = await router.generate(await writerRequest());
      expect(first.ok && JSON.stringify(first.value), `run ${run}`).toContain('// ... existing code ...');
      expect(await router.generate(await writerRequest())).toMatchObject({
        ok: true,
        value: { edits: [{ content: AFTER }] },
      });
      await router.dispose();
    }
  });

  it('a journal it cannot write fails the call, naming the file', async () => {
    const router = createModelRouter({
      roles: {
        coder: { model: spoiled([{ kind: 'no-op', rate: 1 }], path.join(dir, 'missing', 'folder', 'j.jsonl')) },
      },
    });
    expect(await router.generate(await writerRequest())).toMatchObject({
      ok: false,
      error: {
        code: 'BAD_MODEL_SPEC',
        message: expect.stringMatching(/cannot append to the oracle's fault journal .*j\.jsonl \(ENOENT\)/),
      },
    });
    await router.dispose();
  });
});
