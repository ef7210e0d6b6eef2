import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../test-support/tempRepo';
import { applyEditSet, applyEditSetWith, realFileOps, type FileOps } from './applyEditSet';
import { defaultEditPolicy } from './policy';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function workspace(files: Record<string, string>): string {
  const dir = makeTempDir('lathe-apply-');
  dirs.push(dir);
  for (const [relative, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    fs.writeFileSync(path.join(dir, relative), content);
  }
  return dir;
}

/** Every file under `dir` with its content, to prove a failed apply left nothing behind. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(dir, full);
    out[relative] = entry.isFile() ? fs.readFileSync(full, 'utf8') : entry.isDirectory() ? '<dir>' : '<other>';
  }
  return out;
}

describe('applyEditSet', () => {
  // docs/seeds.md 0.14: edits applied, folders created
  it('writes changes, creates folders and deletes files, keeping the file mode', async () => {
    const dir = workspace({ 'run.sh': '#!/bin/sh\necho 1\n', 'old.txt': 'bye\n' });
    fs.chmodSync(path.join(dir, 'run.sh'), 0o755);
    const result = await applyEditSet(
      dir,
      {
        format: 'whole-file',
        changes: [
          { path: 'new/deep/file.txt', before: null, after: 'hi\n' },
          { path: 'old.txt', before: 'bye\n', after: null },
          { path: 'run.sh', before: '#!/bin/sh\necho 1\n', after: '#!/bin/sh\necho 2\n' },
        ],
      },
      defaultEditPolicy(),
    );
    expect(result).toEqual({ changed: ['run.sh'], created: ['new/deep/file.txt'], deleted: ['old.txt'] });
    expect(snapshot(dir)).toEqual({
      new: '<dir>',
      'new/deep': '<dir>',
      'new/deep/file.txt': 'hi\n',
      'run.sh': '#!/bin/sh\necho 2\n',
    });
    expect(fs.statSync(path.join(dir, 'run.sh')).mode & 0o777).toBe(0o755);
  });

  // docs/seeds.md 0.23 (artifacts only), 0.28 (only under the workspace: escapes, .git/, symlinks out refused)
  it('re-checks guardrails: an escape, .git/, a symlink out and a non-artifact are refused with nothing written', async () => {
    const outside = workspace({ 'target.txt': 'safe\n' });
    const dir = workspace({ 'a.txt': 'a\n' });
    fs.symlinkSync(outside, path.join(dir, 'out'));
    const before = snapshot(dir);
    const attempt = (changePath: string, policy = defaultEditPolicy()) =>
      applyEditSet(
        dir,
        {
          format: 'whole-file',
          changes: [
            { path: 'a.txt', before: 'a\n', after: 'A\n' },
            { path: changePath, before: null, after: 'x\n' },
          ],
        },
        policy,
      );
    await expect(attempt('../escape.txt')).rejects.toMatchObject({
      code: 'EDIT_REJECTED',
      data: { rule: 'escapes-repo' },
    });
    await expect(attempt('.git/HEAD')).rejects.toMatchObject({ code: 'EDIT_REJECTED', data: { rule: 'git-dir' } });
    await expect(attempt('out/target2.txt')).rejects.toMatchObject({
      code: 'EDIT_REJECTED',
      data: { rule: 'symlink-escape', path: 'out/target2.txt' },
    });
    await expect(attempt('b.txt', defaultEditPolicy({ artifacts: ['a.txt'] }))).rejects.toMatchObject({
      data: { rule: 'not-an-artifact', path: 'b.txt' },
    });
    await expect(attempt('big.txt', defaultEditPolicy({ maxFileBytes: 1 }))).rejects.toMatchObject({
      data: { rule: 'too-large' },
    });
    expect(snapshot(dir)).toEqual(before);
    expect(snapshot(outside)).toEqual({ 'target.txt': 'safe\n' });
  });

  it('refuses a plan whose files changed on disk since planning', async () => {
    const dir = workspace({ 'a.txt': 'edited by the user\n' });
    await expect(
      applyEditSet(
        dir,
        { format: 'whole-file', changes: [{ path: 'a.txt', before: 'a\n', after: 'b\n' }] },
        defaultEditPolicy(),
      ),
    ).rejects.toMatchObject({ data: { rule: 'patch-does-not-apply', path: 'a.txt' } });
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('edited by the user\n');
  });

  it('restores every file when a write fails midway', async () => {
    const dir = workspace({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
    const before = snapshot(dir);
    let renames = 0;
    const failing: FileOps = {
      ...realFileOps,
      async rename(from, to) {
        // Fail on the third file's swap, after the first two are already in place.
        if (++renames === 5) throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
        await realFileOps.rename(from, to);
      },
    };
    await expect(
      applyEditSetWith(
        failing,
        dir,
        {
          format: 'whole-file',
          changes: [
            { path: 'a.txt', before: 'a\n', after: 'A\n' },
            { path: 'b.txt', before: 'b\n', after: null },
            { path: 'c.txt', before: 'c\n', after: 'C\n' },
            { path: 'd/new.txt', before: null, after: 'new\n' },
          ],
        },
        defaultEditPolicy(),
      ),
    ).rejects.toMatchObject({ code: 'EDIT_APPLY_FAILED', data: { cause: 'ENOSPC' } });
    expect(snapshot(dir)).toEqual(before);
  });

  it('names a file it could not put back and where its original is, instead of calling it restored', async () => {
    const dir = workspace({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
    let renames = 0;
    const failing: FileOps = {
      ...realFileOps,
      async rename(from, to) {
        // The third file's swap fails; then, rolling back, a.txt's original cannot be renamed back (the last rename).
        if (++renames === 5) throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
        if (renames === 8) throw Object.assign(new Error('I/O error'), { code: 'EIO' });
        await realFileOps.rename(from, to);
      },
    };
    const error = await applyEditSetWith(
      failing,
      dir,
      {
        format: 'whole-file',
        changes: [
          { path: 'a.txt', before: 'a\n', after: 'A\n' },
          { path: 'b.txt', before: 'b\n', after: null },
          { path: 'c.txt', before: 'c\n', after: 'C\n' },
        ],
      },
      defaultEditPolicy(),
    ).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'EDIT_APPLY_FAILED',
      data: { cause: 'ENOSPC', unrestored: [{ path: 'a.txt', backup: expect.stringContaining('.a.txt.lathe-old-') }] },
    });
    const { backup } = (error as { data: { unrestored: { backup: string }[] } }).data.unrestored[0] as {
      backup: string;
    };
    expect((error as Error).message).toContain(`a.txt could not be put back (the original is at ${backup})`);
    expect((error as Error).message).not.toContain('every file was restored');
    expect(fs.readFileSync(backup, 'utf8')).toBe('a\n');
    expect(fs.readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe('b\n');
  });

  it('creates nothing when a parent path is a file', async () => {
    const dir = workspace({ 'a.txt': 'a\n' });
    await expect(
      applyEditSet(
        dir,
        { format: 'whole-file', changes: [{ path: 'a.txt/b.txt', before: null, after: 'x\n' }] },
        defaultEditPolicy(),
      ),
    ).rejects.toMatchObject({ code: 'EDIT_REJECTED', data: { rule: 'invalid-path' } });
    expect(snapshot(dir)).toEqual({ 'a.txt': 'a\n' });
  });
});
