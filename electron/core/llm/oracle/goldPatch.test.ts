import { describe, expect, it } from 'vitest';
import { gitPatch } from '../../../../test-support/gitPatch';
import { parseGoldPatch } from './goldPatch';

const body = Array.from({ length: 20 }, (_, index) => `line ${index}\n`).join('');

describe('gold patches', () => {
  it('splits a git patch into files, each with its own section of the text, kind and hunks', () => {
    const text = gitPatch(
      { 'a.txt': 'one\n', 'gone.txt': 'bye\n' },
      { 'a.txt': 'two\n', 'gone.txt': null, 'new/b.txt': 'hi\n' },
    );
    const parsed = parseGoldPatch(text);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.patch.files.map((file) => [file.path, file.kind, file.hunks.length])).toEqual([
      ['a.txt', 'modify', 1],
      ['gone.txt', 'delete', 1],
      ['new/b.txt', 'create', 1],
    ]);
    expect(parsed.patch.files.map((file) => file.text).join('')).toBe(text);
    expect(parsed.patch.files[2]?.hunks[0]).toMatchObject({ oldIndex: 0, before: [], after: ['hi\n'] });
  });

  it('refuses what no edit format can write, naming it: a binary change, a rename, no change at all', () => {
    const binary = gitPatch({ 'img.bin': 'a\0b' }, { 'img.bin': 'a\0c' });
    expect(parseGoldPatch(binary)).toEqual({ ok: false, message: expect.stringContaining('a binary change') });
    const renamed = gitPatch({ 'old.txt': body }, { 'old.txt': null, 'new.txt': body });
    expect(renamed).toContain('rename from old.txt');
    expect(parseGoldPatch(renamed)).toEqual({ ok: false, message: expect.stringContaining('renamed') });
    expect(parseGoldPatch('', 'gold patch x.patch')).toEqual({
      ok: false,
      message: 'gold patch x.patch changes no file',
    });
  });
});
