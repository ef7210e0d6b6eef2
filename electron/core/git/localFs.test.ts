import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { describe, expect, it } from 'vitest';
import { localFs, syncFs } from './localFs';

describe('the in-place file calls', () => {
  it('reject (never throw) with the same error codes as fs.promises', async () => {
    const missing = path.join(os.tmpdir(), 'lathe-localfs-missing', 'x');
    const call = syncFs.readFile(missing);
    expect(call).toBeInstanceOf(Promise);
    await expect(call).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(fs.promises.readFile(missing)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(syncFs.lstat(missing, { bigint: true })).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('serve isomorphic-git: a repository made and read through them is one git reads', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-localfs-'));
    try {
      await git.init({ fs: localFs, dir, defaultBranch: 'main' });
      fs.writeFileSync(path.join(dir, 'a.txt'), 'a\n');
      await git.add({ fs: localFs, dir, filepath: 'a.txt' });
      const author = { name: 't', email: 't@example.test', timestamp: 1_700_000_000, timezoneOffset: 0 };
      const oid = await git.commit({ fs: localFs, dir, message: 'm', author, committer: author });
      expect(await git.resolveRef({ fs, dir, ref: 'main' })).toBe(oid);
      expect((await git.readCommit({ fs: localFs, dir, oid })).commit.message).toBe('m\n');
      const stat = await syncFs.stat(path.join(dir, 'a.txt'), { bigint: true });
      expect(typeof stat.size).toBe('bigint');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
