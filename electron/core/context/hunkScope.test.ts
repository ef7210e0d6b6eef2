import { describe, expect, it } from 'vitest';
import { isLatheError } from '../../../shared/errors';
import { classifyHunks, unrelatedFeedback } from './hunkScope';
import { type HunkScope, type ScopeEvidence } from '../../../shared/schemas/scope';

const PY = [
  'def discount(price, percent):',
  '    """Price after a discount of `percent` %."""',
  '    total = price * (100 - percent) / 100',
  '    return round(total, 2)',
  '',
  '',
  'def _clamp(value):',
  '    return max(0, value)',
  '',
  '',
  'def tax(amount):',
  '    """Tax due on an amount."""',
  '    rate = 0.2',
  '    due = amount * rate',
  '    # what is owed',
  '    return due',
  '',
].join('\n');

const JS = [
  '/**',
  ' * Splits `items` into arrays of `size`.',
  ' */',
  'export function chunk(items, size) {',
  '  const out = [];',
  '  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));',
  '  return out;',
  '}',
  '',
  '/**',
  ' * The first item.',
  ' */',
  'export function head(items) {',
  '  const first = items[0];',
  '  return first;',
  '}',
  '',
  'function unused(value) {',
  '  return value;',
  '}',
  '',
].join('\n');

/** The fix every case starts from: tax() rounds. Evidence names tax and the failing test. */
const fixedPy = PY.replace('    return due', '    return round(due, 2)');
const pyEvidence: ScopeEvidence = {
  texts: ['tax() must round to cents', 'tests/test_money.py::test_tax_rounds'],
  files: ['money.py'],
};
const fixedJs = JS.replace('i += size)', 'i += Math.max(1, size))');
const jsEvidence: ScopeEvidence = {
  texts: ['chunk() loops forever when size is 0', 'test/chunk.test.js > chunk > size 0'],
  files: ['src/list.js'],
};

const verdicts = (hunks: HunkScope[]) =>
  hunks.map(
    (hunk) =>
      `${hunk.onTarget ? 'on' : 'OFF'} ${hunk.oldStart},${hunk.oldLines} ${hunk.newStart},${hunk.newLines}: ${hunk.reason}`,
  );
const py = (after: string, evidence = pyEvidence, before = PY) =>
  classifyHunks([{ path: 'money.py', before, after }], evidence);
const js = (after: string, evidence = jsEvidence) =>
  classifyHunks([{ path: 'src/list.js', before: JS, after }], evidence);

describe('classifyHunks: the fix itself', () => {
  it('keeps every hunk of a plain fix on target, with git-style line numbers', async () => {
    const hunks = await py(`import math\n${fixedPy}`);
    expect(verdicts(hunks)).toEqual([
      'on 0,0 1,1: adds code in money.py, a file the task names',
      'on 16,1 17,1: changes code in tax(), a file the task names',
    ]);
    expect(hunks.map((hunk) => hunk.symbol)).toEqual([null, 'tax']);
  });
});

