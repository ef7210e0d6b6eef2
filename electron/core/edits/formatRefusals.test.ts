import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../test-support/tempRepo';
import type { EditFormatName, WorkspaceReader } from './types';
import { editFormats } from './formats';
import { defaultEditPolicy } from './policy';
import { createMemoryReader, createWorkspaceReader } from './reader';

/** Express-like `lib/response.js`: 30 methods of 4 lines, method k at lines 4k+1 to 4k+3. */
const RESPONSE = Array.from(
  { length: 30 },
  (_, index) => `res.m${index} = function m${index}(value) {\n  this.set('X-${index}', value);\n  return this;\n};\n`,
).join('');

const plan = (
  format: EditFormatName,
  files: Record<string, string>,
  proposal: unknown,
  reader: WorkspaceReader = createMemoryReader(files),
) => editFormats[format].plan(proposal, reader, defaultEditPolicy());

const refused = (rule: string, filePath: string, message: string) => ({
  code: 'EDIT_REJECTED',
  message: `${filePath}: ${message} (${rule})`,
  data: expect.objectContaining({ rule, path: filePath }),
});

// The engine refuses an answer that changes nothing; every format says so the same way: no changes.
describe('a proposal that changes nothing', () => {
  const files = { 'lib/response.js': RESPONSE };
  const noOps: Record<EditFormatName, unknown> = {
    'whole-file': { edits: [{ path: 'lib/response.js', content: RESPONSE }] },
    // Found only loosely (the trailing spaces), where a re-indented copy would have changed the line.
    'search-replace': {
      edits: [
        { path: 'lib/response.js', search: "  this.set('X-2', value);  \n", replace: "  this.set('X-2', value);  \n" },
      ],
    },
    'unified-diff': {
      diff: "--- a/lib/response.js\n+++ b/lib/response.js\n@@ -9,3 +9,3 @@\n res.m2 = function m2(value) {\n  this.set('X-2', value);\n   return this;\n",
    },
  };

  it.each(['whole-file', 'search-replace', 'unified-diff'] as const)('%s: plans no changes', async (format) => {
    await expect(plan(format, files, noOps[format])).resolves.toEqual({ format, changes: [] });
  });
});

// An answer that changes something but holds an edit that changes nothing: its writer meant a change it did not make.
describe('an edit that changes nothing beside one that changes something (issue 26)', () => {
  const files = { 'lib/response.js': RESPONSE };
  const real = {
    path: 'lib/response.js',
    search: "  this.set('X-1', value);\n",
    replace: "  this.set('X-1', value || '');\n",
  };

  it('search-replace names the edit whose replace is its search', async () => {
    const same = {
      path: 'lib/response.js',
      search: "  this.set('X-2', value);\n",
      replace: "  this.set('X-2', value);\n",
    };
    const planned = await plan('search-replace', files, { edits: [real, same] });
    expect(planned.changes).toHaveLength(1);
    expect(planned.unchanged).toEqual(['edit 2 (lib/response.js): its replace is the same as its search']);
  });

  it('unified-diff names a hunk of context lines only, and one that removes and adds back the same lines', async () => {
    const diff = [
      '--- a/lib/response.js',
      '+++ b/lib/response.js',
      '@@ -5,3 +5,3 @@',
      ' res.m1 = function m1(value) {',
      "-  this.set('X-1', value);",
      "+  this.set('X-1', value || '');",
      '   return this;',
      '@@ -9,3 +9,3 @@',
      ' res.m2 = function m2(value) {',
      "   this.set('X-2', value);",
      '   return this;',
      '@@ -13,3 +13,3 @@',
      ' res.m3 = function m3(value) {',
      "-  this.set('X-3', value);",
      "+  this.set('X-3', value);",
      '   return this;',
      '',
    ].join('\n');
    const planned = await plan('unified-diff', files, { diff });
    expect(planned.changes).toHaveLength(1);
    expect(planned.unchanged).toEqual([
      'hunk 2 of 3 (lib/response.js): it has only context lines, none added or removed',
      'hunk 3 of 3 (lib/response.js): the lines it removes are the lines it adds',
    ]);
  });

  it('leaves `unchanged` out of a change whose every edit changes something, and of one that changes nothing at all', async () => {
    expect(await plan('search-replace', files, { edits: [real] })).not.toHaveProperty('unchanged');
    const same = {
      path: 'lib/response.js',
      search: "  this.set('X-2', value);\n",
      replace: "  this.set('X-2', value);\n",
    };
    expect(await plan('search-replace', files, { edits: [same] })).toEqual({ format: 'search-replace', changes: [] });
  });
});

