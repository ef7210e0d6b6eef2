import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { buildContext } from './buildContext';
import { TEST_CONTEXT_TOKENS } from './contextAssembly';
import { buildRepoMap, clearRepoMapMemory } from './repoMap';

let repo: TempRepo | null = null;
afterEach(() => {
  repo?.remove();
  repo = null;
});

/** A repository whose listing order puts many unrelated files before the one to fix. */
function sampleRepo(): TempRepo {
  const files: Record<string, string> = {};
  for (let index = 0; index < 30; index++)
    files[`aaa/filler${index}.py`] = `def filler_${index}(x):\n${'    x = x + 1\n'.repeat(40)}    return x\n`;
  const padding = Array.from(
    { length: 60 },
    (_, index) => `def helper_${index}(seq):\n${'    seq = list(seq)\n'.repeat(8)}    return seq\n`,
  ).join('\n');
  files['toolz/itertoolz.py'] =
    `${padding}\ndef partition_all(n, seq):\n    """Partition all elements of sequence into tuples of length at most n"""\n    return tuple(seq)\n`;
  files['toolz/tests/test_itertoolz.py'] =
    'from toolz.itertoolz import partition_all\n\ndef test_partition_all():\n    assert partition_all(2, [1]) == ((1,),)\n';
  return makeTempRepo({ files });
}

/** mux's shape: the router file the goal's words find, and the route file holding the fix far from them. */
function routerRepo(extra: Record<string, string> = {}): TempRepo {
  const padding = (name: string) =>
    Array.from(
      { length: 40 },
      (_, index) => `def ${name}_${index}(seq):\n${'    seq = list(seq)\n'.repeat(6)}    return seq\n`,
    ).join('\n');
  return makeTempRepo({
    files: {
      'router/mux.py': `def route_status(request):\n    return match_route(request)\n\n${padding('fill')}`,
      'router/route.py': `def match_route(request):\n    return 405\n\n${padding('pad')}\n\ndef route_query(request):\n    return request.query\n`,
      ...extra,
    },
  });
}

const reader = (dir: string) => async (file: string) => fs.readFileSync(path.join(dir, file), 'utf8');