describe('classifyHunks: renames', () => {
  it('classes a renamed local in a function nothing names as unrelated, and the same rename in the fixed function as on target', async () => {
    const renamed = fixedPy
      .replace('    total = price', '    amount_due = price')
      .replace('round(total, 2)', 'round(amount_due, 2)');
    expect(verdicts(await py(renamed))).toEqual([
      "OFF 3,2 3,2: renames 'total' to 'amount_due' in discount(), which nothing in the task names",
      'on 16,1 16,1: changes code in tax(), a file the task names',
    ]);
    const inTax = fixedPy.replace('    rate = 0.2', '    share = 0.2').replace('amount * rate', 'amount * share');
    expect(verdicts(await py(inTax))[0]).toBe("on 13,2 13,2: renames 'rate' to 'share' in tax(); the task names tax");
  });

  it('reads a switch to another variable, or to another attribute, as a code change, not a rename', async () => {
    const otherVariable = PY.replace('round(total, 2)', 'round(price, 2)');
    expect(verdicts(await py(otherVariable, { texts: ['anything'], files: ['money.py'] }))).toEqual([
      'on 4,1 4,1: changes code in discount(), a file the task names',
    ]);
    const source = 'def f(token):\n    return token.is_whitespace\n';
    const hunks = await classifyHunks(
      [{ path: 'a.py', before: source, after: source.replace('is_whitespace', 'is_newline') }],
      { texts: ['x'], files: ['a.py'] },
    );
    expect(verdicts(hunks)).toEqual(['on 2,1 2,1: changes code in f(), a file the task names']);
  });

  it('renames in JavaScript leave members alone: `this.first` stays while the local changes', async () => {
    const source = 'export function head(items) {\n  const first = this.first ?? items[0];\n  return first;\n}\n';
    const after = source.replace('const first =', 'const firstItem =').replace('return first;', 'return firstItem;');
    const hunks = await classifyHunks([{ path: 'src/a.ts', before: source, after }], {
      texts: ['unrelated goal'],
      files: ['src/a.ts'],
    });
    expect(verdicts(hunks)).toEqual([
      "OFF 2,2 2,2: renames 'first' to 'firstItem' in head(), which nothing in the task names",
    ]);
  });

  it('keeps a rename the task asks for, and a switch to a name the change introduces', async () => {
    const renamed = PY.replace('    total = price', '    subtotal = price').replace(
      'round(total, 2)',
      'round(subtotal, 2)',
    );
    expect((await py(renamed, { texts: ['rename total to subtotal'], files: [] }))[0]?.reason).toBe(
      "renames 'total' to 'subtotal' in discount(), as the task asks",
    );
    const source = 'type Old = string;\n\nexport function f(): Old {\n  return "";\n}\n';
    const after = 'type Old = string;\ntype Parsed = string;\n\nexport function f(): Parsed {\n  return "";\n}\n';
    const hunks = await classifyHunks([{ path: 'src/q.ts', before: source, after }], {
      texts: ['parsed values are strings'],
      files: ['src/q.ts'],
    });
    expect(verdicts(hunks)).toEqual([
      "on 1,0 2,1: adds type 'Parsed', a file the task names",
      "on 3,1 4,1: renames 'Old' to 'Parsed' in f(); 'Parsed' is what the change at src/q.ts:2 introduces",
    ]);
  });
});

