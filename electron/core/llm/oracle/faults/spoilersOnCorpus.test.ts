import { afterAll, describe, expect, it } from 'vitest';
import { loadGoldCases, type GoldCase } from '../../../../../test-support/corpusGold';
import { defectProblems, FORMAT_KINDS, spoilInput } from '../../../../../test-support/spoilChecks';
import { isTestFile } from '../../../edits/policy';
import type { EditFormatName } from '../../../edits/types';
import type { EditFaultKind } from './faultSettings';
import { SPOILERS } from './faultSession';

// Real gold patches of the developers' corpus (pytest, mocha, vitest; Python, JavaScript, TypeScript).
const TASKS = ['toolz-5a7e078', 'sqlparse-f66d12c', 'express-18e5985', 'ufo-eb29945'];
const loaded = loadGoldCases(TASKS);
afterAll(() => loaded?.remove());

/** The failing test's file: named by a pytest or vitest id, or (mocha titles) the test file that holds the title. */
function failingTestFile(gold: GoldCase): string {
  const id = gold.task.fail_to_pass[0] ?? '';
  const named = id.split(/::| > /)[0] ?? '';
  if (gold.paths.includes(named)) return named;
  // A mocha title is its suites' titles and its own: find a file holding its own, else the innermost suite's.
  const [suites = '', own = ''] = id.split(/ (?=should )/);
  const words = suites.split(' ');
  const pieces = [
    own,
    ...words.map((_, at) => words.slice(at).join(' ')).filter((piece) => piece.split(' ').length >= 3),
  ];
  const found = pieces.flatMap((piece) =>
    gold.paths.filter((path) => isTestFile(path) && (gold.atFix(path) ?? '').includes(piece)),
  )[0];
  if (!found) throw new Error(`no test file holds '${id}'`);
  return found;
}

const FORMATS: EditFormatName[] = ['whole-file', 'search-replace', 'unified-diff'];

describe('fault spoilers on real gold patches', () => {
  for (const id of TASKS) {
    for (const format of FORMATS) {
      it(`${id} ${format}: every kind the format carries is there and only there, the same for a seed`, (context) => {
        if (!loaded) return context.skip('no corpus here: set LATHE_CORPUS or place it at ../shared/corpus');
        const gold = loaded.cases.get(id) as GoldCase;
        const testFile = failingTestFile(gold);
        const shown = { ...gold.before, [testFile]: gold.atFix(testFile) ?? '' };
        const feedback = `FAILED ${gold.task.fail_to_pass.join('\nFAILED ')}`;
        for (const kind of FORMAT_KINDS[format] as EditFaultKind[]) {
          for (const seed of [1, 2]) {
            const input = spoilInput(format, gold.gold.files, shown, { feedback, seed });
            const result = SPOILERS[kind](input);
            expect(defectProblems(kind, input, result, shown), `${kind}, seed ${seed}`).toEqual([]);
            expect(SPOILERS[kind](spoilInput(format, gold.gold.files, shown, { feedback, seed }))).toEqual(result);
          }
        }
      });
    }
  }
});