describe('a wrong path', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
  const files = { 'lib/response.js': RESPONSE, 'sqlparse/sql.py': 'class Token:\n    pass\n' };

  it('search-replace names the nearest existing paths, and suggests creating only when nothing is near', async () => {
    const edit = (file: string) => ({
      edits: [{ path: file, search: 'res.m2 = function m2(value) {', replace: 'res.m2 = function m2(v) {' }],
    });
    await expect(plan('search-replace', files, edit('response.js'))).rejects.toMatchObject(
      refused('search-not-found', 'response.js', 'edit 1: response.js does not exist; did you mean lib/response.js?'),
    );
    await expect(plan('search-replace', files, edit('sqlparse/sqls.py'))).rejects.toMatchObject(
      refused(
        'search-not-found',
        'sqlparse/sqls.py',
        'edit 1: sqlparse/sqls.py does not exist; did you mean sqlparse/sql.py?',
      ),
    );
    await expect(plan('search-replace', files, edit('src/brand_new.ts'))).rejects.toMatchObject(
      refused(
        'search-not-found',
        'src/brand_new.ts',
        'edit 1: src/brand_new.ts does not exist, and no file has a similar name; to create it, use an empty search',
      ),
    );
  });

  it('unified-diff does the same for a file the diff changes', async () => {
    const diff = (file: string) => ({
      diff: `--- a/${file}\n+++ b/${file}\n@@ -1 +1 @@\n-class Token:\n+class Token(object):\n`,
    });
    await expect(plan('unified-diff', files, diff('sql.py'))).rejects.toMatchObject(
      refused('patch-does-not-apply', 'sql.py', 'sql.py does not exist; did you mean sqlparse/sql.py?'),
    );
    await expect(plan('unified-diff', files, diff('other/thing.py'))).rejects.toMatchObject(
      refused(
        'patch-does-not-apply',
        'other/thing.py',
        'other/thing.py does not exist, and no file has a similar name; to create it, write its section from --- /dev/null',
      ),
    );
  });

  it('takes the files to offer from the workspace reader on disk', async () => {
    const dir = makeTempDir('lathe-edits-wrong-path-');
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, 'lib'));
    fs.writeFileSync(path.join(dir, 'lib/response.js'), RESPONSE);
    await expect(
      plan(
        'search-replace',
        {},
        { edits: [{ path: 'response.js', search: 'x', replace: 'y' }] },
        createWorkspaceReader(dir),
      ),
    ).rejects.toMatchObject({
      data: expect.objectContaining({ suggestions: ['lib/response.js'] }),
    });
  });
});

describe('a block that matches nowhere', () => {
  const files = { 'lib/response.js': RESPONSE };

  it('search-replace shows the closest region and the lines that differ', async () => {
    const search = "res.m5 = function m5(value) {\n  this.setHeader('X-5', value);\n  return this;\n";
    await expect(
      plan('search-replace', files, { edits: [{ path: 'lib/response.js', search, replace: '' }] }),
    ).rejects.toMatchObject(
      refused(
        'search-not-found',
        'lib/response.js',
        [
          'edit 1: the search block was not found; the closest region is lines 21-23 (2 of 3 lines match); these lines differ:',
          `line 22 is "this.set('X-5', value);", your search has "this.setHeader('X-5', value);"`,
          'copy the lines from the file into your search exactly as they are',
        ].join('\n'),
      ),
    );
  });

  it('unified-diff does the same for the first hunk that does not apply', async () => {
    const diff = [
      '--- a/lib/response.js',
      '+++ b/lib/response.js',
      '@@ -1,3 +1,3 @@',
      ' res.m0 = function m0(value) {',
      "-  this.set('X-0', value);",
      "+  this.set('X-zero', value);",
      '@@ -41,3 +41,3 @@',
      ' res.m10 = function m10(value) {',
      "-  this.set('X-10', value)",
      "+  this.set('X-ten', value);",
      '   return self;',
    ].join('\n');
    await expect(plan('unified-diff', files, { diff })).rejects.toMatchObject(
      refused(
        'patch-does-not-apply',
        'lib/response.js',
        [
          'hunk 2 of 2 does not match the file, even ignoring indentation; the closest region is lines 41-43 (1 of 3 lines match); these lines differ:',
          `line 42 is "this.set('X-10', value);", your hunk has "this.set('X-10', value)"`,
          'line 43 is "return this;", your hunk has "return self;"',
          'copy the lines from the file into your hunk exactly as they are',
        ].join('\n'),
      ),
    );
  });
});