describe('classifyHunks: comments and docstrings', () => {
  it('classes a deleted docstring (Python) and a deleted JSDoc block (JS) of a function nothing names as unrelated', async () => {
    expect(verdicts(await py(fixedPy.replace('    """Price after a discount of `percent` %."""\n', '')))).toEqual([
      'OFF 2,1 1,0: deletes the docstring of discount(), which nothing in the task names',
      'on 16,1 15,1: changes code in tax(), a file the task names',
    ]);
    const hunks = await js(fixedJs.replace('/**\n * The first item.\n */\n', ''));
    expect(verdicts(hunks)[1]).toBe('OFF 10,3 9,0: deletes comments above head(), which nothing in the task names');
    expect(hunks[1]?.symbol).toBe('head');
  });

  it('classes a deleted doc comment unrelated although the task names what it documents, unless the fix is beside it', async () => {
    const named: ScopeEvidence = {
      texts: ['tax() must round; head() is used by the failing test'],
      files: ['money.py'],
    };
    const deleted = fixedPy.replace('    """Tax due on an amount."""\n', '');
    // The docstring sits in tax(), the function the fix changes: the same-function rule keeps it.
    expect((await py(deleted, named))[0]?.onTarget).toBe(true);
    const jsNamed: ScopeEvidence = {
      texts: ['chunk() loops forever; head() is called by the failing test'],
      files: [],
    };
    const hunks = await js(fixedJs.replace('/**\n * The first item.\n */\n', ''), jsNamed);
    expect(verdicts(hunks)[1]).toBe(
      'OFF 10,3 9,0: deletes comments above head(): the task uses that code but does not ask to remove its documentation',
    );
    // An edited (not deleted) doc comment of a named function is still the task's.
    const reworded = await js(fixedJs.replace(' * The first item.', ' * The first item, or undefined.'), jsNamed);
    expect(reworded[1]?.onTarget).toBe(true);
  });

  it('keeps comment changes when the task is about documentation, or the edited comment uses its words', async () => {
    const reworded = PY.replace('Tax due on an amount.', 'Tax due on an amount, rounded to cents.');
    expect((await py(reworded, { texts: ['fix the docstrings'], files: ['money.py'] }))[0]?.reason).toBe(
      'changes only the docstring of tax(); the task is about documentation, comments or style',
    );
    const pragma = PY.replace('    # what is owed', '    # what is owed  # pragma: no cover');
    expect((await py(pragma, { texts: ['fix pragma checks'], files: ['money.py'] }))[0]?.onTarget).toBe(true);
    expect((await py(pragma, { texts: ['fix the rounding'], files: ['money.py'] }))[0]?.reason).toBe(
      'changes only comments in tax(), which nothing in the task names',
    );
  });

  it("keeps a file's licence notice although the task is about comments, unless it mentions the licence", async () => {
    const notice = '# Copyright (C) 2009-2020 the authors\n# Released under the BSD License\n\n';
    const withNotice = (text: string) => `${notice}${text}`;
    const evidence = (text: string): ScopeEvidence => ({ texts: [text], files: ['money.py'] });
    const dropped = await py(fixedPy, evidence('strip SQL comments'), withNotice(PY));
    expect(verdicts(dropped)[0]).toBe(
      'OFF 1,3 0,0: deletes comments above discount(), which nothing in the task names',
    );
    const asked = await py(fixedPy, evidence('drop the licence comments'), withNotice(PY));
    expect(asked[0]?.onTarget).toBe(true);
    // A comment edit that keeps the notice whole is still the task's where it is about comments.
    const kept = await py(
      withNotice(fixedPy).replace('authors', 'contributors'),
      evidence('fix the comments'),
      withNotice(PY),
    );
    expect(kept[0]?.onTarget).toBe(true);
  });

  it('reads a re-indented block comment as layout, not a comment change', async () => {
    const reindented = fixedJs.replace(' * The first item.\n */', '   * The first item.\n   */');
    const hunks = await js(reindented);
    expect(verdicts(hunks)).toHaveLength(2);
    expect(hunks[1]).toMatchObject({
      onTarget: true,
      reason: 'changes only blank lines or indentation in src/list.js, a file the task names',
    });
  });

  it('keeps every edit of a comment one of whose edits is on target; another comment stays in doubt', async () => {
    // Doc comments outside any function (a setting, a type's field): the same-function rule cannot join them.
    const settings = [
      '/**',
      ' * Items per page.',
      ' *',
      ' * Read once, never changed.',
      ' */',
      'export const PAGE = 10;',
      '',
      '/**',
      ' * Pages kept.',
      ' */',
      'export const KEEP = 3;',
      '',
    ].join('\n');
    const edited = settings
      .replace('Items per page.', 'Items per page, or none for an empty list.')
      .replace('never changed.', 'never modified.')
      .replace('Pages kept.', 'Pages kept in memory.');
    const hunks = await classifyHunks([{ path: 'src/conf.js', before: settings, after: edited }], {
      texts: ['an empty list gives none'],
      files: ['src/conf.js'],
    });
    expect(verdicts(hunks)).toEqual([
      "on 2,1 2,1: changes only comments above variable PAGE; the comment change mentions 'empty', as the task does",
      'on 4,1 4,1: changes only comments above variable PAGE; in the same comment as the change at src/conf.js:2',
      'OFF 9,1 9,1: changes only comments above variable KEEP, which nothing in the task names',
    ]);
  });

  it('classes a comment deleted beside the fix unrelated when it shares no word with the change, unless the task is a refactor', async () => {
    const withComment = (comment: string) => PY.replace('    rate = 0.2', `    # ${comment}\n    rate = 0.2`);
    const before = withComment('the legal rate, set by statute');
    const evidence = (text: string): ScopeEvidence => ({ texts: [text], files: ['money.py'] });
    expect(verdicts(await py(fixedPy, evidence('tax() must round to cents'), before))[0]).toBe(
      'OFF 13,1 12,0: deletes comments in tax(): the task uses that code but does not ask to remove its documentation',
    );
    expect((await py(fixedPy, evidence('refactor tax() to round to cents'), before))[0]?.onTarget).toBe(true);
    // A comment about what the fix changes (a TODO it settles) goes with it.
    const todo = withComment('TODO: round what is due');
    expect((await py(fixedPy, evidence('tax() must round to cents'), todo))[0]?.onTarget).toBe(true);
  });

  it('keeps a comment in the function the fix changes', async () => {
    const commented = fixedPy.replace('    rate = 0.2', '    # the legal rate\n    rate = 0.2');
    expect(
      verdicts(
        await classifyHunks([{ path: 'money.py', before: PY, after: commented }], {
          texts: ['round the amount'],
          files: ['money.py'],
        }),
      ),
    ).toEqual([
      'on 12,0 13,1: adds comments in tax(); in the same function as the change at money.py:17',
      'on 16,1 17,1: changes code in tax(), a file the task names',
    ]);
  });
});