describe('buildContext', () => {
  it('puts the function to fix in a small window, ranked from the goal, never in listing order', async () => {
    repo = sampleRepo();
    const map = await buildRepoMap(repo.dir);
    const built = await buildContext(
      map,
      { goal: 'Raise in partition_all when length is invalid' },
      { budgetTokens: 1500, read: reader(repo.dir) },
    );
    const text = built.items.map((item) => item.text).join('\n');
    expect(text).toContain('def partition_all(n, seq):');
    expect(built.included[0]).toMatchObject({ path: 'toolz/itertoolz.py', kind: 'excerpt' });
    expect(built.dropped).toContainEqual(
      expect.objectContaining({ id: 'file:toolz/itertoolz.py', reason: 'too large whole: excerpted' }),
    );
    expect(text).not.toContain('filler_0');
    expect(built.usedTokens).toBeLessThanOrEqual(1500);
    expect(built.items.map((item) => item.priority)).toEqual(
      [...built.items.map((item) => item.priority)].sort((a, b) => b - a),
    );
  });

  it('follows a stack frame to the enclosing function and names what did not fit', async () => {
    repo = sampleRepo();
    const map = await buildRepoMap(repo.dir);
    const source = fs.readFileSync(path.join(repo.dir, 'toolz/itertoolz.py'), 'utf8').split('\n');
    const line = source.findIndex((row) => row.includes('return tuple(seq)')) + 1;
    const feedback = `Traceback (most recent call last):\n  File "/tmp/x/toolz/itertoolz.py", line ${line}, in partition_all\nAssertionError`;
    const built = await buildContext(
      map,
      { goal: 'fix a crash', feedback },
      { budgetTokens: 400, read: reader(repo.dir) },
    );
    const excerpt = built.included.find((entry) => entry.path === 'toolz/itertoolz.py');
    expect(excerpt?.lines?.some(([start, end]) => start <= line && line <= end)).toBe(true);
    expect(built.dropped.length).toBeGreaterThan(0);
  });

  it("stops adding files where the ranker's confidence ends, not where the budget does (issue 28)", async () => {
    repo = sampleRepo();
    // Every filler shares a word with the goal: each is a candidate the budget could buy.
    for (let index = 0; index < 30; index++)
      fs.appendFileSync(path.join(repo.dir, `aaa/filler${index}.py`), '\n\ndef length_of(x):\n    return len(x)\n');
    const map = await buildRepoMap(repo.dir);
    const query = { goal: 'Raise in partition_all when length is invalid' };
    const built = await buildContext(map, query, { budgetTokens: 100_000, read: reader(repo.dir) });
    expect(built.included.map((entry) => entry.path)).toContain('toolz/itertoolz.py');
    expect(built.included.some((entry) => entry.path.startsWith('aaa/'))).toBe(false);
    expect(built.usedTokens).toBeLessThan(10_000);
    expect(built.dropped.some((entry) => /scored under 0\.5 of the best/.test(entry.reason))).toBe(true);
    // The same call with a budget that buys everything shows no more.
    const again = await buildContext(map, query, { budgetTokens: 1_000_000, read: reader(repo.dir) });
    expect(again.included.map((entry) => entry.id)).toEqual(built.included.map((entry) => entry.id));
  });

  it('shows a file read rather than edited by the parts the query points at, however large the budget (issue 28)', async () => {
    const padding = Array.from(
      { length: 60 },
      (_, index) => `def helper_${index}(seq):\n${'    seq = list(seq)\n'.repeat(8)}    return seq\n`,
    ).join('\n');
    repo = makeTempRepo({
      files: {
        'toolz/itertoolz.py':
          'from toolz.joins import join_pairs\n\n\ndef partition_all(n, seq):\n    return join_pairs(seq)\n',
        'toolz/joins.py': `${padding}\n\ndef join_pairs(seq):\n    return tuple(seq)\n`,
      },
    });
    const map = await buildRepoMap(repo.dir);
    const built = await buildContext(
      map,
      { goal: 'partition_all loses items: partition_all calls join_pairs' },
      { budgetTokens: 100_000, read: reader(repo.dir) },
    );
    expect(built.included[0]).toMatchObject({ path: 'toolz/itertoolz.py', kind: 'file' });
    const joins = built.included.find((entry) => entry.path === 'toolz/joins.py');
    expect(joins?.kind).toBe('excerpt');
    expect(built.items.find((item) => item.id === 'excerpt:toolz/joins.py')?.text).toContain('def join_pairs(seq):');
    expect(built.dropped).toContainEqual(
      expect.objectContaining({ id: 'file:toolz/joins.py', reason: 'read, not edited: the parts the query points at' }),
    );
  });

  it('shows a second guessed file to edit whole, its fix far from what the query names; prose is never guessed (issue 30)', async () => {
    repo = routerRepo({
      'README.md': `# router\n\n${'route_status and match_route return a 405 or 404 status for a route query mismatch.\n'.repeat(30)}`,
    });
    const map = await buildRepoMap(repo.dir);
    const built = await buildContext(
      map,
      { goal: 'route_status returns 405 on a route query mismatch; match_route must give 404' },
      { budgetTokens: 30_000, read: reader(repo.dir) },
    );
    const shown = Object.fromEntries(built.included.map((entry) => [entry.path, entry.kind]));
    expect(shown).toMatchObject({ 'router/mux.py': 'file', 'router/route.py': 'file' });
    expect(shown['README.md']).toBeUndefined();
  });

  it('still guesses the second file to edit when a retry names the first (the name is no yardstick for the rest)', async () => {
    repo = routerRepo();
    const map = await buildRepoMap(repo.dir);
    // pflag-9c97fad: a decline named flag.go, and golangflag.go, the other file of the fix, left the retry's context.
    const built = await buildContext(
      map,
      {
        goal: 'route_status returns 405 on a route query mismatch; match_route must give 404',
        targetFiles: ['router/mux.py'],
      },
      { budgetTokens: 30_000, read: reader(repo.dir) },
    );
    const shown = Object.fromEntries(built.included.map((entry) => [entry.path, entry.kind]));
    expect(shown).toMatchObject({ 'router/mux.py': 'file', 'router/route.py': 'file' });
  });

  it("gives named files the targets' room before a guessed one: a plan's second file stays whole (pflag-ad27a40)", async () => {
    const defs = (name: string, count: number) =>
      Array.from({ length: count }, (_, index) => `def ${name}_${index}(seq):\n    return list(seq)\n`).join('\n');
    repo = makeTempRepo({
      files: {
        'flags/boolean.py': `def parse_bool(value):\n    return value == 'true'\n`,
        'flags/flagset.py': `def lookup_flag(name):\n    return name\n\n${defs('flagset', 120)}\n\ndef parse_bool_flag(name, value):\n    return parse_bool(value)\n`,
        'flags/boolfunc.py': `def parse_bool_func(value):\n    return parse_bool(value)\n\n${defs('bf', 10)}`,
      },
    });
    const map = await buildRepoMap(repo.dir);
    const built = await buildContext(
      map,
      {
        goal: 'parse_bool_flag must honour a custom parse_bool in parse_bool_func',
        artifacts: ['flags/boolean.py', 'flags/flagset.py'],
      },
      { budgetTokens: 3000, read: reader(repo.dir) },
    );
    const shown = Object.fromEntries(built.included.map((entry) => [entry.path, entry.kind]));
    expect(shown).toEqual({ 'flags/boolean.py': 'file', 'flags/flagset.py': 'file', 'flags/boolfunc.py': 'file' });
  });

  it('leaves out prose the goal does not name, and shows a test file by its failing test (issue 28)', async () => {
    const tests = Array.from(
      { length: 40 },
      (_, index) => `def test_case_${index}():\n    assert partition_all(2, [${index}]) == ((${index},),)\n`,
    ).join('\n');
    repo = makeTempRepo({
      files: {
        'toolz/itertoolz.py': 'def partition_all(n, seq):\n    return tuple(seq)\n',
        'CHANGELOG.md': `# Changes\n\n${'- partition_all: length checks\n'.repeat(40)}`,
        'toolz/tests/test_itertoolz.py': `from toolz.itertoolz import partition_all\n\n${tests}\n\ndef test_partition_all_invalid():\n    partition_all(0, [1])\n`,
      },
    });
    const map = await buildRepoMap(repo.dir);
    const source = fs.readFileSync(path.join(repo.dir, 'toolz/tests/test_itertoolz.py'), 'utf8').split('\n');
    const line = source.findIndex((row) => row.includes('partition_all(0, [1])')) + 1;
    const feedback = `toolz/tests/test_itertoolz.py::test_partition_all_invalid FAILED\n  File "toolz/tests/test_itertoolz.py", line ${line}, in test_partition_all_invalid`;
    const built = await buildContext(
      map,
      { goal: 'partition_all must raise when the length is invalid', feedback },
      { budgetTokens: 100_000, read: reader(repo.dir) },
    );
    expect(built.included.map((entry) => entry.path)).not.toContain('CHANGELOG.md');
    expect(built.dropped).toContainEqual(
      expect.objectContaining({ path: 'CHANGELOG.md', reason: expect.stringMatching(/prose the goal does not name$/) }),
    );
    const testText = built.items.find((item) => item.id === 'excerpt:toolz/tests/test_itertoolz.py')?.text ?? '';
    expect(testText).toContain('def test_partition_all_invalid():');
    expect(testText).not.toContain('def test_case_20():');
  });

  it('shows a test file read for context in at most TEST_CONTEXT_TOKENS, its failing line kept, however large its failing class (decision 99)', async () => {
    const methods = Array.from(
      { length: 120 },
      (_, index) =>
        `    def test_case_${index}(self):\n        self.assertEqual(partition_all(2, [${index}]), ((${index},),))\n`,
    ).join('\n');
    repo = makeTempRepo({
      files: {
        'toolz/itertoolz.py': 'def partition_all(n, seq):\n    return tuple(seq)\n',
        'toolz/tests/test_itertoolz.py': `import unittest\nfrom toolz.itertoolz import partition_all\n\n\nclass TestPartitionAll(unittest.TestCase):\n${methods}\n    def test_invalid(self):\n        partition_all(0, [1])\n`,
      },
    });
    const map = await buildRepoMap(repo.dir);
    const source = fs.readFileSync(path.join(repo.dir, 'toolz/tests/test_itertoolz.py'), 'utf8');
    const line = source.split('\n').findIndex((row) => row.includes('partition_all(0, [1])')) + 1;
    const feedback = `toolz/tests/test_itertoolz.py::TestPartitionAll::test_invalid FAILED\n  File "toolz/tests/test_itertoolz.py", line ${line}, in test_invalid`;
    const built = await buildContext(
      map,
      { goal: 'partition_all must raise when the length is invalid', feedback },
      { budgetTokens: 100_000, read: reader(repo.dir) },
    );
    const shown = built.included.find((entry) => entry.path === 'toolz/tests/test_itertoolz.py');
    expect(Math.ceil(source.length / 4)).toBeGreaterThan(2 * TEST_CONTEXT_TOKENS);
    expect(shown).toMatchObject({ kind: 'excerpt' });
    expect(shown?.tokens).toBeLessThanOrEqual(TEST_CONTEXT_TOKENS);
    expect(built.items.find((item) => item.id === 'excerpt:toolz/tests/test_itertoolz.py')?.text).toContain(
      'partition_all(0, [1])',
    );
    // The source file is not held to it.
    expect(built.included.find((entry) => entry.path === 'toolz/itertoolz.py')).toMatchObject({ kind: 'file' });
  });

  it('measures confidence against a named file by its query score, not against the best of the rest', async () => {
    repo = sampleRepo();
    for (let index = 0; index < 30; index++)
      fs.appendFileSync(path.join(repo.dir, `aaa/filler${index}.py`), '\n\ndef length_of(x):\n    return len(x)\n');
    const map = await buildRepoMap(repo.dir);
    const built = await buildContext(
      map,
      { goal: 'Raise in partition_all when length is invalid', artifacts: ['toolz/itertoolz.py'] },
      { budgetTokens: 100_000, read: reader(repo.dir) },
    );
    expect(built.included[0]).toMatchObject({ path: 'toolz/itertoolz.py', reason: 'plan artifact' });
    expect(built.included.some((entry) => entry.path.startsWith('aaa/'))).toBe(false);
  });

  it('keeps plan artifacts first and whole when they fit', async () => {
    repo = sampleRepo();
    const map = await buildRepoMap(repo.dir);
    const built = await buildContext(
      map,
      { goal: 'partition_all', artifacts: ['aaa/filler3.py'] },
      { budgetTokens: 4000, read: reader(repo.dir) },
    );
    expect(built.included[0]).toMatchObject({ id: 'file:aaa/filler3.py', kind: 'file', reason: 'plan artifact' });
  });
});

