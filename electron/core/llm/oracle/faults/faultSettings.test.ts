import { describe, expect, it } from 'vitest';
import { parseModelSpec } from '../../modelSpec';
import { FAULT_KINDS, parseFaultList } from './faultSettings';
import { faultSpecSuffix, splitFaultSpec } from './faultSpec';
import { seededRandom } from './random';

describe('fault settings', () => {
  it('reads KIND[:RATE] lists, rate 1 by default; mixed is every kind but repeat at 0.3', () => {
    expect(parseFaultList('elide:0.5,cut-off')).toEqual({
      ok: true,
      value: [
        { kind: 'elide', rate: 0.5 },
        { kind: 'cut-off', rate: 1 },
      ],
    });
    const mixed = parseFaultList('mixed');
    expect(mixed.ok && mixed.value.map((fault) => fault.kind)).toEqual(FAULT_KINDS.filter((kind) => kind !== 'repeat'));
    expect(mixed.ok && new Set(mixed.value.map((fault) => fault.rate))).toEqual(new Set([0.3]));
    expect(parseFaultList('mixed:0.1,repeat').ok).toBe(true);
  });

  it.each([
    ['elide:2', /rate of 'elide:2' must be a number from 0 to 1/],
    ['elide:', /rate of 'elide:' must be/],
    ['typo', /unknown fault kind 'typo' \(elide, reindent/],
    ['elide,,no-op', /empty fault kind/],
    ['elide,elide:0.2', /'elide' is given twice/],
    ['mixed,no-op', /'no-op' is given twice/],
  ])('refuses %s, saying what to write', (text, message) => {
    const parsed = parseFaultList(text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.message).toMatch(message);
  });

  it('rides on the oracle spec and comes back whole; the journal path may hold anything', () => {
    const settings = {
      faults: [
        { kind: 'near-miss-search' as const, rate: 0.25 },
        { kind: 'repeat' as const, rate: 1 },
      ],
      seed: 7,
      task: 'toolz-5a7e078',
      feedbackCheck: true,
      journal: '/tmp/a;b#faults=x/j.jsonl',
    };
    const spec = `oracle:/tmp/gold.patch${faultSpecSuffix(settings)}`;
    expect(spec).toBe(
      'oracle:/tmp/gold.patch#faults=near-miss-search:0.25,repeat;seed=7;task=toolz-5a7e078;feedback-check;journal=/tmp/a;b#faults=x/j.jsonl',
    );
    expect(parseModelSpec(spec)).toEqual({
      ok: true,
      value: { kind: 'oracle', spec, patchPath: '/tmp/gold.patch', faults: settings },
    });
    expect(parseModelSpec('oracle:gold.patch#faults=elide;seed=0;task=t', { cwd: '/work' })).toMatchObject({
      ok: true,
      value: { patchPath: '/work/gold.patch', faults: { seed: 0, task: 't', feedbackCheck: false, journal: null } },
    });
    expect(splitFaultSpec('gold.patch')).toEqual({ ok: true, value: { patch: 'gold.patch', faults: null } });
  });

  it.each([
    ['oracle:g.patch#faults=elide', /need seed=N and task=ID/],
    ['oracle:g.patch#faults=elide;seed=x;task=t', /'seed=x' is not a fault setting/],
    ['oracle:g.patch#faults=oops;seed=1;task=t', /unknown fault kind 'oops'/],
    ['oracle:#faults=elide;seed=1;task=t', /names no patch file/],
    ['oracle:g.patch#faults=elide;seed=1;task=t;journal=', /names no file/],
  ])('refuses a malformed spec %s as BAD_MODEL_SPEC', (spec, message) => {
    expect(parseModelSpec(spec)).toMatchObject({
      ok: false,
      problem: 'BAD_MODEL_SPEC',
      message: expect.stringMatching(message),
    });
  });

  it('draws the same numbers from the same keys, other numbers from other keys', () => {
    const draw = (...keys: (string | number)[]) => Array.from({ length: 4 }, seededRandom(...keys));
    expect(draw(1, 'toolz', 'T1', 'elide')).toEqual(draw(1, 'toolz', 'T1', 'elide'));
    expect(draw(1, 'toolz', 'T1', 'elide')).not.toEqual(draw(2, 'toolz', 'T1', 'elide'));
    expect(draw(1, 'toolz', 'T1', 'elide')).not.toEqual(draw(1, 'toolz', 'T2', 'elide'));
    expect(draw(1, 'toolz', 'T1', 'elide').every((value) => value >= 0 && value < 1)).toBe(true);
  });
});