describe('classifyHunks: deleted definitions', () => {
  it('classes a deleted helper nobody names or calls as unrelated, as one hunk with its blank lines', async () => {
    const hunks = await js(fixedJs.replace('\nfunction unused(value) {\n  return value;\n}\n', ''));
    expect(verdicts(hunks)[1]).toBe(
      "OFF 17,4 16,0: deletes function 'unused', which nothing in the task names or uses",
    );
    const py2 = await py(fixedPy.replace('def _clamp(value):\n    return max(0, value)\n\n\n', ''));
    expect(verdicts(py2)[0]).toBe("OFF 7,4 6,0: deletes function '_clamp', which nothing in the task names or uses");
  });

  it('keeps a deleted helper whose last call the fix removes', async () => {
    const before = PY.replace('    return due', '    return _clamp(due)');
    const after = before
      .replace('    return _clamp(due)', '    return round(due, 2)')
      .replace('def _clamp(value):\n    return max(0, value)\n\n\n', '');
    const hunks = await classifyHunks([{ path: 'money.py', before, after }], pyEvidence);
    expect(verdicts(hunks)).toEqual([
      "on 7,4 6,0: deletes function '_clamp'; '_clamp' is used by the change at money.py:12",
      'on 16,1 12,1: changes code in tax(), a file the task names',
    ]);
  });
});

