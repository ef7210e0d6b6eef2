import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../test-support/tempRepo';
import { sourceAppRoot } from '../appRoot';
import { findDefaultCorpus } from '../eval/corpus/index';
import { findElidedLine } from './elision';
import { editFormats } from './formats';
import { defaultEditPolicy } from './policy';
import { createWorkspaceReader } from './reader';

// The checks on real code: sqlparse (Python, spaces) and express (JavaScript), cloned from the corpus bundles.
const corpusDir = findDefaultCorpus(sourceAppRoot());
const scratch = makeTempDir('lathe-edits-corpus-');
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

function checkout(repo: string): string | null {
  if (!corpusDir) return null;
  const dir = path.join(scratch, repo);
  if (!fs.existsSync(dir)) execFileSync('git', ['clone', '-q', path.join(corpusDir, `${repo}.bundle`), dir]);
  return dir;
}
const plan = (dir: string, format: 'whole-file' | 'search-replace' | 'unified-diff', proposal: unknown) =>
  editFormats[format].plan(proposal, createWorkspaceReader(dir), defaultEditPolicy());
const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), 'utf8');
/** The 0-based line range of a method: its `def` line to the line before the next `def`. */
function methodAt(source: string[], signature: string): [number, number] {
  const start = source.indexOf(signature);
  const next = source.findIndex((line, index) => index > start && line.startsWith('    def '));
  if (start < 0 || next < 0) throw new Error(`no method ${signature}`);
  return [start, next];
}

describe('edit checks on real corpus code', () => {
  it('no line of sqlparse or express, written anew, is taken for a placeholder', (context) => {
    if (!corpusDir) return context.skip('no corpus here: set LATHE_CORPUS or place it at ../shared/corpus');
    let files = 0;
    for (const repo of ['sqlparse', 'express']) {
      const dir = checkout(repo) as string;
      for (const file of execFileSync('git', ['-C', dir, 'ls-files', '*.py', '*.js', '*.md', '*.rst'], {
        encoding: 'utf8',
      })
        .split('\n')
        .filter(Boolean)) {
        expect(findElidedLine('', read(dir, file)), `${repo}/${file}`).toBeNull();
        files++;
      }
    }
    expect(files).toBeGreaterThan(100);
  });

  it('sqlparse/sql.py: a placeholder, a dropped method, a wrong path, a stray copy, a misremembered line, a tab block', async (context) => {
    const dir = checkout('sqlparse');
    if (!dir) return context.skip('no corpus here');
    const original = read(dir, 'sqlparse/sql.py');
    const source = original.replace(/\n$/, '').split('\n');
    const [start, end] = methodAt(source, '    def match(self, ttype, values, regex=False):');
    const join = (lines: string[]) => `${lines.join('\n')}\n`;

    const elided = join([...source.slice(0, start + 1), '        # ... existing code ...', ...source.slice(end)]);
    await expect(
      plan(dir, 'whole-file', { edits: [{ path: 'sqlparse/sql.py', content: elided }] }),
    ).rejects.toMatchObject({ data: { rule: 'elided-code', line: start + 2 } });

    const dropped = join([...source.slice(0, start), ...source.slice(end)]);
    await expect(
      plan(dir, 'whole-file', { edits: [{ path: 'sqlparse/sql.py', content: dropped }] }),
    ).rejects.toMatchObject({
      data: { rule: 'drops-code', runs: [{ first: start + 1, last: end }] },
    });

    const edit = { search: source[start + 1] as string, replace: `${source[start + 1] as string}  # checked` };
    await expect(plan(dir, 'search-replace', { edits: [{ path: 'sql.py', ...edit }] })).rejects.toThrow(
      'edit 1: sql.py does not exist; did you mean sqlparse/sql.py?',
    );
    await expect(plan(dir, 'search-replace', { edits: [{ path: 'sqlparse/sqls.py', ...edit }] })).rejects.toThrow(
      'did you mean sqlparse/sql.py?',
    );
    await expect(
      plan(dir, 'whole-file', {
        edits: [{ path: 'sqlparse/sqls.py', content: original.replace('regex=False', 'regex=True') }],
      }),
    ).rejects.toMatchObject({
      data: { rule: 'duplicate-file', suggestions: ['sqlparse/sql.py'] },
    });

    const misremembered = [...source.slice(start, start + 4)];
    misremembered[2] = `${misremembered[2] as string} and True`;
    await expect(
      plan(dir, 'search-replace', { edits: [{ path: 'sqlparse/sql.py', search: join(misremembered), replace: '' }] }),
    ).rejects.toThrow(
      `the closest region is lines ${start + 1}-${start + 4} (3 of 4 lines match); these lines differ:\nline ${start + 3} is`,
    );

    const tabbed = (lines: string[]) =>
      join(lines.map((line) => line.replace(/^( {4})+/, (indent) => '\t'.repeat(indent.length / 4))));
    const block = source.slice(start, start + 4);
    const planned = await plan(dir, 'search-replace', {
      edits: [
        { path: 'sqlparse/sql.py', search: tabbed(block), replace: tabbed([...block, '        self._checked = True']) },
      ],
    });
    const after = planned.changes[0]?.after ?? '';
    expect(after).not.toContain('\t');
    expect(after).toContain(`${block.join('\n')}\n        self._checked = True\n`);
  });

  it("express: a whole lib/response.js written at the repository's root is refused for the real one", async (context) => {
    const dir = checkout('express');
    if (!dir) return context.skip('no corpus here');
    const fixed = read(dir, 'lib/response.js').replace("'use strict';", "'use strict';\n// fixed");
    await expect(plan(dir, 'whole-file', { edits: [{ path: 'response.js', content: fixed }] })).rejects.toThrow(
      'response.js: a file named response.js already exists; did you mean lib/response.js? Change the existing file at its own path instead of creating a new one (duplicate-file)',
    );
  });
});
