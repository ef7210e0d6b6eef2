import { describe, expect, it } from 'vitest';
import type { EditFormatName, EditPolicy, WorkspaceReader } from './types';
import { editFormats } from './formats';
import { defaultEditPolicy } from './policy';
import { createMemoryReader } from './reader';

/** Express-like `lib/response.js`: 30 methods of 4 lines, method k at lines 4k+1 to 4k+3. */
const RESPONSE = Array.from(
  { length: 30 },
  (_, index) => `res.m${index} = function m${index}(value) {\n  this.set('X-${index}', value);\n  return this;\n};\n`,
).join('');
const lines = (text: string) => text.replace(/\n$/, '').split('\n');
const text = (list: string[]) => `${list.join('\n')}\n`;

const plan = (
  format: EditFormatName,
  files: Record<string, string>,
  proposal: unknown,
  policy: EditPolicy = defaultEditPolicy(),
  reader: WorkspaceReader = createMemoryReader(files),
) => editFormats[format].plan(proposal, reader, policy);

/** The proposal of each format that turns `before` (null: a new file) into `after`. */
function answer(format: EditFormatName, file: string, before: string | null, after: string): unknown {
  if (format === 'whole-file') return { edits: [{ path: file, content: after }] };
  if (format === 'search-replace') return { edits: [{ path: file, search: before ?? '', replace: after }] };
  const old = before === null ? [] : lines(before);
  const next = lines(after);
  const header = before === null ? `--- /dev/null\n+++ b/${file}` : `--- a/${file}\n+++ b/${file}`;
  return {
    diff: `${header}\n@@ -${old.length ? 1 : 0},${old.length} +1,${next.length} @@\n${[...old.map((line) => `-${line}`), ...next.map((line) => `+${line}`)].join('\n')}\n`,
  };
}

const refused = (rule: string, filePath: string, message: string) => ({
  code: 'EDIT_REJECTED',
  message: `${filePath}: ${message} (${rule})`,
  data: expect.objectContaining({ rule, path: filePath }),
});

describe.each(['whole-file', 'search-replace', 'unified-diff'] as const)('%s', (format) => {
  it('refuses a placeholder in place of code, naming its line in the new file', async () => {
    const after = text([...lines(RESPONSE).slice(0, 8), '// ... existing code ...', ...lines(RESPONSE).slice(21)]);
    await expect(
      plan(format, { 'lib/response.js': RESPONSE }, answer(format, 'lib/response.js', RESPONSE, after)),
    ).rejects.toMatchObject(
      refused(
        'elided-code',
        'lib/response.js',
        'line 9 of your answer is a placeholder ("// ... existing code ..."), not code: write out every line you keep, exactly as it is',
      ),
    );
  });

  it('refuses a new file that is an existing one elsewhere, and lets a new module through', async () => {
    const files = { 'lib/response.js': RESPONSE, 'lib/index.js': "module.exports = require('./response');\n" };
    await expect(
      plan(format, files, answer(format, 'response.js', null, RESPONSE.replace("'X-3'", "'X-Three'"))),
    ).rejects.toMatchObject(
      refused(
        'duplicate-file',
        'response.js',
        'a file named response.js already exists; did you mean lib/response.js? Change the existing file at its own path instead of creating a new one',
      ),
    );
    const fresh = 'module.exports = function etag(body) {\n  const size = body.length;\n  return `W/"${size}"`;\n};\n';
    await expect(plan(format, files, answer(format, 'lib/etag.js', null, fresh))).resolves.toMatchObject({
      changes: [{ path: 'lib/etag.js', before: null }],
    });
  });
});

describe('drops-code (whole-file)', () => {
  const dropped = text([...lines(RESPONSE).slice(0, 40), ...lines(RESPONSE).slice(64)]);

  it('refuses a whole file that leaves out a large part, naming the lines of the original', async () => {
    await expect(
      plan('whole-file', { 'lib/response.js': RESPONSE }, answer('whole-file', 'lib/response.js', RESPONSE, dropped)),
    ).rejects.toMatchObject(
      refused(
        'drops-code',
        'lib/response.js',
        'your answer leaves out lines 41-64 of the file and puts nothing in their place; a whole-file answer must repeat every line it keeps: write the complete file, changing only what the task needs',
      ),
    );
  });

  it('lets it through when the task asks for a removal, and never refuses deletions a diff or search block names', async () => {
    const files = { 'lib/response.js': RESPONSE };
    await expect(
      plan(
        'whole-file',
        files,
        answer('whole-file', 'lib/response.js', RESPONSE, dropped),
        defaultEditPolicy({ allowLargeDeletions: true }),
      ),
    ).resolves.toMatchObject({ changes: [{ after: dropped }] });
    for (const format of ['search-replace', 'unified-diff'] as const) {
      await expect(plan(format, files, answer(format, 'lib/response.js', RESPONSE, dropped))).resolves.toMatchObject({
        changes: [{ after: dropped }],
      });
    }
  });
});
