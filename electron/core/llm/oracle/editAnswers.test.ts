import { describe, expect, it } from 'vitest';
import { gitPatch, type TreeFiles } from '../../../../test-support/gitPatch';
import { editFormats } from '../../edits/formats';
import { defaultEditPolicy } from '../../edits/policy';
import type { EditFormatName } from '../../edits/types';
import { editAnswer, type EditAnswer } from './editAnswers';
import { wholeView, type VisibleFile } from './visibleFile';
import { splitLines } from './applyGold';
import { parseGoldPatch, type GoldPatch } from './goldPatch';

const FORMATS: EditFormatName[] = ['whole-file', 'search-replace', 'unified-diff'];

function gold(before: TreeFiles, after: TreeFiles): GoldPatch {
  const parsed = parseGoldPatch(gitPatch(before, after));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.patch;
}

/** What a context shows: every existing file of the tree, whole. */
function shown(files: TreeFiles): Map<string, VisibleFile> {
  return new Map(
    Object.entries(files).flatMap(([file, content]) => (content === null ? [] : [[file, wholeView(content)]])),
  );
}

/** The oracle's answer, then Lathe's own format applying it to `before`: the tree it would write. */
async function applied(format: EditFormatName, before: TreeFiles, answer: EditAnswer): Promise<TreeFiles> {
  if (!answer.ok) throw new Error(answer.reason);
  const planned = await editFormats[format].plan(
    answer.proposal,
    { read: async (file) => before[file] ?? null },
    defaultEditPolicy(),
  );
  const tree: TreeFiles = { ...before };
  for (const change of planned.changes) tree[change.path] = change.after;
  return tree;
}

async function roundTrip(
  format: EditFormatName,
  before: TreeFiles,
  after: TreeFiles,
): Promise<{ answer: EditAnswer; tree: TreeFiles }> {
  const answer = editAnswer(format, gold(before, after).files, shown(before));
  return { answer, tree: await applied(format, before, answer) };
}

const lines = (count: number, label: string) =>
  Array.from({ length: count }, (_, index) => `${label} line ${index + 1}\n`).join('');

describe('oracle edit answers: every format writes exactly the gold change through Lathe’s own formats', () => {
  it.each(FORMATS)('%s: several hunks far apart in one file', async (format) => {
    const before = { 'src/a.py': `${lines(30, 'top')}x = 1\n${lines(30, 'mid')}y = 2\n${lines(30, 'end')}` };
    const after = { 'src/a.py': `${lines(30, 'top')}x = 10\n${lines(30, 'mid')}y = 20\nz = 3\n${lines(30, 'end')}` };
    expect(gold(before, after).files[0]?.hunks).toHaveLength(2);
    const { answer, tree } = await roundTrip(format, before, after);
    expect(tree).toEqual(after);
    if (format === 'search-replace')
      expect(answer.ok && answer.blocks.map((block) => block.addedContextLines)).toEqual([0, 0]);
  });

  it.each(FORMATS)('%s: a new file beside a modified one', async (format) => {
    const before = { 'lib/main.js': "import { a } from './a.js';\nexport const run = () => a();\n" };
    const after = {
      'lib/main.js': "import { a } from './a.js';\nimport { b } from './b.js';\nexport const run = () => a() + b();\n",
      'lib/b.js': 'export const b = () => 2;\n',
    };
    const { tree } = await roundTrip(format, before, after);
    expect(tree).toEqual(after);
  });

  it('unified-diff deletes a file; whole-file and search-replace, which cannot express a deletion, decline and say so', async () => {
    const before = { 'old.txt': 'gone soon\n', 'keep.txt': 'one\n' };
    const after = { 'old.txt': null, 'keep.txt': 'two\n' };
    expect((await roundTrip('unified-diff', before, after)).tree).toEqual(after);
    for (const format of ['whole-file', 'search-replace'] as const) {
      const answer = editAnswer(format, gold(before, after).files, shown(before));
      expect(answer).toEqual({
        ok: false,
        reason: expect.stringMatching(new RegExp(`${format} cannot delete old\\.txt`)),
      });
    }
  });

  it.each(FORMATS)('%s: a CRLF file keeps its line endings byte for byte', async (format) => {
    const before = { 'win.txt': 'alpha\r\nbeta\r\ngamma\r\ndelta\r\n' };
    const after = { 'win.txt': 'alpha\r\nBETA\r\ngamma\r\ndelta\r\nepsilon\r\n' };
    const { tree } = await roundTrip(format, before, after);
    expect(tree['win.txt']).toBe(after['win.txt']);
  });

  it.each(FORMATS)('%s: a file that mixes line endings keeps each line’s own', async (format) => {
    const before = { 'mix.txt': 'head\r\none\ntwo\nthree\nfour\nfive\nsix\nseven\n' };
    const after = { 'mix.txt': 'head\r\none\ntwo\nthree\nFOUR\nfive\nsix\nseven\n' };
    expect((await roundTrip(format, before, after)).tree).toEqual(after);
  });

  it.each(FORMATS)('%s: a file without a final newline', async (format) => {
    const before = { 'n.txt': 'one\ntwo\nthree' };
    const after = { 'n.txt': 'one\n2\nthree\nfour' };
    expect((await roundTrip(format, before, after)).tree).toEqual(after);
  });

  it('search-replace grows a block that is not unique with the hunk’s own lines until it is', async () => {
    const section = (tag: string) =>
      `def ${tag}():\n    a = 1\n    b = 2\n    c = 3\n    d = 4\n    e = 5\n    f = 6\n    g = 7\n    return a\n\n`;
    const twin = section('x').replace('def x():\n', '');
    const before = { 'dup.py': `${section('first')}${section('second')}` };
    const after = { 'dup.py': `${section('first')}${section('second').replace('    d = 4\n', '    d = 40\n')}` };
    const hunk = gold(before, after).files[0]?.hunks[0];
    const hunkText = hunk?.before.join('') ?? '';
    // The hunk's own lines (git's 3 lines of context) occur in both functions.
    expect(before['dup.py'].split(hunkText)).toHaveLength(3);
    expect(twin).toContain(hunkText);
    const { answer, tree } = await roundTrip('search-replace', before, after);
    expect(tree).toEqual(after);
    expect(answer.ok && answer.blocks[0]?.addedContextLines).toBeGreaterThan(0);
    const search = answer.ok ? ((answer.proposal as { edits: { search: string }[] }).edits[0]?.search ?? '') : '';
    expect(before['dup.py'].split(search)).toHaveLength(2);
  });

  it('search-replace blocks after the first are unique in the file as the earlier blocks left it', async () => {
    const before = { 'r.txt': `${lines(10, 'a')}same\n${lines(10, 'b')}same\n${lines(10, 'c')}` };
    const after = { 'r.txt': `${lines(10, 'a')}changed\n${lines(10, 'b')}same\nnew\n${lines(10, 'c')}` };
    expect((await roundTrip('search-replace', before, after)).tree).toEqual(after);
  });
});

