import { describe, expect, it } from 'vitest';
import { CASES, PY_AFTER, PY_BEFORE } from '../../../../../test-support/faultFixtures';
import {
  changeRegion,
  defectProblems,
  FORMAT_KINDS,
  spoilInput,
  type Region,
} from '../../../../../test-support/spoilChecks';
import type { EditFormatName } from '../../../edits/types';
import { cutAnswer } from './cutOff';
import { diffHeader } from './diffFaults';
import { elide } from './elide';
import { SPOILERS } from './faultSession';
import type { EditFaultKind } from './faultSettings';
import { nearMissSearch } from './nearMissSearch';
import { seededRandom } from './random';
import { reindent } from './reindent';
import { testPath } from './testPath';
import { unrelatedChange } from './unrelatedChange';

const FORMATS: EditFormatName[] = ['whole-file', 'search-replace', 'unified-diff'];

describe('fault spoilers on generated files', () => {
  for (const fixture of CASES) {
    for (const format of FORMATS) {
      for (const kind of FORMAT_KINDS[format] as EditFaultKind[]) {
        it(`${fixture.name} ${format} ${kind}: the defect is there and only there, the same for a seed`, () => {
          const input = (seed: number) =>
            spoilInput(format, fixture.gold, fixture.shown, { feedback: fixture.feedback, seed });
          const spoil = SPOILERS[kind];
          for (const seed of [1, 2, 3])
            expect(defectProblems(kind, input(seed), spoil(input(seed)), fixture.shown), `seed ${seed}`).toEqual([]);
          expect(spoil(input(5))).toEqual(spoil(input(5)));
        });
      }
    }
  }

  it('a kind that cannot apply to a format leaves the answer correct and says why', () => {
    const [python] = CASES;
    if (!python) throw new Error('no case');
    expect(elide(spoilInput('unified-diff', python.gold, python.shown))).toEqual({
      ok: false,
      reason: expect.stringMatching(/a diff carries only the lines it changes/),
    });
    expect(nearMissSearch(spoilInput('whole-file', python.gold, python.shown))).toEqual({
      ok: false,
      reason: expect.stringMatching(/only a search-replace answer has a search block/),
    });
    expect(diffHeader(spoilInput('search-replace', python.gold, python.shown))).toMatchObject({ ok: false });
    expect(reindent(spoilInput('whole-file', python.gold, python.shown))).toMatchObject({ ok: false });
    // No test file in sight: nowhere to write the fix instead.
    expect(testPath(spoilInput('whole-file', python.gold, { 'stats.py': PY_BEFORE }))).toEqual({
      ok: false,
      reason: 'the request names and shows no test file',
    });
  });

  it('test-path weakens the failing test the feedback names, at the line it cites', () => {
    const [python] = CASES;
    if (!python) throw new Error('no case');
    const result = testPath(
      spoilInput('search-replace', python.gold, python.shown, {
        feedback: 'tests/test_stats.py:10: in test_middle\nFAILED tests/test_stats.py::test_middle',
      }),
    );
    expect(result).toMatchObject({
      ok: true,
      evidence: { kind: 'test-path', testPath: 'tests/test_stats.py' },
      answer: {
        edits: [
          {
            path: 'tests/test_stats.py',
            search: expect.stringContaining('assert middle(values) == 2'),
            replace: expect.stringContaining('assert True'),
          },
        ],
      },
    });
  });

  it('unrelated-change makes each of its three changes, chosen by seed', () => {
    const [python] = CASES;
    if (!python) throw new Error('no case');
    const seen = new Map<string, Region>();
    for (let seed = 1; seed <= 60 && seen.size < 3; seed++) {
      const input = spoilInput('whole-file', python.gold, python.shown, { seed });
      const result = unrelatedChange(input);
      if (!result.ok || result.answer.format !== 'whole-file') continue;
      const region = changeRegion(PY_AFTER, result.answer.edits[0]?.content ?? '');
      const removed = region.removed.join('');
      const variant = removed.includes('def _unused_helper')
        ? 'helper'
        : region.added.length === 0
          ? 'comment'
          : 'rename';
      seen.set(variant, region);
    }
    expect([...seen.keys()].sort()).toEqual(['comment', 'helper', 'rename']);
    expect(
      seen
        .get('comment')
        ?.removed.every((line) => /^\s*(#|"""|[A-Z][a-z ,.]+$|$)/.test(line.trim()) || line.trim() === ''),
    ).toBe(true);
    // A rename changes only the name, on every line of the function that uses it.
    const rename = seen.get('rename');
    const words = (line: string | undefined) => (line ?? '').split(/\W+/);
    const before = words(rename?.removed[0]);
    const after = words(rename?.added[0]);
    const at = before.findIndex((word, index) => word !== after[index]);
    const [name, other] = [before[at] ?? '?', after[at] ?? '?'];
    expect(rename?.added).toEqual(rename?.removed.map((line) => line.replace(new RegExp(`\\b${name}\\b`, 'g'), other)));
    expect(other).not.toBe(name);
  });

  it('unrelated-change on a fix already made is that change alone: the edit that changed nothing is not kept beside it', () => {
    const [python] = CASES;
    if (!python) throw new Error('no case');
    const input = spoilInput('search-replace', python.gold, { ...python.shown, 'stats.py': PY_AFTER });
    expect(input.answer).toMatchObject({ format: 'search-replace', edits: [{ path: 'stats.py' }] });
    const result = unrelatedChange(input);
    if (!result.ok || result.answer.format !== 'search-replace') throw new Error('no spoiled search-replace answer');
    expect(result.answer.edits).toHaveLength(1);
    expect(result.answer.edits.every((edit) => edit.search !== edit.replace)).toBe(true);
  });

  it('cut-off cuts at the budget when the answer is longer, else at a fraction; the JSON is never whole', () => {
    const raw = JSON.stringify({ edits: [{ path: 'a.py', content: 'x = 1\n'.repeat(400) }] });
    expect(cutAnswer(raw, 100, seededRandom(1))).toBe(raw.slice(0, 400));
    const short = cutAnswer(raw, 100_000, seededRandom(1));
    expect(short.length).toBeGreaterThanOrEqual(Math.floor(raw.length * 0.4));
    expect(short.length).toBeLessThan(raw.length);
    expect(cutAnswer(raw, undefined, seededRandom(2))).toBe(cutAnswer(raw, undefined, seededRandom(2)));
    expect(() => JSON.parse(short)).toThrow();
  });
});