describe('buildContext for a whole-file writer and for seed 000', () => {
  it('shows a file to rewrite whole or not at all, and never excerpts another file (a whole-file answer would truncate it)', async () => {
    repo = sampleRepo();
    const map = await buildRepoMap(repo.dir);
    const goal = { goal: 'Raise in partition_all when length is invalid', artifacts: ['toolz/itertoolz.py'] };
    const big = await buildContext(map, goal, {
      budgetTokens: 1500,
      read: reader(repo.dir),
      wholeFiles: ['toolz/itertoolz.py'],
      noExcerpts: true,
    });
    expect(big.included.filter((entry) => entry.kind === 'excerpt')).toEqual([]);
    expect(big.dropped).toContainEqual(
      expect.objectContaining({
        id: 'file:toolz/itertoolz.py',
        reason: expect.stringContaining('needed whole, no room'),
      }),
    );
    const roomy = await buildContext(map, goal, {
      budgetTokens: 6000,
      read: reader(repo.dir),
      wholeFiles: ['toolz/itertoolz.py'],
      noExcerpts: true,
    });
    expect(roomy.included[0]).toMatchObject({ id: 'file:toolz/itertoolz.py', kind: 'file' });
    expect(roomy.included.filter((entry) => entry.kind === 'excerpt')).toEqual([]);
  });

  it("gives the first file to edit whole when it fits the targets' share, so a hunk far from the matched lines is shown", async () => {
    repo = sampleRepo();
    const map = await buildRepoMap(repo.dir);
    // Two named files: before, each got half the share and the 3k-token itertoolz.py was excerpted.
    const built = await buildContext(
      map,
      { goal: 'partition_all', artifacts: ['toolz/itertoolz.py', 'aaa/filler1.py'] },
      { budgetTokens: 6000, read: reader(repo.dir) },
    );
    expect(built.included[0]).toMatchObject({ id: 'file:toolz/itertoolz.py', kind: 'file' });
    expect(built.items[0]?.text).toContain('def helper_0(seq):');
  });

  it("keeps seed 000's writer to its artifacts (and the files its feedback names): excerpts by relevance, no map, no other files", async () => {
    repo = sampleRepo();
    const map = await buildRepoMap(repo.dir);
    const built = await buildContext(
      map,
      { goal: 'Raise in partition_all when length is invalid', artifacts: ['toolz/itertoolz.py'] },
      { budgetTokens: 1500, read: reader(repo.dir), onlyFiles: ['toolz/itertoolz.py'] },
    );
    expect(built.included.map((entry) => entry.path)).toEqual(['toolz/itertoolz.py']);
    expect(built.items.map((item) => item.text).join('\n')).toContain('def partition_all(n, seq):');
  });
});