describe('oracle edit answers from what the context shows', () => {
  const before = { 'src/m.js': 'export const m = 1;\n' };
  const after = { 'src/m.js': 'export const m = 2;\n' };

  it('declines in every format when the file to change is not in the context, naming it', () => {
    const files = gold(before, after).files;
    for (const format of FORMATS)
      expect(editAnswer(format, files, new Map())).toEqual({
        ok: false,
        reason: expect.stringContaining("src/m.js is not in the writer's context"),
      });
  });

  it('from a file shown only in part: whole-file declines; search-replace and unified-diff write the hunks that lie in the shown runs, and decline one that does not', async () => {
    const long = { 'big.txt': `${lines(100, 'x')}middle\n${lines(100, 'y')}tail\n` };
    const fixed = { 'big.txt': `${lines(100, 'x')}MIDDLE\n${lines(100, 'y')}tail\n` };
    const all = splitLines(long['big.txt']);
    const excerpt: VisibleFile = {
      whole: false,
      segments: [
        { start: 90, lines: all.slice(90, 110) },
        { start: 195, lines: all.slice(195) },
      ],
      how: 'an excerpt',
    };
    const files = gold(long, fixed).files;
    expect(editAnswer('whole-file', files, new Map([['big.txt', excerpt]]))).toEqual({
      ok: false,
      reason: expect.stringContaining('big.txt is only partly in the writer'),
    });
    expect(
      await applied('search-replace', long, editAnswer('search-replace', files, new Map([['big.txt', excerpt]]))),
    ).toEqual(fixed);
    expect(
      await applied('unified-diff', long, editAnswer('unified-diff', files, new Map([['big.txt', excerpt]]))),
    ).toEqual(fixed);
    const cut: VisibleFile = {
      whole: false,
      segments: [{ start: 0, lines: all.slice(0, 50) }],
      how: 'cut after 50 lines',
    };
    for (const format of ['search-replace', 'unified-diff'] as const) {
      expect(editAnswer(format, files, new Map([['big.txt', cut]]))).toEqual({
        ok: false,
        reason: expect.stringContaining(
          "the gold hunk at line 98 of big.txt is not in what the writer's context shows of it (cut after 50 lines)",
        ),
      });
    }
  });

  it.each(FORMATS)('%s: a file that already carries the fix is left as it is', async (format) => {
    const answer = editAnswer(format, gold(before, after).files, shown(after));
    expect(await applied(format, after, answer)).toEqual(after);
  });

  it('declines when the file matches neither side of the gold patch', () => {
    const answer = editAnswer('search-replace', gold(before, after).files, shown({ 'src/m.js': 'something else\n' }));
    expect(answer).toEqual({ ok: false, reason: expect.stringContaining('match neither') });
  });
});
