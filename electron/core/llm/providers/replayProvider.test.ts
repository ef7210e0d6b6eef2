import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentErrorSchema } from '../../../../shared/schemas/agents/agentError';
import { PlanSchema } from '../../../../shared/schemas/agents/planner';
import { makeTempDir } from '../../../../test-support/tempRepo';
import { createModelRouter, type LatheModelRouterOptions } from '../router';
import type { LlmEvent } from '../types';

const dir = makeTempDir('lathe-replay-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const plan = {
  plan_id: 'plan_0001',
  tasks: [{ id: 'T1', title: 'Add median', rationale: 'asked', acceptance: 'tests pass', artifacts: ['stats.py'] }],
};
const PlannerOutput = z.union([PlanSchema, AgentErrorSchema]);
const Review = z.object({ score: z.number().min(0).max(10), approve: z.boolean() });
const ask = [{ role: 'user' as const, content: 'go' }];

let fileCount = 0;
function replayFile(content: unknown): string {
  const file = path.join(dir, `replay-${fileCount++}.json`);
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

function router(file: string, extra: Partial<LatheModelRouterOptions> = {}) {
  const events: LlmEvent[] = [];
  const spec = `replay:${file}`;
  const instance = createModelRouter({
    roles: { planner: { model: spec }, coder: { model: spec }, supervisor: { model: spec } },
    onEvent: (event) => events.push(event),
    ...extra,
  });
  return { router: instance, events };
}

describe('replay provider', () => {
  const script = replayFile({
    outputs: [
      { role: 'planner', json: plan },
      { role: 'coder', raw: '```json\n{"score": 7, "approve": true}\n```' },
      { role: 'supervisor', json: { score: 9, approve: true }, delay_ms: 20 },
      { role: 'coder', error: 'server crashed' },
      { role: 'planner', raw: '{"plan_id": "plan_0001", "tasks": [' },
      { role: 'planner', json: { plan_id: 'nope', tasks: [] } },
      { role: 'planner', json: { status: 'error', reason: 'goal unclear' } },
    ],
  });

  it('gives each role its own entries in file order, through the normal validation path', async () => {
    const { router: r, events } = router(script);
    const streamed: string[] = [];
    const first = await r.generate({
      role: 'planner',
      messages: ask,
      schema: PlannerOutput,
      onToken: (text) => streamed.push(text),
    });
    expect(first).toMatchObject({ ok: true, value: plan, raw: JSON.stringify(plan), droppedContext: [] });
    expect(streamed.join('')).toBe(JSON.stringify(plan));
    expect(
      events
        .filter((event) => event.type === 'token')
        .map((event) => (event.type === 'token' ? event.text : ''))
        .join(''),
    ).toBe(JSON.stringify(plan));

    const coder = await r.generate({ role: 'coder', messages: ask, schema: Review });
    expect(coder).toMatchObject({ ok: true, value: { score: 7, approve: true } });
    const supervisor = await r.generate({ role: 'supervisor', messages: ask, schema: Review });
    expect(supervisor.ok && supervisor.usage.timeToFirstTokenMs).toBeGreaterThanOrEqual(15);
    expect(supervisor.ok && supervisor.usage.model).toBe(`replay:${script}`);

    const failed = await r.generate({ role: 'coder', messages: ask, schema: Review });
    expect(failed).toMatchObject({
      ok: false,
      error: { code: 'PROVIDER_ERROR', retryable: true, message: expect.stringContaining('server crashed') },
    });

    const cut = await r.generate({ role: 'planner', messages: ask, schema: PlannerOutput });
    expect(cut).toMatchObject({
      ok: false,
      error: { code: 'INVALID_OUTPUT', retryable: true },
      raw: '{"plan_id": "plan_0001", "tasks": [',
    });
    const invalid = await r.generate({ role: 'planner', messages: ask, schema: PlannerOutput });
    expect(invalid).toMatchObject({
      ok: false,
      error: { code: 'INVALID_OUTPUT' },
      raw: '{"plan_id":"nope","tasks":[]}',
    });
    const agentError = await r.generate({ role: 'planner', messages: ask, schema: PlannerOutput });
    expect(agentError).toMatchObject({ ok: true, value: { status: 'error', reason: 'goal unclear' } });

    const exhausted = await r.generate({ role: 'planner', messages: ask, schema: PlannerOutput });
    expect(exhausted).toMatchObject({ ok: false, error: { code: 'REPLAY_EXHAUSTED', retryable: false } });
    expect(!exhausted.ok && exhausted.error.message).toMatch(/no more 'planner' entries \(4 in the file, 4 used\)/);
    expect(r.replayConsumed()).toEqual({ planner: 4, coder: 2, supervisor: 1 });
  });

  it('resumes after the entries a previous run consumed', async () => {
    const { router: r } = router(script, { replayConsumed: { planner: 3 } });
    const result = await r.generate({ role: 'planner', messages: ask, schema: PlannerOutput });
    expect(result).toMatchObject({ ok: true, value: { status: 'error' } });
    const coder = await r.generate({ role: 'coder', messages: ask, schema: Review });
    expect(coder.ok).toBe(true);
  });

  it('honours the AbortSignal and the timeout during delay_ms', async () => {
    const slow = replayFile({
      outputs: [
        { role: 'planner', json: plan, delay_ms: 5000 },
        { role: 'planner', json: plan, delay_ms: 5000 },
      ],
    });
    const { router: r } = router(slow);
    const started = Date.now();
    const timedOut = await r.generate({ role: 'planner', messages: ask, schema: PlannerOutput, timeoutMs: 50 });
    expect(timedOut).toMatchObject({ ok: false, error: { code: 'TIMEOUT', retryable: true } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const aborted = await r.generate({
      role: 'planner',
      messages: ask,
      schema: PlannerOutput,
      signal: controller.signal,
    });
    expect(aborted).toMatchObject({ ok: false, error: { code: 'ABORTED', retryable: false } });
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('resolves relative replay paths against the process cwd', async () => {
    const file = replayFile({ outputs: [{ role: 'coder', json: { score: 1, approve: false } }] });
    const relative = path.relative(process.cwd(), file);
    const r = createModelRouter({ roles: { coder: { model: `replay:${relative}` } } });
    expect(await r.generate({ role: 'coder', messages: ask, schema: Review })).toMatchObject({
      ok: true,
      value: { score: 1 },
    });
  });

  it.each([
    ['not json', /not valid JSON/],
    [{ outputs: {} }, /"outputs" array/],
    [{ outputs: [], extra: 1 }, /unknown top-level key\(s\) extra/],
    [
      {
        outputs: [
          { role: 'planner', json: {} },
          { role: 'boss', json: {} },
        ],
      },
      /outputs\[1\]: role "boss" is not one of/,
    ],
    [
      { outputs: [{ role: 'planner', json: {}, raw: '{}' }] },
      /outputs\[0\] must have exactly one of json, raw, error \(it has json, raw\)/,
    ],
    [{ outputs: [{ role: 'planner' }] }, /outputs\[0\] must have exactly one of json, raw, error \(it has none\)/],
    [{ outputs: [{ role: 'planner', raw: 5 }] }, /outputs\[0\]: raw must be a string/],
    [{ outputs: [{ role: 'planner', json: {}, delay_ms: -1 }] }, /outputs\[0\]: delay_ms must be an integer/],
    [{ outputs: [{ role: 'planner', json: {}, note: 'x' }] }, /outputs\[0\]: unknown key\(s\) note/],
  ])('rejects a malformed file (%j) with a clear BAD_MODEL_SPEC error', async (content, message) => {
    const { router: r } = router(replayFile(content));
    const result = await r.generate({ role: 'planner', messages: ask, schema: PlannerOutput });
    expect(result).toMatchObject({ ok: false, error: { code: 'BAD_MODEL_SPEC', retryable: false } });
    expect(!result.ok && result.error.message).toMatch(message);
  });

  it('names a missing replay file', async () => {
    const { router: r } = router(path.join(dir, 'missing.json'));
    const result = await r.generate({ role: 'planner', messages: ask, schema: PlannerOutput });
    expect(!result.ok && result.error).toMatchObject({
      code: 'BAD_MODEL_SPEC',
      message: expect.stringContaining('ENOENT'),
    });
  });

  it('fits optional context when the role states a context size, and reports what it dropped', async () => {
    const file = replayFile({ outputs: [{ role: 'coder', json: { score: 1, approve: true } }] });
    const events: LlmEvent[] = [];
    const r = createModelRouter({
      roles: { coder: { model: `replay:${file}`, contextSize: 300, maxTokens: 100 } },
      onEvent: (event) => events.push(event),
    });
    const result = await r.generate({
      role: 'coder',
      messages: [{ role: 'user', content: 'review {{context}}' }],
      context: [
        { id: 'file:big.py', text: 'x'.repeat(2000), priority: 5 },
        { id: 'kb:notes.md', text: 'short notes', priority: 1 },
      ],
      schema: Review,
    });
    expect(result.ok && result.droppedContext).toEqual(['file:big.py']);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'context_dropped', role: 'coder', ids: ['file:big.py'] }),
    );
  });

  it('returns BAD_MODEL_SPEC for a role without a model and never throws', async () => {
    const { router: r } = router(script);
    const result = await r.generate({ role: 'tester', messages: ask, schema: Review });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'BAD_MODEL_SPEC', message: 'no model is assigned to the tester role' },
    });
    expect(r.specFor('tester')).toBeNull();
    expect(r.specFor('planner')).toBe(`replay:${script}`);
  });
});
