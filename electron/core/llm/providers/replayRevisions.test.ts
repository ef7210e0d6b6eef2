import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeTempDir } from '../../../../test-support/tempRepo';
import { createModelRouter } from '../router';
import type { GenerateRequest } from '../types';
import { parseReplayScript } from './replayFile';

const dir = makeTempDir('lathe-replay-revisions-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const Answer = z.object({ say: z.string() });
const say = (role: string, text: string) => ({ role, json: { say: text } });

function routerFor(content: unknown) {
  const file = path.join(dir, `replay-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, JSON.stringify(content));
  const spec = `replay:${file}`;
  const router = createModelRouter({ roles: { coder: { model: spec }, supervisor: { model: spec } } });
  const ask = async (role: 'coder' | 'supervisor', extra: Partial<GenerateRequest<{ say: string }>> = {}) => {
    const result = await router.generate({
      role,
      messages: [{ role: 'user', content: 'go' }],
      schema: Answer,
      ...extra,
    });
    return result.ok ? result.value.say : result.error.code;
  };
  return { router, ask };
}

describe('replay revisions: answers kept aside for a rejected gate', () => {
  const script = {
    outputs: [
      say('coder', 'T1 change'),
      say('supervisor', 'T1 ok'),
      say('coder', 'T2 change'),
      say('supervisor', 'T2 ok'),
    ],
    revisions: [
      { gate: 'code', step: 'T1', outputs: [say('coder', 'T1 from scratch')] },
      {
        gate: 'step',
        step: 'T1',
        description: 'adds the asked-for test',
        outputs: [say('coder', 'T1 revised'), say('supervisor', 'T1 revised ok')],
      },
    ],
  };

  it("answers a rejection with the gate and step's revision, every role's entries first, then goes on with the main ones", async () => {
    const { ask } = routerFor(script);
    expect(await ask('coder')).toBe('T1 change');
    expect(await ask('supervisor')).toBe('T1 ok');
    expect(await ask('coder', { answersRejection: { gate: 'step', step_id: 'T1' } })).toBe('T1 revised');
    expect(await ask('supervisor')).toBe('T1 revised ok');
    expect(await ask('coder')).toBe('T2 change');
    expect(await ask('supervisor')).toBe('T2 ok');
  });

  it('uses a revision once; a rejection without an unused match reads on in the main entries, as before', async () => {
    const { ask, router } = routerFor(script);
    expect(await ask('coder', { answersRejection: { gate: 'step', step_id: 'T1' } })).toBe('T1 revised');
    // Asked again for the same rejection (e.g. a retry of an answer that did not apply): no second revision.
    expect(await ask('coder', { answersRejection: { gate: 'step', step_id: 'T1' } })).toBe('T1 change');
    expect(await ask('coder', { answersRejection: { gate: 'goal', step_id: null } })).toBe('T2 change');
    // Only main entries count for a resume.
    expect(router.replayConsumed()).toEqual({ coder: 2 });
  });

  it('checks revisions as strictly as outputs', () => {
    expect(() => parseReplayScript(JSON.stringify({ outputs: [], revisions: {} }), '/r.json')).toThrow(
      '"revisions" must be an array',
    );
    expect(() =>
      parseReplayScript(JSON.stringify({ outputs: [], revisions: [{ gate: 'merge', outputs: [] }] }), '/r.json'),
    ).toThrow('revisions[0]: gate "merge" is not one of plan, code, step, goal');
    expect(() =>
      parseReplayScript(
        JSON.stringify({ outputs: [], revisions: [{ outputs: [{ role: 'boss', json: {} }] }] }),
        '/r.json',
      ),
    ).toThrow('revisions[0].outputs[0]: role "boss"');
    expect(() =>
      parseReplayScript(JSON.stringify({ outputs: [], revisions: [{ when: 'x', outputs: [] }] }), '/r.json'),
    ).toThrow('unknown key(s) when');
    expect(
      parseReplayScript(JSON.stringify({ outputs: [], revisions: [{ outputs: [] }] }), '/r.json').revisions,
    ).toEqual([{ gate: null, step: null, entries: [] }]);
  });
});