describe('buildRepoMap', () => {
  it('reuses facts by blob id from its disk cache, and parses only a changed file', async () => {
    repo = sampleRepo();
    const cacheFile = path.join(repo.dir, '.lathe', 'cache', 'repo-map.json');
    clearRepoMapMemory();
    const first = await buildRepoMap(repo.dir, { cacheFile });
    expect(first.parsed).toBe(first.files.length);
    clearRepoMapMemory();
    const warm = await buildRepoMap(repo.dir, { cacheFile });
    expect(warm.parsed).toBe(0);
    expect(warm.byPath.get('toolz/itertoolz.py')?.symbols.map((symbol) => symbol.name)).toContain('partition_all');
    repo.write('toolz/itertoolz.py', 'def renamed(seq):\n    return seq\n');
    const changed = await buildRepoMap(repo.dir, { cacheFile });
    expect(changed.parsed).toBe(1);
    expect(changed.byPath.get('toolz/itertoolz.py')?.symbols.map((symbol) => symbol.name)).toEqual(['renamed']);
    expect(changed.files.some((file) => file.path.startsWith('.lathe/'))).toBe(false);
  });

  it('counts words like `constructor` without touching Object.prototype', async () => {
    repo = makeTempRepo({ files: { 'a.js': 'class A { constructor() { this.toString = 1; } }\n' } });
    const map = await buildRepoMap(repo.dir);
    expect(map.byPath.get('a.js')?.terms.constructor).toBe(1);
  });
});