describe('classifyHunks: files', () => {
  const other = 'def helper():\n    return 1\n';

  it('classes a change in a file nothing names as unrelated, unless no files were given or an on-target hunk uses what it adds', async () => {
    const change = [
      { path: 'money.py', before: PY, after: fixedPy },
      { path: 'util.py', before: other, after: other.replace('return 1', 'return 2') },
    ];
    expect(verdicts(await classifyHunks(change, pyEvidence))[1]).toBe(
      'OFF 2,1 2,1: changes code in helper(), a file nothing in the task names',
    );
    expect(verdicts(await classifyHunks(change, { ...pyEvidence, files: [] }))[1]).toBe(
      'on 2,1 2,1: changes code in helper() (no files were named to check it against)',
    );
    expect(verdicts(await classifyHunks(change, { ...pyEvidence, texts: ['see util.py'] }))[1]).toBe(
      'on 2,1 2,1: changes code in helper(), a file the task names',
    );
    const used = [
      { path: 'money.py', before: PY, after: fixedPy.replace('round(due, 2)', 'round(due, CENTS)') },
      { path: 'util.py', before: other, after: `CENTS = 2\n${other}` },
    ];
    expect(verdicts(await classifyHunks(used, pyEvidence))[1]).toBe(
      "on 0,0 1,1: adds code in util.py; 'CENTS' is used by the change at money.py:16",
    );
  });

  it('classes a new file nothing names or imports as unrelated; a named, imported or test file is kept', async () => {
    const stray = await classifyHunks(
      [
        { path: 'money.py', before: PY, after: fixedPy },
        { path: 'copy_of_money.py', before: null, after: PY },
      ],
      pyEvidence,
    );
    expect(verdicts(stray)[1]).toBe(
      'OFF 0,0 1,16: creates copy_of_money.py, which nothing in the task names and no other change imports',
    );
    const imported = fixedPy.replace('def discount', 'from rounding import cents\n\n\ndef discount');
    const helper = await classifyHunks(
      [
        { path: 'money.py', before: PY, after: imported },
        { path: 'rounding.py', before: null, after: 'def cents(value):\n    return round(value, 2)\n' },
      ],
      pyEvidence,
    );
    expect(verdicts(helper)[2]).toBe(
      'on 0,0 1,2: creates rounding.py; rounding.py is imported by the change at money.py:1',
    );
    const test = await classifyHunks(
      [{ path: 'tests/test_cents.py', before: null, after: 'def test_cents():\n    assert True\n' }],
      pyEvidence,
    );
    expect(test[0]?.reason).toBe('creates tests/test_cents.py, a test file');
    const removed = await classifyHunks([{ path: 'old.py', before: other, after: null }], pyEvidence);
    expect(verdicts(removed)).toEqual([
      'OFF 1,2 0,0: deletes old.py, which nothing in the task names and no other change stopped importing',
    ]);
  });
});

describe('classifyHunks: bad input', () => {
  it('names the problem: a file twice, a file absent on both sides, a path outside the repository', async () => {
    const cases: [Parameters<typeof classifyHunks>[0], RegExp][] = [
      [
        [
          { path: 'a.py', before: 'x', after: 'y' },
          { path: 'a.py', before: 'x', after: 'z' },
        ],
        /a\.py appears twice in one change/,
      ],
      [
        [{ path: 'a.py', before: null, after: null }],
        /change #1 \(a\.py\): a file absent before and after changes nothing/,
      ],
      [[{ path: '../a.py', before: 'x', after: 'y' }], /change #1 \(\.\.\/a\.py\): path: a path inside the repository/],
    ];
    for (const [changes, message] of cases) {
      const error = await classifyHunks(changes, pyEvidence).catch((caught: unknown) => caught);
      expect(isLatheError(error, 'INVALID_PAYLOAD')).toBe(true);
      expect((error as Error).message).toMatch(message);
    }
  });
});

describe('unrelatedFeedback', () => {
  it('names each unrelated hunk with its lines and what to do; nothing when all are on target', async () => {
    const renamed = fixedPy
      .replace('    total = price', '    amount_due = price')
      .replace('round(total, 2)', 'round(amount_due, 2)')
      .replace('def _clamp(value):\n    return max(0, value)\n\n\n', '');
    const hunks = await py(renamed);
    expect(unrelatedFeedback(hunks)).toBe(
      [
        'Your change also edits code the task does not ask for (2 of 3 hunks). Put these lines back exactly as they were and keep the rest of your change:',
        "- money.py lines 3-4 (original lines 3-4): renames 'total' to 'amount_due' in discount(), which nothing in the task names",
        "- money.py (the deleted original lines 7-10): deletes function '_clamp', which nothing in the task names or uses",
      ].join('\n'),
    );
    expect(unrelatedFeedback(await py(fixedPy))).toBeNull();
  });
});
