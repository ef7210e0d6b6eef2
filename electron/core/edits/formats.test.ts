import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../test-support/tempRepo';
import type { EditFormatName, EditPolicy } from './types';
import { editFormats, getEditFormat } from './formats';
import { defaultEditPolicy } from './policy';
import { createWorkspaceReader } from './reader';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function workspace(files: Record<string, string>): string {
  const dir = makeTempDir('lathe-edits-');
  dirs.push(dir);
  for (const [relative, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    fs.writeFileSync(path.join(dir, relative), content);
  }
  return dir;
}

/** One proposal per format that writes `content` to `file` (creating it when `exists` is false). */
function proposalFor(format: EditFormatName, file: string, content: string, before: string | null): unknown {
  if (format === 'whole-file') return { edits: [{ path: file, content }] };
  if (format === 'search-replace')
    return { edits: [{ path: file, search: before ?? '', replace: before === null ? content : content }] };
  const oldName = before === null ? '/dev/null' : `a/${file}`;
  const oldLines = before === null ? [] : before.replace(/\n$/, '').split('\n');
  const newLines = content.replace(/\n$/, '').split('\n');
  return {
    diff: [
      `--- ${oldName}`,
      `+++ b/${file}`,
      `@@ -${oldLines.length ? 1 : 0},${oldLines.length} +1,${newLines.length} @@`,
      ...oldLines.map((l) => `-${l}`),
      ...newLines.map((l) => `+${l}`),
      '',
    ].join('\n'),
  };
}

const plan = (format: EditFormatName, dir: string, proposal: unknown, policy: EditPolicy = defaultEditPolicy()) =>
  editFormats[format].plan(proposal, createWorkspaceReader(dir), policy);

const rejection = (rule: string, filePath?: string) => ({
  code: 'EDIT_REJECTED',
  data: expect.objectContaining({ rule, ...(filePath ? { path: filePath } : {}) }),
});

describe.each(['whole-file', 'unified-diff', 'search-replace'] as const)('%s guardrails', (format) => {
  it('plans a change to an existing file without writing it', async () => {
    const dir = workspace({ 'src/a.py': 'x = 1\n' });
    const planned = await plan(format, dir, proposalFor(format, 'src/a.py', 'x = 2\n', 'x = 1\n'));
    expect(planned).toEqual({ format, changes: [{ path: 'src/a.py', before: 'x = 1\n', after: 'x = 2\n' }] });
    expect(fs.readFileSync(path.join(dir, 'src/a.py'), 'utf8')).toBe('x = 1\n');
  });

  // docs/seeds.md 0.28: writes only under the workspace
  it('rejects a ../ escape', async () => {
    const dir = workspace({});
    await expect(plan(format, dir, proposalFor(format, '../outside.txt', 'x\n', null))).rejects.toMatchObject(
      rejection('escapes-repo'),
    );
    await expect(plan(format, dir, proposalFor(format, 'src/../../outside.txt', 'x\n', null))).rejects.toMatchObject(
      rejection('escapes-repo'),
    );
  });

  it('rejects an absolute path', async () => {
    const dir = workspace({});
    await expect(plan(format, dir, proposalFor(format, '/etc/passwd', 'x\n', null))).rejects.toMatchObject(
      rejection('absolute-path', '/etc/passwd'),
    );
  });

  it('rejects a path through a symlink that points outside the repo', async () => {
    const outside = workspace({ 'secret.txt': 'keep\n' });
    const dir = workspace({});
    fs.symlinkSync(outside, path.join(dir, 'link'));
    await expect(plan(format, dir, proposalFor(format, 'link/secret.txt', 'owned\n', 'keep\n'))).rejects.toMatchObject(
      rejection('symlink-escape', 'link/secret.txt'),
    );
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('keep\n');
  });

  it('rejects writes into .git/ and .lathe/', async () => {
    const dir = workspace({ '.git/config': '[core]\n' });
    await expect(plan(format, dir, proposalFor(format, '.git/hooks/pre-commit', 'boom\n', null))).rejects.toMatchObject(
      rejection('git-dir'),
    );
    await expect(plan(format, dir, proposalFor(format, 'sub/.GIT/config', 'boom\n', null))).rejects.toMatchObject(
      rejection('git-dir'),
    );
    await expect(
      plan(format, dir, proposalFor(format, '.lathe/runs/x/state.json', '{}\n', null)),
    ).rejects.toMatchObject(rejection('lathe-dir'));
  });

  // docs/seeds.md 0.23: only the task's artifacts, never tests
  it('rejects a test file when tests are read-only, and a non-artifact', async () => {
    const dir = workspace({ 'tests/test_stats.py': 'def test(): pass\n', 'src/other.py': 'y = 1\n' });
    const policy = defaultEditPolicy({ testsReadOnly: true, artifacts: ['src/stats.py'] });
    await expect(
      plan(
        format,
        dir,
        proposalFor(format, 'tests/test_stats.py', 'def test(): assert 0\n', 'def test(): pass\n'),
        policy,
      ),
    ).rejects.toMatchObject(rejection('not-an-artifact', 'tests/test_stats.py'));
    await expect(
      plan(
        format,
        dir,
        proposalFor(format, 'tests/test_stats.py', 'x\n', 'def test(): pass\n'),
        defaultEditPolicy({ testsReadOnly: true }),
      ),
    ).rejects.toMatchObject(rejection('tests-read-only', 'tests/test_stats.py'));
    await expect(
      plan(format, dir, proposalFor(format, 'src/other.py', 'y = 2\n', 'y = 1\n'), policy),
    ).rejects.toMatchObject(rejection('not-an-artifact', 'src/other.py'));
    await expect(
      plan(format, dir, proposalFor(format, 'src/stats.py', 'z = 1\n', null), policy),
    ).resolves.toMatchObject({ changes: [{ path: 'src/stats.py', before: null }] });
  });

  it('rejects a protected (user-dirty) path', async () => {
    const dir = workspace({ 'notes.md': 'mine\n' });
    await expect(
      plan(
        format,
        dir,
        proposalFor(format, 'notes.md', 'theirs\n', 'mine\n'),
        defaultEditPolicy({ protectedPaths: ['notes.md'] }),
      ),
    ).rejects.toMatchObject(rejection('protected-path', 'notes.md'));
  });

  it('rejects 10 MB of content and binary content', async () => {
    const dir = workspace({});
    const huge = 'a'.repeat(10 * 1024 * 1024);
    await expect(plan(format, dir, proposalFor(format, 'big.txt', huge, null))).rejects.toMatchObject(
      rejection('too-large', 'big.txt'),
    );
    await expect(plan(format, dir, proposalFor(format, 'blob.bin', 'ab\u0000cd\n', null))).rejects.toMatchObject(
      rejection('binary-content', 'blob.bin'),
    );
  });
});

// docs/seeds.md 0.14: the Coder's edits applied, in each format
describe('whole-file', () => {
  // docs/seeds.md 0.5, 0.22: whole-file edits sorted by path
  it('sorts edits by path, skips unchanged files and refuses a duplicate path', async () => {
    const dir = workspace({ 'b.txt': 'same\n' });
    const planned = await plan('whole-file', dir, {
      edits: [
        { path: 'z.txt', content: 'z\n' },
        { path: './b.txt', content: 'same\n' },
        { path: 'a/c.txt', content: 'c\n' },
      ],
    });
    expect(planned.changes.map((change) => change.path)).toEqual(['a/c.txt', 'z.txt']);
    await expect(
      plan('whole-file', dir, {
        edits: [
          { path: 'x', content: '1' },
          { path: './x', content: '2' },
        ],
      }),
    ).rejects.toMatchObject(rejection('duplicate-path', 'x'));
  });

  it('turns malformed model output into INVALID_PROPOSAL', async () => {
    const dir = workspace({});
    await expect(plan('whole-file', dir, { edits: 'nope' })).rejects.toMatchObject({ code: 'INVALID_PROPOSAL' });
    await expect(plan('whole-file', dir, null)).rejects.toMatchObject({ code: 'INVALID_PROPOSAL' });
  });
});

// docs/seeds.md 1.4: the DevAgent's unified diffs
describe('unified-diff', () => {
  it('applies a multi-file diff with create and delete via /dev/null', async () => {
    const dir = workspace({ 'x.txt': 'a\nb\nc\n', 'gone.txt': 'bye\n' });
    const diff = [
      'diff --git a/x.txt b/x.txt',
      '--- a/x.txt',
      '+++ b/x.txt',
      '@@ -1,3 +1,3 @@',
      ' a',
      '-b',
      '+B',
      ' c',
      '--- /dev/null',
      '+++ b/new/n.txt',
      '@@ -0,0 +1,2 @@',
      '+hello',
      '+world',
      '--- a/gone.txt',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-bye',
    ].join('\n');
    const planned = await plan('unified-diff', dir, { diff });
    expect(planned.changes).toEqual([
      { path: 'gone.txt', before: 'bye\n', after: null },
      { path: 'new/n.txt', before: null, after: 'hello\nworld\n' },
      { path: 'x.txt', before: 'a\nb\nc\n', after: 'a\nB\nc\n' },
    ]);
  });

  it('repairs wrong hunk counts, missing line numbers, fences and indentation drift', async () => {
    const dir = workspace({ 'm.py': 'def f():\n    return 1\n\n\ndef g():\n    return 2\n' });
    const diff = '```diff\n--- a/m.py\n+++ b/m.py\n@@ @@\n def g():\n-  return 2\n+    return 3\n```';
    const planned = await plan('unified-diff', dir, { diff });
    expect(planned.changes[0]?.after).toBe('def f():\n    return 1\n\n\ndef g():\n    return 3\n');
  });

  it('re-indents the added lines of a hunk indented as a whole more or less than the file, tabs included', async () => {
    const source = 'class A {\n  run() {\n    return 1;\n  }\n}\n';
    const dir = workspace({ 'a.ts': source, 't.go': 'func f() {\n\tif x {\n\t\treturn 1\n\t}\n}\n' });
    // The whole snippet four spaces deeper than the file, as a model copies it out of a nested block.
    const deeper =
      '--- a/a.ts\n+++ b/a.ts\n@@ -2,3 +2,4 @@\n       run() {\n-        return 1;\n+        const one = 1;\n+        return one;\n       }\n';
    expect((await plan('unified-diff', dir, { diff: deeper })).changes[0]?.after).toBe(
      'class A {\n  run() {\n    const one = 1;\n    return one;\n  }\n}\n',
    );
    // Copied at half the file's indentation (4 spaces read as 2): the added lines go back to the file's levels.
    const four = 'def f(x):\n    if x:\n        return 1\n    return 0\n';
    const halved =
      '--- a/four.py\n+++ b/four.py\n@@ -1,4 +1,5 @@\n def f(x):\n   if x:\n-    return 1\n+    y = x + 1\n+    return y\n   return 0\n';
    const fourDir = workspace({ 'four.py': four });
    expect((await plan('unified-diff', fourDir, { diff: halved })).changes[0]?.after).toBe(
      'def f(x):\n    if x:\n        y = x + 1\n        return y\n    return 0\n',
    );
    // Flush left against a tab-indented file: the added line takes the file's tabs at its level.
    const flush = '--- a/t.go\n+++ b/t.go\n@@ -2,3 +2,3 @@\n if x {\n-\treturn 1\n+\treturn 2\n }\n';
    expect((await plan('unified-diff', dir, { diff: flush })).changes[0]?.after).toBe(
      'func f() {\n\tif x {\n\t\treturn 2\n\t}\n}\n',
    );
  });

  it("applies a multi-file diff in jsdiff's layout (Index: and ==== separators between files)", async () => {
    const dir = workspace({ 'a.txt': 'one\ntwo\n', 'b.txt': 'three\n' });
    const diff = [
      'Index: a.txt',
      '===================================================================',
      '--- a/a.txt',
      '+++ b/a.txt',
      '@@ -1,2 +1,2 @@',
      ' one',
      '-two',
      '+TWO',
      '===================================================================',
      '--- a/b.txt',
      '+++ b/b.txt',
      '@@ -1,1 +1,1 @@',
      '-three',
      '+THREE',
    ].join('\n');
    const planned = await plan('unified-diff', dir, { diff });
    expect(planned.changes.map((change) => [change.path, change.after])).toEqual([
      ['a.txt', 'one\nTWO\n'],
      ['b.txt', 'THREE\n'],
    ]);
  });

  it('skips a file section with no hunks (an unchanged file in a generated diff)', async () => {
    const dir = workspace({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
    const diff =
      '===================================================================\n--- a/a.txt\n+++ b/a.txt\n===================================================================\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-two\n+TWO\n';
    const planned = await plan('unified-diff', dir, { diff });
    expect(planned.changes).toEqual([{ path: 'b.txt', before: 'two\n', after: 'TWO\n' }]);
  });

  it('rejects a hunk that points past the end of the file (found by the fault-injection soak)', async () => {
    const dir = workspace({ 'src/stats.js': 'one\n' });
    const diff =
      '--- a/src/stats.js\n+++ b/src/stats.js\n@@ -40,3 +40,3 @@\n-this line is not there\n+nor is this\n context\n';
    await expect(plan('unified-diff', dir, { diff })).rejects.toMatchObject(
      rejection('patch-does-not-apply', 'src/stats.js'),
    );
  });

  // docs/seeds.md 1.11: the whole diff is checked first; a part that does not apply writes nothing
  it('rejects a partial diff whose second file does not apply, planning nothing', async () => {
    const dir = workspace({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
    const diff =
      '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+ONE\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-three\n+THREE\n';
    await expect(plan('unified-diff', dir, { diff })).rejects.toMatchObject(rejection('patch-does-not-apply', 'b.txt'));
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it('refuses to create a file that exists, to change a missing one, and binary patches', async () => {
    const dir = workspace({ 'a.txt': 'one\n' });
    await expect(
      plan('unified-diff', dir, { diff: '--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+x\n' }),
    ).rejects.toMatchObject(rejection('patch-does-not-apply', 'a.txt'));
    await expect(
      plan('unified-diff', dir, { diff: '--- a/zz.txt\n+++ b/zz.txt\n@@ -1 +1 @@\n-a\n+b\n' }),
    ).rejects.toMatchObject(rejection('patch-does-not-apply', 'zz.txt'));
    await expect(
      plan('unified-diff', dir, { diff: 'diff --git a/i.png b/i.png\nGIT binary patch\nliteral 1\n' }),
    ).rejects.toMatchObject(rejection('binary-content'));
    await expect(plan('unified-diff', dir, { diff: 'just some prose' })).rejects.toMatchObject(
      rejection('patch-does-not-apply'),
    );
  });
});

describe('search-replace', () => {
  it('applies exact blocks in order and creates files from an empty search', async () => {
    const dir = workspace({ 'calc.py': 'def add(a, b):\n    return a - b\n\ndef sub(a, b):\n    return a - b\n' });
    const planned = await plan('search-replace', dir, {
      edits: [
        {
          path: 'calc.py',
          search: 'def add(a, b):\n    return a - b\n',
          replace: 'def add(a, b):\n    return a + b\n',
        },
        { path: 'calc.py', search: 'def add(a, b):', replace: 'def add(a: int, b: int):' },
        { path: 'README.md', search: '', replace: '# calc\n' },
      ],
    });
    expect(planned.changes).toEqual([
      { path: 'README.md', before: null, after: '# calc\n' },
      {
        path: 'calc.py',
        before: expect.any(String),
        after: 'def add(a: int, b: int):\n    return a + b\n\ndef sub(a, b):\n    return a - b\n',
      },
    ]);
  });

  it('falls back to whitespace-tolerant matching and re-indents the replacement', async () => {
    const dir = workspace({ 'k.py': 'class K:\n    def f(self):\n        return 1\n' });
    const planned = await plan('search-replace', dir, {
      edits: [{ path: 'k.py', search: 'def f(self):\n    return 1', replace: 'def f(self):\n    return 2' }],
    });
    expect(planned.changes[0]?.after).toBe('class K:\n    def f(self):\n        return 2\n');
  });

  it("puts a block copied at half the file's indentation back at the file's levels, not one shift for all", async () => {
    const dir = workspace({
      'k.py': 'class K:\n    def f(self, x):\n        if x:\n            return 1\n        return 0\n',
    });
    const search = '  def f(self, x):\n    if x:\n      return 1\n';
    const replace = '  def f(self, x):\n    if x:\n      y = x + 1\n      return y\n';
    const planned = await plan('search-replace', dir, { edits: [{ path: 'k.py', search, replace }] });
    expect(planned.changes[0]?.after).toBe(
      'class K:\n    def f(self, x):\n        if x:\n            y = x + 1\n            return y\n        return 0\n',
    );
  });

  it('reads a one-line search block at twice the width by what its replacement nests, not as one shift', async () => {
    // ufo-62199a0: a 2-space TypeScript file, the block copied at 4; one shift would put the if's body 3 levels in.
    const dir = workspace({ 'u.ts': 'function f(input) {\n  const match = input.match(A);\n  return match;\n}\n' });
    const search = '    const match = input.match(A);\n';
    const replace = '    let match = input.match(A);\n    if (!match) {\n        match = input.match(B);\n    }\n';
    const planned = await plan('search-replace', dir, { edits: [{ path: 'u.ts', search, replace }] });
    expect(planned.changes[0]?.after).toBe(
      'function f(input) {\n  let match = input.match(A);\n  if (!match) {\n    match = input.match(B);\n  }\n  return match;\n}\n',
    );
  });

  it("re-indents in the file's style: a tab-indented block written into a spaces-only Python file gets spaces", async () => {
    const dir = workspace({
      'stack.py':
        'class Stack:\n    def push(self, item):\n        if item is None:\n            raise ValueError("no item")\n        self.items.append(item)\n',
    });
    const search = '\tdef push(self, item):\n\t\tif item is None:\n\t\t\traise ValueError("no item")\n';
    const replace = '\tdef push(self, item):\n\t\tif item is None:\n\t\t\treturn\n\t\tself.count += 1\n';
    const planned = await plan('search-replace', dir, { edits: [{ path: 'stack.py', search, replace }] });
    expect(planned.changes[0]?.after).toBe(
      'class Stack:\n    def push(self, item):\n        if item is None:\n            return\n        self.count += 1\n        self.items.append(item)\n',
    );
  });

  it('keeps CRLF line endings', async () => {
    const dir = workspace({ 'w.txt': 'one\r\ntwo\r\n' });
    const planned = await plan('search-replace', dir, {
      edits: [{ path: 'w.txt', search: 'two\n', replace: 'TWO\n' }],
    });
    expect(planned.changes[0]?.after).toBe('one\r\nTWO\r\n');
  });

  it('changes only the block in a file that mixes line endings, exact or whitespace-tolerant (found by the oracle model)', async () => {
    const dir = workspace({ 'mix.txt': 'head\r\none\ntwo\n  three\nfour\r\n' });
    const exact = await plan('search-replace', dir, {
      edits: [{ path: 'mix.txt', search: 'one\ntwo\n', replace: 'ONE\ntwo\n' }],
    });
    expect(exact.changes[0]?.after).toBe('head\r\nONE\ntwo\n  three\nfour\r\n');
    const loose = await plan('search-replace', dir, {
      edits: [{ path: 'mix.txt', search: 'one \ntwo', replace: 'one\nTWO' }],
    });
    expect(loose.changes[0]?.after).toBe('head\r\none\nTWO\n  three\nfour\r\n');
  });

  it('rejects a missing block, an ambiguous block and an empty search on an existing file', async () => {
    const dir = workspace({ 'r.txt': 'x\ny\nx\n' });
    await expect(
      plan('search-replace', dir, { edits: [{ path: 'r.txt', search: 'nope', replace: '' }] }),
    ).rejects.toMatchObject(rejection('search-not-found', 'r.txt'));
    await expect(
      plan('search-replace', dir, { edits: [{ path: 'r.txt', search: 'x\n', replace: 'z\n' }] }),
    ).rejects.toMatchObject({
      data: expect.objectContaining({ rule: 'search-not-found', matches: 2 }),
    });
    await expect(
      plan('search-replace', dir, { edits: [{ path: 'r.txt', search: '', replace: 'new' }] }),
    ).rejects.toMatchObject(rejection('search-not-found', 'r.txt'));
  });
});

describe('getEditFormat', () => {
  it('returns each named strategy with its prompt fragment, and refuses unknown names', () => {
    for (const name of ['whole-file', 'unified-diff', 'search-replace'] as const) {
      const format = getEditFormat(name);
      expect(format.name).toBe(name);
      // The writer's prompt names the format's fragment by the format's name (agents/registry.ts).
      expect(fs.existsSync(path.resolve(__dirname, '../../../prompts/edit-formats', `${format.name}.md`))).toBe(true);
    }
    expect(() => getEditFormat('ed-script')).toThrow(expect.objectContaining({ code: 'UNKNOWN_EDIT_FORMAT' }));
  });
});
