import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  corpusScopeCases,
  evalSuiteScopeCases,
  scopeFigures,
  type ScopeCase,
} from '../../../test-support/scopeValidation';
import { sourceAppRoot } from '../appRoot';
import { findDefaultCorpus } from '../eval/corpus/index';

const corpusDir = findDefaultCorpus(sourceAppRoot());
const falseUnrelated = (cases: ScopeCase[]) =>
  cases.flatMap((item) =>
    item.falseUnrelated.map(
      (hunk) =>
        `${item.task} (${item.mode}${item.injection ? `, with ${item.injection.kind}` : ''}): ${hunk.path}:${hunk.newStart} ${hunk.reason}`,
    ),
  );

describe('hunk scope on real fixes (npm run bench:scope has the full figures)', () => {
  it("classes no hunk of the bundled eval suite's reference solutions unrelated, with and without the hinted files", async () => {
    const cases = await evalSuiteScopeCases(path.join(sourceAppRoot(), 'resources', 'eval'), ['files', 'no-files']);
    expect(cases.length).toBeGreaterThan(0);
    expect(falseUnrelated(cases)).toEqual([]);
  });

  it("classes no gold hunk of the developers' corpus unrelated, and catches injected unrelated changes of every kind", async (context) => {
    if (!corpusDir) return context.skip('no corpus here: set LATHE_CORPUS or place it at ../shared/corpus');
    const cases = await corpusScopeCases(corpusDir, { perKind: 1, modes: ['files', 'no-files'] });
    expect(falseUnrelated(cases)).toEqual([]);
    const { injected } = scopeFigures(cases);
    for (const [kind, cell] of Object.entries(injected)) {
      expect(cell.total, kind).toBeGreaterThan(20);
      expect(cell.caught / cell.total, `${kind}: ${cell.caught}/${cell.total}`).toBeGreaterThanOrEqual(0.9);
    }
    expect(Object.keys(injected).sort()).toEqual(['delete-docstring', 'delete-helper', 'other-file', 'rename-local']);
  }, 120_000);
});
