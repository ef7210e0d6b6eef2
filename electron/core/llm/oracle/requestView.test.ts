import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../../../test-support/tempRepo';
import { contextFiles } from '../../agents/contextFiles';
import { buildContext, buildRepoMap } from '../../context/index';
import { createReadOnlyTools } from '../../tools/readOnlyTools';
import { splitLines } from './applyGold';
import { requestInput, visibleFiles } from './requestView';
import type { VisibleFile } from './visibleFile';

let repo: TempRepo | null = null;
afterEach(() => {
  repo?.remove();
  repo = null;
});

/** Every shown run of lines must be the file's own lines at that place, endings included. */
function expectFaithful(view: VisibleFile | undefined, content: string) {
  if (!view) throw new Error('the file is not in the context');
  if (view.whole) return expect(view.content).toBe(content);
  const lines = splitLines(content);
  for (const segment of view.segments)
    expect(segment.lines.join('')).toBe(lines.slice(segment.start, segment.start + segment.lines.length).join(''));
}

describe('what the oracle reads back from a request', () => {
  it('the input JSON of the first user message, and nothing from a message of another shape', () => {
    const input = { task: { id: 'T1', title: 'a } b\n}' }, goal: 'x' };
    expect(
      requestInput([
        { role: 'system', content: 'sys' },
        { role: 'user', content: `Input:\n${JSON.stringify(input, null, 2)}\n\nRelevant files and notes:\nstuff\n}` },
      ]),
    ).toEqual(input);
    // The context first, the input last (prefix reuse); a file shown may hold the header's own words.
    const after = `Relevant files and notes:\n### a.md\n\`\`\`\nInput:\n{"goal": "not this"}\n}\n\`\`\`\n\n\nInput:\n${JSON.stringify(input, null, 2)}`;
    expect(
      requestInput([
        { role: 'system', content: 'sys' },
        { role: 'user', content: after },
      ]),
    ).toEqual(input);
    expect(requestInput([{ role: 'user', content: 'hello' }])).toBeNull();
  });

  it('files as the listing-order context gives them: whole, or cut at 64 KB with the cut marked', async () => {
    const small = 'export const a = 1;\r\nexport const b = 2;\n';
    const big = Array.from(
      { length: 3000 },
      (_, index) => `export const value${index} = ${index}; // padding to pass 64 KB\n`,
    ).join('');
    repo = makeTempRepo({ files: { 'src/small.js': small, 'src/big.js': big } });
    const items = await contextFiles(createReadOnlyTools(repo.dir), {
      artifacts: ['src/small.js', 'src/big.js'],
      feedback: null,
      includeAll: false,
    });
    const views = visibleFiles(items);
    expect(views.get('src/small.js')).toEqual({ whole: true, content: small });
    const cut = views.get('src/big.js');
    expect(cut).toMatchObject({ whole: false, how: expect.stringMatching(/^cut after \d+ characters$/) });
    expectFaithful(cut, big);
  });

  it('excerpts as the context engine gives them: each shown run at its own line numbers', async () => {
    const padding = Array.from(
      { length: 60 },
      (_, index) => `def helper_${index}(seq):\n${'    seq = list(seq)\n'.repeat(8)}    return seq\n`,
    ).join('\n');
    const content = `${padding}\ndef partition_all(n, seq):\n    """Partition all elements"""\n    return tuple(seq)`;
    repo = makeTempRepo({ files: { 'toolz/itertoolz.py': content } });
    const map = await buildRepoMap(repo.dir);
    const built = await buildContext(
      map,
      { goal: 'fix partition_all' },
      { budgetTokens: 1500, read: async (file) => fs.readFileSync(path.join(repo?.dir ?? '', file), 'utf8') },
    );
    expect(built.included[0]).toMatchObject({ kind: 'excerpt' });
    const view = visibleFiles(built.items).get('toolz/itertoolz.py');
    expect(view).toMatchObject({ whole: false, how: expect.stringContaining('an excerpt of lines') });
    expectFaithful(view, content);
    expect(view && !view.whole && view.segments.at(-1)?.lines.at(-1)).toBe('    return tuple(seq)');
    expect(view && !view.whole && view.segments.flatMap((segment) => segment.lines).join('')).toContain(
      'def partition_all(n, seq):\n',
    );
  });
});
